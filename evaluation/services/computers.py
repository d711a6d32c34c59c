"""What each kind of recompute target computes, and the task body that runs one.

:data:`COMPUTERS` lists them: adding a kind of target is one line here (and one in
:attr:`evaluation.models.Recompute.KINDS`); the app registers each with the one registry
of background work (:mod:`work.kinds`). :func:`recompute_run` walks the state machine of
:mod:`evaluation.services.recompute` around a computer.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded

from evaluation.models import Recompute
from evaluation.services.estimates import campaign_estimate_compute
from evaluation.services.mappings import campaign_mapping_recompute
from evaluation.services.optimality import collection_optimality_compute
from evaluation.services.recompute import (
    HEARTBEAT_EVERY,
    MAX_INLINE_RUNS,
    RECOMPUTES,
    recompute_claim,
    recompute_fail,
    recompute_finish,
    recompute_hand_over,
    recompute_hand_to_heavy,
    recompute_may_rerun_now,
    recompute_release,
    recompute_time_out,
)
from evaluation.services.results import collection_results_compute
from work import state
from work.kinds import RECOMPUTE, kind_runner
from work.limits import TooHeavyHere, WorkRefused
from work.progress import FractionReport, WorkReport
from work.runs import TRANSIENT_ERRORS

logger = logging.getLogger(__name__)

COMPUTERS = (
    ("collection", collection_results_compute),  # leaderboards and reliability studies
    ("campaign", campaign_mapping_recompute),  # a campaign's mapping, then its collection
    ("lowcost", campaign_estimate_compute),  # a low-cost campaign's estimates and judging order
    ("optimality", collection_optimality_compute),  # "Choosing a test": thesis ch. 5's study
)
"""``kind`` of a :class:`~evaluation.models.Recompute` and what computes it,
``computer(*, target_id, report)``: registered as kinds of background work
(:func:`work.kinds.kind_register`) by :class:`evaluation.apps.EvaluationConfig`."""


def recompute_run(
    *, recompute_id: int, task_id: str = "", worker: str = "", report: FractionReport | None = None
) -> bool:
    """Claim and compute one target; ``False`` if another task has it (or it is gone).

    ``task_id`` and ``worker`` name who runs it (a redelivered task claims its own row
    again); ``report`` also hears the progress (``manage.py recompute`` prints it).
    """
    if not recompute_claim(recompute_id=recompute_id, task_id=task_id, worker=worker):
        return False
    row = Recompute.objects.get(pk=recompute_id)
    computer = kind_runner(row.kind, table=RECOMPUTE)
    if computer is None:
        recompute_fail(recompute_id=recompute_id, error=f"nothing computes {row.kind!r} targets")
        return True
    stored = WorkReport(RECOMPUTES, recompute_id).fraction
    progress = stored if report is None else _Both(stored, report)
    with state.Heartbeat(RECOMPUTES, recompute_id, every=HEARTBEAT_EVERY):
        for run in range(1, MAX_INLINE_RUNS + 1):
            try:
                computer(target_id=row.target_id, report=progress)
            except TRANSIENT_ERRORS:
                recompute_release(recompute_id=recompute_id)
                raise
            except TooHeavyHere:  # found before computing anything: to the heavy queue
                recompute_hand_to_heavy(recompute_id=recompute_id)
                return True
            except WorkRefused as refusal:  # over a limit: the results page says why
                recompute_fail(recompute_id=recompute_id, error=refusal.message)
                return True
            except SoftTimeLimitExceeded:
                logger.warning("recompute of %s %s ran out of time", row.kind, row.target_id)
                recompute_time_out(recompute_id=recompute_id)
                return True
            except Exception as exc:
                logger.exception("recompute of %s %s failed", row.kind, row.target_id)
                recompute_fail(recompute_id=recompute_id, error=f"{type(exc).__name__}: {exc}")
                return True
            again = run < MAX_INLINE_RUNS and recompute_may_rerun_now(recompute_id=recompute_id)
            if recompute_finish(recompute_id=recompute_id, compute_again=again):
                return True
            if not again:
                break
            # New data arrived while computing, and the minimum interval has passed (or
            # nothing debounces it): compute once more with it (otherwise a fresh task
            # waits out the interval).
    recompute_hand_over(recompute_id=recompute_id)
    return True


class _Both:
    """Progress to the row and to another listener."""

    def __init__(self, first: FractionReport, second: FractionReport) -> None:
        self.first, self.second = first, second

    def __call__(self, fraction: float, message: str = "", *, force: bool = False) -> None:
        self.first(fraction, message, force=force)
        self.second(fraction, message, force=force)
