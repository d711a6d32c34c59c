"""The sweep: whatever a dead broker or a dead worker left undone is sent again.

Runs when a worker starts (:func:`evaluation.tasks` connects it to ``worker_ready``),
every ``EARSHOT_SWEEP_SECONDS`` on the Celery beat schedule (``make run``'s worker runs
the schedule itself with ``-B``), and at the start of ``manage.py recompute``:

1. changes judging could not hand over (:class:`judging.models.PendingHandoff`) are
   handed over now: the recompute each would have asked for is requested;
2. rows ``running`` on a worker that is gone — one that stopped beating
   (:data:`~evaluation.services.recompute.DEAD_AFTER`), or, when a worker starts, one
   claimed by an earlier life of that same worker — go back to ``pending``, unless that
   was their second run (:data:`work.runs.MAX_RUNS`): then they are failed for good
   (:data:`~evaluation.services.recompute.WORKER_LOST`);
3. every ``pending`` row whose message was never sent or may be lost is sent again;
4. judging's background jobs (uploads, the example generator) the same way: a job
   whose worker went silent is taken over or failed with its files kept, a queued job
   whose message may be lost is sent again (:func:`judging.services.jobs.jobs_sweep`).

Sending the same recompute twice is harmless (the claim is a conditional update), so the
sweep never needs to know whether a message is still somewhere in the broker.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from evaluation.models import Recompute
from evaluation.services import recompute
from evaluation.services.handoffs import RECEIVERS
from evaluation.services.recompute import WORKER_LOST, dead, resendable
from judging.models import PendingHandoff
from judging.services.jobs import jobs_sweep
from work.runs import MAX_RUNS

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepReport:
    handed_over: int
    revived: int
    sent: int
    jobs_sent: int = 0
    jobs_failed: int = 0


def pending_handoffs_hand_over() -> int:
    """Request the recompute each written-down handoff stands for; delete it. How many."""
    done = 0
    for pending in PendingHandoff.objects.order_by("pk"):
        with transaction.atomic():
            receive = RECEIVERS.get(pending.task)
            if receive is not None:
                receive(pending.target_id)
            else:
                logger.warning("unknown handoff %s: dropped", pending)
            PendingHandoff.objects.filter(pk=pending.pk, failed_at=pending.failed_at).delete()
        done += 1
    return done


def dead_recomputes_revive(*, worker: str = "", started_at: datetime | None = None) -> int:
    """Running rows of dead workers back to pending (and dirty); how many.

    ``worker`` and ``started_at`` (a worker starting up) also revive what an earlier
    life of that same worker left running, without waiting for its heartbeat to age.
    """
    now = timezone.now()
    gone = dead(now)
    if worker and started_at is not None:
        gone |= Q(status=Recompute.RUNNING, claimed_by=worker, claimed_at__lt=started_at)
    # A second worker died under it: failed for good, "Recompute now" tries again.
    Recompute.objects.filter(gone, attempts__gte=MAX_RUNS).update(
        status=Recompute.FAILED, error=WORKER_LOST, message="failed", finished_at=now
    )
    return Recompute.objects.filter(gone).update(
        status=Recompute.PENDING, dirty=True, enqueued_at=None,
        message="its worker stopped: waiting to compute again",
    )  # fmt: skip


def pending_recomputes_send() -> int:
    """Send every pending row whose message was never sent or may be lost; how many sent."""
    sent = 0
    for pk in Recompute.objects.filter(resendable(timezone.now())).values_list("pk", flat=True):
        # Claim the resend with a conditional update, so two sweeps never both send it.
        marked = Recompute.objects.filter(resendable(timezone.now()), pk=pk).update(
            enqueued_at=timezone.now(), message="waiting for a worker"
        )
        if marked and recompute._enqueue(pk, countdown=0):
            sent += 1
    return sent


def recompute_sweep(*, worker: str = "", started_at: datetime | None = None) -> SweepReport:
    """The four steps of the module, in order; see there."""
    handed = pending_handoffs_hand_over()
    revived = dead_recomputes_revive(worker=worker, started_at=started_at)
    sent = pending_recomputes_send()
    jobs = jobs_sweep()
    if handed or revived or sent or jobs.sent_again or jobs.failed:
        logger.info("sweep: %s handoffs handed over, %s recomputes revived, %s sent; %s jobs "
                    "sent again, %s failed", handed, revived, sent, jobs.sent_again, jobs.failed)  # fmt: skip
    return SweepReport(handed_over=handed, revived=revived, sent=sent, jobs_sent=jobs.sent_again,
                       jobs_failed=jobs.failed)  # fmt: skip
