"""The Celery tasks of background work, all of them: thin, ids in, sent by name.

- ``judging.job_run`` runs a job and ``evaluation.recompute`` a recompute: both
  acknowledged only when done and requeued if their worker process is killed
  (``acks_late``, ``reject_on_worker_lost``), so their names are kept from before issue
  30 (a message may sit in the broker during an upgrade); each calls the body its table
  registered (:func:`work.kinds.table_register`);
- the hand-off receivers (``evaluation.preference_answers_accepted``,
  ``evaluation.collection_data_changed``, ``evaluation.relevance_campaign_changed``,
  sent by :mod:`work.handoff`) delete the sender's marker, then call what the evaluation
  app registered (:func:`work.kinds.receiver_register`);
- ``work.sweep``, the one sweep (:mod:`work.sweep`) on the beat schedule
  (``CELERY_BEAT_SCHEDULE``), also run when a worker starts; ``evaluation.recompute_sweep``
  is its name of before issue 30, kept as an alias for a message sent before the upgrade;
- ``evaluation.worker_heartbeat``: a worker records that it is alive and reaches the
  database (:func:`work.kinds.heartbeat_record`).

Transient errors (:data:`work.runs.TRANSIENT_ERRORS`) are retried with backoff, at most
:data:`work.runs.MAX_RETRIES` times. Nothing in ``work`` imports an app: what the tasks
call is registered from the apps' ``AppConfig.ready()``.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import connections
from django.utils import timezone

from work import kinds
from work.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    JOB_TASK,
    RECOMPUTE_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
    handoff_started,
)
from work.queues import delivered_on, running_on
from work.runs import MAX_RETRIES, TRANSIENT_ERRORS
from work.sweep import work_sweep

SWEEP_TASK = "work.sweep"
SWEEP_TASK_BEFORE = "evaluation.recompute_sweep"
"""The sweep's task name before issue 30 (an alias: a message sent by an old beat)."""
HEARTBEAT_TASK = "evaluation.worker_heartbeat"

logger = logging.getLogger(__name__)


def _run(task, table: str, pk: int) -> bool:
    """Claim and run row ``pk`` of ``table`` on the queue the task came from; a transient
    error is retried with backoff (1, 2, 4, … s), and the row failed once they run out."""
    body = kinds.table(table)
    try:
        with running_on(delivered_on(task.request)):
            return body.run(pk, task_id=task.request.id or "", worker=task.request.hostname or "")
    except TRANSIENT_ERRORS as exc:
        if task.request.retries >= task.max_retries:
            body.fail(pk, exc)
            raise
        raise task.retry(exc=exc, countdown=2**task.request.retries) from exc


@shared_task(name=JOB_TASK, bind=True, max_retries=MAX_RETRIES, acks_late=True)
def run_job(self, job_id: int) -> bool:
    """Run one background job (:func:`work.job_runners.job_run`). Transient database errors
    put the job back in the queue and retry; then it fails with the error."""
    return _run(self, kinds.JOB, job_id)


@shared_task(
    name=RECOMPUTE_TASK, bind=True, max_retries=MAX_RETRIES, acks_late=True,
    reject_on_worker_lost=True,
)  # fmt: skip
def recompute(self, recompute_id: int) -> bool:
    """Claim and run one coalesced recompute (evaluation's
    :func:`~evaluation.services.computers.recompute_run`).

    A redelivered task (its worker process was killed) claims its own row again by task
    id. Transient database errors are retried; the row goes back to ``queued`` meanwhile,
    and it ends ``failed`` when the retries run out.
    """
    return _run(self, kinds.RECOMPUTE, recompute_id)


def _receive(task: str, target: str, target_id: int) -> bool:
    """A hand-off arrived: delete the sender's marker first (a change committed from now
    on sends again, one committed before is read by what follows), then do what was
    registered for it (a coalesced recompute). Whether it asked for new work."""
    handoff_started(task, {target: target_id})
    receive = kinds.receiver(task)
    if receive is None:
        logger.warning("nothing receives %s(%s=%s): dropped", task, target, target_id)
        return False
    return receive(target_id)


_HANDOFF = {"autoretry_for": TRANSIENT_ERRORS, "retry_backoff": True, "max_retries": MAX_RETRIES}


@shared_task(name=ANSWERS_ACCEPTED_TASK, **_HANDOFF)
def preference_answers_accepted(campaign_id: int) -> bool:
    """The accepted answers of a campaign changed: one coalesced recompute of its mapping
    (a burst of answers joins the recompute already queued)."""
    return _receive(ANSWERS_ACCEPTED_TASK, "campaign_id", campaign_id)


@shared_task(name=COLLECTION_CHANGED_TASK, **_HANDOFF)
def collection_data_changed(collection_id: int) -> bool:
    """A collection's judgments or runs changed: one coalesced recompute of its
    leaderboards and reliability studies, and one of each open low-cost campaign's
    estimates."""
    return _receive(COLLECTION_CHANGED_TASK, "collection_id", collection_id)


@shared_task(name=RELEVANCE_CAMPAIGN_CHANGED_TASK, **_HANDOFF)
def relevance_campaign_changed(campaign_id: int) -> bool:
    """A low-cost relevance campaign was created or stopped: one coalesced recompute of
    its estimates and the order of its pairs."""
    return _receive(RELEVANCE_CAMPAIGN_CHANGED_TASK, "campaign_id", campaign_id)


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> None:
    """The one sweep of background work (:mod:`work.sweep`: jobs and recomputes a dead
    broker or worker left undone); on the beat schedule (``CELERY_BEAT_SCHEDULE``)."""
    work_sweep()


@shared_task(name=SWEEP_TASK_BEFORE, ignore_result=True)
def sweep_before() -> None:
    """:func:`sweep` under its name of before issue 30."""
    work_sweep()


@shared_task(name=HEARTBEAT_TASK, bind=True)
def worker_heartbeat(self, nonce: str = "") -> str:
    """Record that this worker is alive and reaches the database; returns its hostname."""
    hostname = self.request.hostname or "unknown"
    kinds.heartbeat_record(hostname=hostname, nonce=nonce)
    return hostname


@worker_ready.connect
def sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A starting worker revives what an earlier life of it left running, and sends again
    whatever is queued: nothing waits for the schedule after a crash and a restart."""
    started_at = timezone.now()
    try:
        work_sweep(worker=getattr(sender, "hostname", "") or "", started_at=started_at)
    except Exception:  # the database may be down too: the schedule tries again
        logger.warning("the start-up sweep failed; the scheduled sweep tries again", exc_info=True)
    finally:
        connections.close_all()
