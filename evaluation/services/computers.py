"""What each kind of recompute target computes, and the task body that runs one.

:data:`COMPUTERS` is a plain table: adding a kind of target is one line here (and one
in :attr:`evaluation.models.Recompute.KINDS`). :func:`recompute_run` walks the state
machine of :mod:`evaluation.services.recompute` around a computer.
"""

from __future__ import annotations

import logging

from evaluation.models import Recompute
from evaluation.services.estimates import campaign_estimate_compute
from evaluation.services.mappings import campaign_mapping_recompute
from evaluation.services.recompute import (
    MAX_INLINE_RUNS,
    TRANSIENT_ERRORS,
    Computer,
    ProgressReport,
    recompute_claim,
    recompute_fail,
    recompute_finish,
    recompute_hand_over,
    recompute_release,
)
from evaluation.services.results import collection_results_compute

logger = logging.getLogger(__name__)

COMPUTERS: dict[str, Computer] = {
    "collection": collection_results_compute,  # leaderboards and reliability studies
    "campaign": campaign_mapping_recompute,  # a campaign's mapping, then its collection
    "lowcost": campaign_estimate_compute,  # a low-cost campaign's estimates and judging order
}
"""``kind`` of a :class:`~evaluation.models.Recompute` → ``computer(*, target_id, report)``."""


def recompute_run(*, recompute_id: int) -> bool:
    """Claim and compute one target; ``False`` if another task has it (or it is gone)."""
    if not recompute_claim(recompute_id=recompute_id):
        return False
    row = Recompute.objects.get(pk=recompute_id)
    computer = COMPUTERS.get(row.kind)
    if computer is None:
        recompute_fail(recompute_id=recompute_id, error=f"nothing computes {row.kind!r} targets")
        return True
    report = ProgressReport(recompute_id)
    for _ in range(MAX_INLINE_RUNS):
        try:
            computer(target_id=row.target_id, report=report)
        except TRANSIENT_ERRORS:
            recompute_release(recompute_id=recompute_id)
            raise
        except Exception as exc:
            logger.exception("recompute of %s %s failed", row.kind, row.target_id)
            recompute_fail(recompute_id=recompute_id, error=f"{type(exc).__name__}: {exc}")
            return True
        if recompute_finish(recompute_id=recompute_id):
            return True
        # New data arrived while computing: compute once more with it.
    recompute_hand_over(recompute_id=recompute_id)
    return True
