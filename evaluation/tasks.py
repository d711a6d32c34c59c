"""Celery tasks of the evaluation layer: thin, idempotent, ids in.

Every task has a stable name: :mod:`judging.handoff` and
:mod:`evaluation.services.recompute` send them by name, so nothing below imports this
module.
"""

from __future__ import annotations

from celery import shared_task

from evaluation.services.computers import recompute_run
from evaluation.services.estimates import campaign_estimate_request, lowcost_campaigns_request
from evaluation.services.heartbeat import worker_heartbeat_record
from evaluation.services.mappings import campaign_mapping_request
from evaluation.services.recompute import RECOMPUTE_TASK, TRANSIENT_ERRORS, recompute_fail
from evaluation.services.results import collection_results_request
from judging.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
)
from judging.models import Collection, PreferenceCampaign, RelevanceCampaign

MAX_RETRIES = 5


@shared_task(name="evaluation.worker_heartbeat", bind=True)
def worker_heartbeat(self, nonce: str = "") -> str:
    """Record that this worker is alive and reaches the database; returns its hostname."""
    hostname = self.request.hostname or "unknown"
    worker_heartbeat_record(hostname=hostname, nonce=nonce)
    return hostname


@shared_task(
    name=ANSWERS_ACCEPTED_TASK,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=MAX_RETRIES,
)
def preference_answers_accepted(campaign_id: int) -> bool:
    """The accepted answers of a campaign changed (sent by name from :mod:`judging.handoff`).

    Asks for one coalesced recompute of the campaign's mapping: a burst of answers
    joins the recompute already pending. Returns whether this call enqueued it.
    """
    campaign = PreferenceCampaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return False  # deleted meanwhile
    return campaign_mapping_request(campaign=campaign)


@shared_task(
    name=COLLECTION_CHANGED_TASK,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=MAX_RETRIES,
)
def collection_data_changed(collection_id: int) -> bool:
    """A collection's judgments or runs changed (sent by name from :mod:`judging.handoff`).

    Asks for one coalesced recompute of its leaderboards and reliability studies, and
    one of the estimates of each of its open low-cost campaigns.
    """
    collection = Collection.objects.filter(pk=collection_id).first()
    if collection is None:
        return False  # deleted meanwhile
    lowcost_campaigns_request(collection=collection)
    return collection_results_request(collection=collection)


@shared_task(
    name=RELEVANCE_CAMPAIGN_CHANGED_TASK,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=MAX_RETRIES,
)
def relevance_campaign_changed(campaign_id: int) -> bool:
    """A low-cost relevance campaign was created or stopped (sent from :mod:`judging.handoff`).

    Asks for one coalesced recompute of its estimates and the order of its pairs.
    """
    campaign = RelevanceCampaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not campaign.is_lowcost:
        return False  # deleted meanwhile, or nothing to estimate
    return campaign_estimate_request(campaign=campaign)


@shared_task(name=RECOMPUTE_TASK, bind=True, max_retries=MAX_RETRIES, acks_late=True)
def recompute(self, recompute_id: int) -> bool:
    """Claim and run one coalesced recompute (see :mod:`evaluation.services.recompute`).

    Transient database errors are retried with exponential backoff (1, 2, 4, … s,
    at most 5 times); the service puts the row back to ``pending`` meanwhile, and it
    ends ``failed`` when the retries run out.
    """
    try:
        return recompute_run(recompute_id=recompute_id)
    except TRANSIENT_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            recompute_fail(recompute_id=recompute_id, error=f"gave up after retries: {exc}")
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
