"""The one place where judging hands its changes over to evaluation.

``judging`` never imports the evaluation Django layer (ARCHITECTURE.md): a change is
announced *after the transaction commits* by sending a Celery task **by name**:

- ``evaluation.preference_answers_accepted(campaign_id=<int>)`` when the set of
  accepted answers of a campaign changes (answers accepted, or earlier accepted ones
  excluded because their worker was stopped);
- ``evaluation.collection_data_changed(collection_id=<int>)`` when a collection's
  judgments or runs change (an assessor completes a judgment, an import, the API);
  evaluation then also refreshes the estimates of the collection's open low-cost
  campaigns;
- ``evaluation.relevance_campaign_changed(campaign_id=<int>)`` when a low-cost relevance
  campaign is created or stopped (its estimates order its pairs);
- ``judging.job_run(job_id=<int>)`` when a page starts a background job
  (:mod:`judging.services.jobs`); if it cannot be sent, the job is marked failed so
  that its page says so instead of waiting forever.

All tasks are idempotent and coalesced in evaluation (they recompute from all the
data), so however many changes one transaction makes, each task is sent once per
target per commit; nothing is sent when the transaction rolls back. A broker outage never
breaks an answer that is already committed: the failure is logged, and the next
change (or a manual recompute) catches up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import current_app
from django.db import transaction

ANSWERS_ACCEPTED_TASK = "evaluation.preference_answers_accepted"
COLLECTION_CHANGED_TASK = "evaluation.collection_data_changed"
RELEVANCE_CAMPAIGN_CHANGED_TASK = "evaluation.relevance_campaign_changed"
JOB_TASK = "judging.job_run"

logger = logging.getLogger(__name__)

_PENDING = "_earshot_handoffs"


def preference_answers_changed(*, campaign_id: int) -> None:
    """Send :data:`ANSWERS_ACCEPTED_TASK` for the campaign once the transaction commits."""
    _announce(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign_id})


def collection_data_changed(*, collection_id: int) -> None:
    """Send :data:`COLLECTION_CHANGED_TASK` for the collection once the transaction commits."""
    _announce(COLLECTION_CHANGED_TASK, {"collection_id": collection_id})


def relevance_campaign_changed(*, campaign_id: int) -> None:
    """Send :data:`RELEVANCE_CAMPAIGN_CHANGED_TASK` once the transaction commits."""
    _announce(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign_id})


def job_queued(*, job_id: int, on_error: Callable[[Exception], None]) -> None:
    """Send :data:`JOB_TASK` for the job once the transaction commits; ``on_error`` if it fails."""
    _announce(JOB_TASK, {"job_id": job_id}, on_error=on_error)


def _announce(
    task: str, kwargs: dict[str, int], *, on_error: Callable[[Exception], None] | None = None
) -> None:
    connection = transaction.get_connection()
    key = (task, *sorted(kwargs.items()))
    pending: set[tuple] = connection.__dict__.setdefault(_PENDING, set())
    pending.add(key)
    transaction.on_commit(lambda: _send_once(connection, key, task, kwargs, on_error))


def _send_once(
    connection,
    key: tuple,
    task: str,
    kwargs: dict[str, int],
    on_error: Callable[[Exception], None] | None = None,
) -> None:
    pending: set[tuple] = connection.__dict__.setdefault(_PENDING, set())
    if key not in pending:
        return  # already sent for this commit by an earlier callback
    pending.discard(key)
    try:
        send_task(task, kwargs=kwargs)
    except Exception as error:
        arguments = ", ".join(f"{name}={value}" for name, value in kwargs.items())
        logger.exception(
            "could not send %s(%s); the next change or a manual recompute catches up",
            task,
            arguments,
        )
        if on_error is not None:
            on_error(error)


def send_task(name: str, *, kwargs: dict) -> None:
    """Enqueue a task by name on the project's Celery app (tests replace this function)."""
    current_app.send_task(name, kwargs=kwargs)
