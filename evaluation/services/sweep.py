"""Evaluation's steps of the one sweep (:mod:`work.sweep`): what a dead broker or a dead
worker left undone of the recomputes is sent again.

The one sweep runs when a worker starts (:mod:`work.tasks` connects it to
``worker_ready``), every ``EARSHOT_SWEEP_SECONDS`` on the Celery beat schedule (``make
run``'s worker runs the schedule itself with ``-B``), and at the start of ``manage.py
recompute``; evaluation registers :func:`recomputes_sweep_step` with it when the app is
ready:

1. (work's own step, :func:`work.handoff.pending_handoffs_hand_over`, just before this
   one) changes the broker did not take (:class:`work.models.PendingHandoff`) are
   handed over: the recompute each would have asked for is requested;
2. rows ``running`` on a worker that is gone — one that stopped beating
   (:data:`~evaluation.services.recompute.DEAD_AFTER`), or, when a worker starts, one
   claimed by an earlier life of that same worker — go back to ``queued``, unless that
   was their second run (:data:`work.runs.MAX_RUNS`): then they are failed for good
   (:data:`~evaluation.services.recompute.WORKER_LOST`);
3. every ``queued`` row whose message was never sent or may be lost is sent again.

Work registers its jobs' step itself (:func:`work.jobs.jobs_sweep_step`);
both are written with :func:`work.state.revive` and :func:`work.state.resend`.

Sending the same recompute twice is harmless (the claim is a conditional update), so the
sweep never needs to know whether a message is still somewhere in the broker.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from evaluation.services import recompute
from evaluation.services.recompute import RECOMPUTES, dead, resendable
from work import state

logger = logging.getLogger(__name__)


def dead_recomputes_revive(*, worker: str = "", started_at: datetime | None = None) -> int:
    """Running rows of dead workers back to queued (and dirty); how many.

    ``worker`` and ``started_at`` (a worker starting up) also revive what an earlier
    life of that same worker left running, without waiting for its heartbeat to age.
    A row a second worker died under is failed for good; "Recompute now" tries again.
    """
    gone = dead(timezone.now())
    if worker and started_at is not None:
        gone |= Q(claimed_by=worker, started_at__lt=started_at)
    _, revived = state.revive(
        RECOMPUTES, gone, dirty=True, enqueued_at=None,
        message="its worker stopped: waiting to compute again",
    )  # fmt: skip
    return revived


def pending_recomputes_send() -> int:
    """Send every queued row whose message was never sent or may be lost; how many sent.
    Each resend is claimed with a conditional update, so two sweeps never both send it."""
    return state.resend(
        RECOMPUTES,
        lambda: resendable(timezone.now()),
        mark=lambda: {"enqueued_at": timezone.now(), "message": "waiting for a worker"},
        send=lambda pk: recompute._enqueue(pk, countdown=0),
    )


def recomputes_sweep_step(*, worker: str = "", started_at: datetime | None = None) -> dict:
    """Steps 2–3 of the module, in order, as a step of the one sweep (:mod:`work.sweep`)."""
    return {
        "revived": dead_recomputes_revive(worker=worker, started_at=started_at),
        "sent": pending_recomputes_send(),
    }
