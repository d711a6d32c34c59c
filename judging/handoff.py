"""The one place where judging hands accepted preference answers over to evaluation.

``judging`` never imports the evaluation Django layer (ARCHITECTURE.md): when the set
of accepted answers of a campaign changes (answers accepted, or earlier accepted ones
excluded because their worker was stopped), the change is announced *after the
transaction commits* by sending a Celery task **by name**:

    evaluation.preference_answers_accepted(campaign_id=<int>)

The results issue implements that task; it must be idempotent (it recomputes the
campaign's mapping from all accepted answers, ``Answer.accepted_at`` not null).

However many answers change inside one transaction, the task is sent once per campaign
per commit; nothing is sent when the transaction rolls back. A broker outage never
breaks an answer that is already committed: the failure is logged, and the next
change (or a manual recompute) catches up.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

ANSWERS_ACCEPTED_TASK = "evaluation.preference_answers_accepted"

logger = logging.getLogger(__name__)

_PENDING = "_earshot_accepted_campaigns"


def preference_answers_changed(*, campaign_id: int) -> None:
    """Send :data:`ANSWERS_ACCEPTED_TASK` for the campaign once the transaction commits."""
    connection = transaction.get_connection()
    pending: set[int] = connection.__dict__.setdefault(_PENDING, set())
    pending.add(campaign_id)
    transaction.on_commit(lambda: _send_once(connection, campaign_id))


def _send_once(connection, campaign_id: int) -> None:
    pending: set[int] = connection.__dict__.setdefault(_PENDING, set())
    if campaign_id not in pending:
        return  # already sent for this commit by an earlier callback
    pending.discard(campaign_id)
    try:
        send_task(ANSWERS_ACCEPTED_TASK, kwargs={"campaign_id": campaign_id})
    except Exception:
        logger.exception("could not hand accepted answers of campaign %s over", campaign_id)


def send_task(name: str, *, kwargs: dict) -> None:
    """Enqueue a task by name on the project's Celery app (tests replace this function)."""
    current_app.send_task(name, kwargs=kwargs)
