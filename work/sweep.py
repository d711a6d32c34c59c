"""The one sweep of background work: whatever a dead broker or worker left undone is
sent again, failed for good, or handed over.

It runs when a worker starts (``work.tasks`` connects it to ``worker_ready``),
every ``EARSHOT_SWEEP_SECONDS`` on the Celery beat schedule, and at the start of
``manage.py recompute``. Each table of background work registers its step when its app
is ready (:func:`sweep_register`; ``judging``: its jobs; ``evaluation``: the hand-offs
judging wrote down, then the recomputes), and every step is written with
:func:`work.state.revive` and :func:`work.state.resend`, so there is one way of taking
over, failing and resending work. This module imports neither app.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

logger = logging.getLogger(__name__)

Step = Callable[..., Mapping[str, int]]
"""``step(*, worker, started_at) -> {count name: count}``."""

_STEPS: dict[str, Step] = {}


def sweep_register(name: str, step: Step) -> None:
    """Add (or replace) the step ``name``; steps run in the order they were added."""
    _STEPS[name] = step


@dataclass(frozen=True)
class SweepReport:
    """What the steps counted, by name (``report.sent``, ``report.jobs_failed``, …)."""

    counts: Mapping[str, int] = field(default_factory=dict)

    def __getattr__(self, name: str) -> int:
        counts = self.__dict__.get("counts", {})
        if name in counts:
            return counts[name]
        raise AttributeError(name)


def work_sweep(*, worker: str = "", started_at: datetime | None = None) -> SweepReport:
    """Every registered step, in order. ``worker`` and ``started_at`` (a worker starting
    up) let a step take back at once what an earlier life of that same worker left."""
    counts: dict[str, int] = {}
    for step in list(_STEPS.values()):
        counts.update(step(worker=worker, started_at=started_at))
    if any(counts.values()):
        logger.info("sweep: %s", ", ".join(f"{n} {name}" for name, n in counts.items()))
    return SweepReport(counts)
