"""The one state machine of background work, for every table of it (jobs, recomputes).

A piece of background work is a row of a model built on :class:`work.models.Work`
(``work.models.Job``: uploads, the example generator, listening copies;
``evaluation.models.Recompute``: coalesced recomputes of collections, campaigns and
low-cost estimates), with the same fields under the same names on every table
(``state``, ``runs``, ``started_at``, ``done`` of ``total``, …). Its table is described
once by a :class:`Machine` (its model, the error of lost work, when a silent worker is
taken for dead, which field its heartbeat stamps), and every transition of it is one
conditional ``UPDATE`` here, whose row count says whether it happened::

    ──enqueue──▶ queued ──claim──▶ running ──finish──▶ done (result)
                   ▲                  │ ├──fail──▶ failed (error, file, line)
                   └────release───────┘ └──cancel / mark_cancelled──▶ cancelled
    running, silent for Machine.stale_after (its worker died):
        claim (a redelivered task) ──▶ running again, one more claim counted
        revive (the sweep)         ──▶ queued, to be sent again
        either of them, once it was claimed MAX_RUNS times ──▶ failed (Machine.lost)
    queued whose message may be lost ──resend (the sweep)──▶ sent again

Every claim counts a run (:data:`work.runs.MAX_RUNS`); a release (a transient error, a
hand-over) gives it back, since its worker is alive. Progress (:func:`progress`) and
heartbeats (:func:`heartbeat`, :class:`Heartbeat`) stamp the row, so that a live worker
is never taken for a dead one. What a kind of work adds to a transition (a recompute's
``dirty`` flag, a job's result) is passed as further field values; what it decides
(which rows it coalesces, when it is sent) stays in its app. The one sweep that calls
:func:`revive` and :func:`resend` for every table is :mod:`work.sweep`.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import DatabaseError, connections, models
from django.db.models import F, Q
from django.utils import timezone

from work.models.work import DONE, FAILED, QUEUED, RUNNING
from work.runs import MAX_RUNS

logger = logging.getLogger(__name__)

CANCELLED = "cancelled"


@dataclass(frozen=True)
class Machine:
    """Where a table of background work keeps its state.

    ``lost`` is the error of work whose workers died under it :data:`MAX_RUNS` times;
    ``stale_after`` how long a running row may stay silent before its worker is taken
    for dead; ``beat`` the field its heartbeat stamps (a job's ``updated_at``, a
    recompute's ``heartbeat_at``). Every other field has the same name on every table
    (:class:`work.models.Work`: ``state``, ``runs``, ``started_at``, …).
    """

    model: type[models.Model]
    lost: str
    stale_after: timedelta
    beat: str = "updated_at"

    def is_(self, *states: str) -> Q:
        return Q(state__in=states)

    @property
    def active(self) -> tuple[str, str]:
        return (QUEUED, RUNNING)

    def rows(self, pk: int) -> models.QuerySet:
        return self.model.objects.filter(pk=pk)

    def stale(self, now) -> Q:
        """Running rows whose worker stopped beating (or never beat)."""
        before = now - self.stale_after
        return self.is_(RUNNING) & (
            Q(**{f"{self.beat}__lt": before})
            | Q(**{f"{self.beat}__isnull": True, "started_at__lt": before})
        )

    def failed(self, error: str, *, now, file: str = "", line: int | None = None) -> dict:
        """The field values of a failed row."""
        return {
            "state": FAILED, "error": error, "error_file": file[:300], "error_line": line,
            "message": "failed", "finished_at": now, self.beat: now,
        }  # fmt: skip


def enqueue(machine: Machine, rows: models.QuerySet, *, when: Q, **changes) -> int:
    """Rows of ``rows`` matching ``when`` → queued (with ``changes``); how many."""
    return rows.filter(when).update(state=QUEUED, **changes)


def claim(machine: Machine, pk: int, *, also: Q | None = None, **changes) -> bool:
    """queued (or running but stale, or matching ``also``) → running, one more claim
    counted; ``False`` if it is not there to claim.

    A claimable row claimed :data:`MAX_RUNS` times already (its workers died under it)
    is failed for good (``machine.lost``) instead, and ``False`` returned.
    """
    now = timezone.now()
    claimable = machine.is_(QUEUED) | machine.stale(now)
    if also is not None:
        claimable |= also
    rows = machine.model.objects.filter(claimable, pk=pk)
    if rows.filter(runs__gte=MAX_RUNS).update(**machine.failed(machine.lost, now=now)):
        logger.warning(
            "%s %s failed for good: its workers died under it", machine.model.__name__, pk
        )
        return False
    values = {"state": RUNNING, "started_at": now, machine.beat: now, "runs": F("runs") + 1,
              "message": "starting", "error": ""}  # fmt: skip
    return bool(rows.update(**{**values, **changes}))


def heartbeat(machine: Machine, pk: int) -> bool:
    """A running row's worker is alive: stamp it."""
    return bool(
        machine.rows(pk).filter(machine.is_(RUNNING)).update(**{machine.beat: timezone.now()})
    )


def progress(machine: Machine, pk: int, *, only: Q | None = None, **fields) -> bool:
    """Write a running row's progress (and stamp it); ``False`` if it is not running (or
    does not match ``only``, e.g. someone asked it to stop)."""
    rows = machine.rows(pk).filter(machine.is_(RUNNING))
    if only is not None:
        rows = rows.filter(only)
    return bool(rows.update(**{machine.beat: timezone.now()}, **fields))


def release(machine: Machine, pk: int, **changes) -> bool:
    """running → queued (before a retry or a hand-over); its claim does not count, its
    worker is alive (unless ``changes`` say otherwise)."""
    values = {"state": QUEUED, "runs": F("runs") - 1, "message": "retrying"}
    return bool(machine.rows(pk).filter(machine.is_(RUNNING)).update(**{**values, **changes}))


def finish(machine: Machine, pk: int, *, only: Q | None = None, **changes) -> bool:
    """running (and matching ``only``) → done."""
    rows = machine.rows(pk).filter(machine.is_(RUNNING))
    if only is not None:
        rows = rows.filter(only)
    now = timezone.now()
    values = {"state": DONE, "message": "", "finished_at": now, machine.beat: now}
    return bool(rows.update(**{**values, **changes}))


def fail(
    machine: Machine, pk: int, *, error: str, file: str = "", line: int | None = None,
    only: Q | None = None, message: str = "failed",
) -> bool:  # fmt: skip
    """queued or running (and matching ``only``) → failed, with its error and the file
    and line to blame."""
    rows = machine.rows(pk).filter(machine.is_(*machine.active))
    if only is not None:
        rows = rows.filter(only)
    failed = machine.failed(error, now=timezone.now(), file=file, line=line)
    return bool(rows.update(**{**failed, "message": message}))


def mark_cancelled(machine: Machine, pk: int) -> bool:
    """queued or running → cancelled (the work saw that someone asked it to stop)."""
    now = timezone.now()
    return bool(
        machine.rows(pk)
        .filter(machine.is_(*machine.active))
        .update(
            **{"state": CANCELLED, machine.beat: now},
            message="cancelled",
            finished_at=now,
        )
    )


def cancel(machine: Machine, pk: int, *, silent_error: str) -> None:
    """Ask a row to stop (its ``cancel_requested``): a queued one stops at once, a running
    one when it next reports progress, a running one whose worker went silent fails at
    once with ``silent_error``. A finished one is left as it is."""
    now = timezone.now()
    rows = machine.rows(pk)
    if rows.filter(machine.is_(QUEUED)).update(
        state=CANCELLED, cancel_requested=True, message="cancelled", finished_at=now
    ):
        return
    rows.filter(machine.is_(RUNNING)).update(cancel_requested=True)
    rows.filter(machine.stale(now)).update(**machine.failed(silent_error, now=now))


def revive(machine: Machine, gone: Q, **changes) -> tuple[int, int]:
    """Running rows of ``gone`` workers: failed for good (``machine.lost``) once claimed
    :data:`MAX_RUNS` times, otherwise queued again (with ``changes``) for :func:`resend`.
    Returns (failed, revived)."""
    now = timezone.now()
    gone = machine.is_(RUNNING) & gone
    failed = machine.model.objects.filter(gone, runs__gte=MAX_RUNS).update(
        **machine.failed(machine.lost, now=now)
    )
    revived = machine.model.objects.filter(gone).update(state=QUEUED, **changes)
    return failed, revived


def resend(machine: Machine, lost, *, mark, send) -> int:
    """Send again every queued row whose message may be lost (``lost()``: a ``Q``).

    Each resend is claimed first with a conditional update (``mark()``: its field values,
    which make it no longer ``lost``), so two sweeps never both send it; ``send(pk)``
    returns whether it was sent. How many were sent.
    """
    sent = 0
    queued = machine.is_(QUEUED)
    for pk in machine.model.objects.filter(queued, lost()).values_list("pk", flat=True):
        if machine.rows(pk).filter(queued, lost()).update(**mark()) and send(pk):
            sent += 1
    return sent


class Throttle:
    """Whether a progress report is due: at most one write every ``interval`` seconds."""

    def __init__(self, *, interval: float = 0.25) -> None:
        self.interval = interval
        self._last = 0.0

    def due(self, *, force: bool = False) -> bool:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return False
        self._last = now
        return True


class Heartbeat:
    """Stamps a running row every ``every`` seconds from a thread of its own (with its own
    database connection), so that a long step of the work never looks like a dead worker,
    and a killed worker's row is seen to stop beating. A context manager."""

    def __init__(self, machine: Machine, pk: int, *, every: float) -> None:
        self.machine, self.pk, self.every = machine, pk, every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name="work-heartbeat", daemon=True)

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                try:
                    heartbeat(self.machine, self.pk)
                except DatabaseError:
                    logger.warning("%s %s: heartbeat not written", self.machine.model.__name__,
                                   self.pk)  # fmt: skip
        finally:
            connections.close_all()  # this thread's connections only

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
