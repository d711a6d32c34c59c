"""The one progress protocol of background work: how a runner or a computer says how far
it is, and how that is written to its row.

Every table of background work stores its progress as ``done`` of ``total``
(:class:`work.models.Work`) and gives it in the one status document
(:meth:`~work.models.Work.work_status`: ``fraction``). :class:`WorkReport` is the one
writer: a job's runner counts (``report(278, 1000, "row 278")``); a computation that only
knows a fraction, as the numerical core does, reports it through the same object
(``report.fraction(0.3, "fitting")``: 3,000 of :data:`~work.models.work.PARTS`). Writes
are throttled (at most one every ``interval`` seconds, unless ``force``) and each is one
conditional ``UPDATE`` of a running row (:func:`work.state.progress`), so a report also
finds out whether the work should stop.
"""

from __future__ import annotations

from typing import Protocol

from django.db.models import Case, F, Q, Value, When

from work import state
from work.models.work import PARTS


class Report(Protocol):
    """How a runner reports progress: ``done`` of ``total`` (``None``: unknown), a message;
    ``force`` writes at once."""

    def __call__(
        self, done: int, total: int | None = None, message: str = "", *, force: bool = False
    ) -> None: ...


class FractionReport(Protocol):
    """How a computation reports progress: a fraction in [0, 1] and a message
    (:meth:`WorkReport.fraction`; the numerical core's ``report``)."""

    def __call__(self, fraction: float, message: str = "", *, force: bool = False) -> None: ...


def no_report(fraction: float, message: str = "", *, force: bool = False) -> None:
    """The :class:`FractionReport` of a computation nobody follows: it does nothing."""


class WorkReport:
    """Writes a running row's progress, at most every ``interval`` seconds.

    ``only`` narrows the rows written (a job: not asked to stop); when the row is not
    written (it is no longer running, or ``only`` excludes it) ``stopped`` is raised, if
    given (a job's :class:`~work.jobs.JobCancelled`, which ends its runner).
    """

    def __init__(
        self,
        machine: state.Machine,
        pk: int,
        *,
        only: Q | None = None,
        stopped: type[Exception] | None = None,
        interval: float = 0.25,
    ) -> None:
        self.machine, self.pk, self.only, self.stopped = machine, pk, only, stopped
        self.throttle = state.Throttle(interval=interval)

    def __call__(
        self, done: int, total: int | None = None, message: str = "", *, force: bool = False
    ) -> None:
        if not self.throttle.due(force=force):
            return
        done = max(0, int(done))
        changes = {"message": message[:300]}
        if total is not None:
            changes["done"], changes["total"] = done, max(int(total), done)
        else:  # never past the total said earlier
            changes["done"] = Case(When(total__lt=done, then=F("total")), default=Value(done))
        written = state.progress(self.machine, self.pk, only=self.only, **changes)
        if not written and self.stopped is not None:
            raise self.stopped

    def fraction(self, fraction: float, message: str = "", *, force: bool = False) -> None:
        """Progress as a fraction in [0, 1]: written as ``round(fraction * PARTS)`` of
        :data:`~work.models.work.PARTS`."""
        self(round(min(1.0, max(0.0, float(fraction))) * PARTS), PARTS, message, force=force)
