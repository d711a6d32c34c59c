"""Writes of the evaluation layer, one module per area; import them from here."""

from evaluation.services.heartbeat import worker_heartbeat_record
from evaluation.services.mappings import (
    campaign_mapping_compute,
    campaign_mapping_recompute,
    campaign_mapping_request,
)
from evaluation.services.recompute import (
    recompute_fail,
    recompute_release,
    recompute_request,
    recompute_run,
)
from evaluation.services.results import collection_results_compute, collection_results_request

__all__ = [
    "campaign_mapping_compute",
    "campaign_mapping_recompute",
    "campaign_mapping_request",
    "collection_results_compute",
    "collection_results_request",
    "recompute_fail",
    "recompute_release",
    "recompute_request",
    "recompute_run",
    "worker_heartbeat_record",
]
