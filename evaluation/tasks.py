"""Celery tasks of the evaluation layer: thin, idempotent, ids in.

Every task has a stable name: :mod:`work.handoff` and
:mod:`evaluation.services.recompute` send them by name, so nothing below imports this
module.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import connections
from django.utils import timezone

from evaluation.services.computers import recompute_run
from evaluation.services.handoffs import (
    collection_change_received,
    preference_answers_received,
    relevance_campaign_change_received,
)
from evaluation.services.heartbeat import worker_heartbeat_record
from evaluation.services.recompute import RECOMPUTE_TASK, TRANSIENT_ERRORS, recompute_fail
from work.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
    handoff_started,
)
from work.queues import delivered_on, running_on
from work.sweep import work_sweep

MAX_RETRIES = 5
SWEEP_TASK = "evaluation.recompute_sweep"

logger = logging.getLogger(__name__)


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
    """The accepted answers of a campaign changed (sent by name from :mod:`work.handoff`).

    Asks for one coalesced recompute of the campaign's mapping: a burst of answers
    joins the recompute already pending. Returns whether this call enqueued it. First of
    all it deletes the sender's marker (:func:`work.handoff.handoff_started`): an
    answer committed from now on sends again, one committed before is read below.
    """
    handoff_started(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign_id})
    return preference_answers_received(campaign_id)


@shared_task(
    name=COLLECTION_CHANGED_TASK,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=MAX_RETRIES,
)
def collection_data_changed(collection_id: int) -> bool:
    """A collection's judgments or runs changed (sent by name from :mod:`work.handoff`).

    Asks for one coalesced recompute of its leaderboards and reliability studies, and
    one of the estimates of each of its open low-cost campaigns. Deletes the sender's
    marker first, as :func:`preference_answers_accepted` does.
    """
    handoff_started(COLLECTION_CHANGED_TASK, {"collection_id": collection_id})
    return collection_change_received(collection_id)


@shared_task(
    name=RELEVANCE_CAMPAIGN_CHANGED_TASK,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=MAX_RETRIES,
)
def relevance_campaign_changed(campaign_id: int) -> bool:
    """A low-cost relevance campaign was created or stopped (sent from :mod:`work.handoff`).

    Asks for one coalesced recompute of its estimates and the order of its pairs. Deletes
    the sender's marker first, as :func:`preference_answers_accepted` does.
    """
    handoff_started(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign_id})
    return relevance_campaign_change_received(campaign_id)


@shared_task(
    name=RECOMPUTE_TASK, bind=True, max_retries=MAX_RETRIES, acks_late=True,
    reject_on_worker_lost=True,
)  # fmt: skip
def recompute(self, recompute_id: int) -> bool:
    """Claim and run one coalesced recompute (see :mod:`evaluation.services.recompute`).

    Acknowledged only when done, and requeued if its worker process is killed
    (``acks_late``, ``reject_on_worker_lost``): the redelivered task claims its own row
    again by task id. Transient database errors are retried with exponential backoff
    (1, 2, 4, … s, at most 5 times); the service puts the row back to ``pending``
    meanwhile, and it ends ``failed`` when the retries run out.
    """
    try:
        with running_on(delivered_on(self.request)):
            return recompute_run(
                recompute_id=recompute_id,
                task_id=self.request.id or "",
                worker=self.request.hostname or "",
            )
    except TRANSIENT_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            recompute_fail(recompute_id=recompute_id, error=f"gave up after retries: {exc}")
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> None:
    """The one sweep of background work (:mod:`work.sweep`: jobs and recomputes a dead
    broker or worker left undone); on the beat schedule (``CELERY_BEAT_SCHEDULE``)."""
    work_sweep()


@worker_ready.connect
def sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A starting worker revives what an earlier life of it left running, and sends again
    whatever is pending: nothing waits for the schedule after a crash and a restart."""
    started_at = timezone.now()
    try:
        work_sweep(worker=getattr(sender, "hostname", "") or "", started_at=started_at)
    except Exception:  # the database may be down too: the schedule tries again
        logger.warning("the start-up sweep failed; the scheduled sweep tries again", exc_info=True)
    finally:
        connections.close_all()
