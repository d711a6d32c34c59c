"""Writes of the evaluation layer, one module per area.

``recompute`` (the coalescing state machine) ← ``leaderboard_store`` (a leaderboard
and the parts its pages read) ← ``leaderboards`` ← ``estimates`` (estimates from
incomplete judgments: low-cost campaigns, estimated leaderboards) ← ``results`` (a
collection's leaderboards and reliability studies) ← ``mappings`` (a campaign's
satisfaction mapping) ← ``optimality`` (a collection's "Choosing a test" study, thesis
ch. 5) ← ``computers`` (what each kind of recompute target runs, and the task body): each
imports only those to its left. The most used services are
re-exported here.
"""

from evaluation.services.computers import recompute_run
from evaluation.services.estimates import (
    campaign_estimate_compute,
    campaign_estimate_request,
    lowcost_campaigns_request,
)
from evaluation.services.heartbeat import worker_heartbeat_record
from evaluation.services.mappings import (
    campaign_mapping_compute,
    campaign_mapping_recompute,
    campaign_mapping_request,
)
from evaluation.services.recompute import recompute_fail, recompute_release, recompute_request
from evaluation.services.results import collection_results_compute, collection_results_request

__all__ = [
    "campaign_estimate_compute",
    "campaign_estimate_request",
    "campaign_mapping_compute",
    "campaign_mapping_recompute",
    "campaign_mapping_request",
    "collection_results_compute",
    "collection_results_request",
    "lowcost_campaigns_request",
    "recompute_fail",
    "recompute_release",
    "recompute_request",
    "recompute_run",
    "worker_heartbeat_record",
]
