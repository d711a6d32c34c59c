"""Coalesced recomputes: a burst of a hundred requests causes one computation, not a hundred.

One :class:`~evaluation.models.Recompute` row per target holds the state machine::

    idle/done/failed ──request──▶ pending ──task claims──▶ running ──▶ done
                                     ▲                       │ dirty meanwhile?
                                     └──── (after MAX_INLINE_RUNS) ◀── run again

- :func:`recompute_request` (called inside the transaction that made new data
  available) sets ``dirty`` and, only if the row was not already pending or running,
  moves it to ``pending`` and enqueues **one** task on commit, delayed by
  ``settings.EARSHOT_RECOMPUTE_DELAY`` seconds so that the rest of a burst lands first.
  Every statement is a single conditional ``UPDATE``: two requests at once never
  enqueue two tasks, and a request is never lost between the checks.
- :func:`~evaluation.services.computers.recompute_run` (the task's body) claims the
  row with a conditional ``update()`` (:func:`recompute_claim`) and checks the row
  count, so a duplicate or redelivered task does nothing. It clears ``dirty`` when it
  claims; after computing it moves to ``done`` only if ``dirty`` is still clear
  (:func:`recompute_finish`, again one conditional ``UPDATE``), and otherwise computes
  again — at most :data:`MAX_INLINE_RUNS` times before handing over to a fresh task
  (:func:`recompute_hand_over`) so that one busy target cannot hold a worker forever.
- A row left ``running`` by a worker that died is reclaimed after :data:`STALE_AFTER`;
  a ``pending`` row whose task message was lost is re-enqueued by the next request
  after the same time.

Computations overwrite their results, so running one twice is harmless. What each kind
of target computes is the plain table :data:`evaluation.services.computers.COMPUTERS`;
the task is sent by name (:data:`RECOMPUTE_TASK`), so this module imports neither the
computers nor the tasks, and they may all ask for recomputes here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Protocol

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from evaluation.models import Recompute

STALE_AFTER = timedelta(minutes=15)
MAX_INLINE_RUNS = 3
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (DatabaseError,)
"""Errors worth a retry with backoff (a locked SQLite file, a dropped connection)."""

RECOMPUTE_TASK = "evaluation.recompute"
"""The Celery task that claims and runs one recompute (:func:`evaluation.tasks.recompute`)."""


class Report(Protocol):
    """How a computation reports its progress: a fraction in [0, 1] and a short message;
    ``force`` writes at once (otherwise at most every few tenths of a second)."""

    def __call__(self, fraction: float, message: str = "", *, force: bool = False) -> None: ...


def no_report(fraction: float, message: str = "", *, force: bool = False) -> None:
    """The :class:`Report` of a computation nobody follows: it does nothing."""


Computer = Callable[..., None]
"""What recomputes one kind of target: ``computer(*, target_id: int, report: Report)``."""


def _enqueue(recompute_id: int, *, countdown: float) -> None:
    current_app.send_task(RECOMPUTE_TASK, args=[recompute_id], countdown=countdown)


def recompute_request(*, kind: str, target_id: int, delay: float | None = None) -> bool:
    """Ask for ``kind`` ``target_id`` to be recomputed once the current transaction commits.

    Returns ``True`` if this request enqueued the task, ``False`` if it joined one
    already pending or running.
    """
    if kind not in dict(Recompute.KINDS):
        raise ValueError(f"unknown recompute kind {kind!r}; use one of {dict(Recompute.KINDS)}")
    now = timezone.now()
    rows = Recompute.objects.filter(kind=kind, target_id=target_id)
    marked = rows.update(dirty=True, requests=F("requests") + 1, requested_at=now)
    if not marked:
        Recompute.objects.get_or_create(kind=kind, target_id=target_id)
        rows.update(dirty=True, requests=F("requests") + 1, requested_at=now)
    idle = Q(status__in=[Recompute.IDLE, Recompute.DONE, Recompute.FAILED])
    lost = Q(status=Recompute.PENDING, enqueued_at__lt=now - STALE_AFTER)
    enqueued = rows.filter(idle | lost).update(
        status=Recompute.PENDING,
        enqueued_at=now,
        progress=0.0,
        message="waiting for a worker",
        error="",
    )
    if enqueued:
        recompute_id = rows.values_list("pk", flat=True).get()
        countdown = settings.EARSHOT_RECOMPUTE_DELAY if delay is None else delay
        # robust: a broker that cannot be reached must not undo or fail the request that
        # committed; the row stays pending, and a request after STALE_AFTER sends again.
        transaction.on_commit(lambda: _enqueue(recompute_id, countdown=countdown), robust=True)
    return bool(enqueued)


class ProgressReport:
    """Writes a running recompute's progress to its row, at most every ``interval`` seconds."""

    def __init__(self, recompute_id: int, *, interval: float = 0.25) -> None:
        self.recompute_id = recompute_id
        self.interval = interval
        self._last = 0.0

    def __call__(self, fraction: float, message: str = "", *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        fraction = min(1.0, max(0.0, float(fraction)))
        Recompute.objects.filter(pk=self.recompute_id, status=Recompute.RUNNING).update(
            progress=fraction, message=message[:300]
        )


def recompute_claim(*, recompute_id: int) -> bool:
    """pending (or running but stale) → running; ``False`` if another task has it."""
    now = timezone.now()
    claimable = Q(status=Recompute.PENDING) | Q(
        status=Recompute.RUNNING, claimed_at__lt=now - STALE_AFTER
    )
    return bool(
        Recompute.objects.filter(claimable, pk=recompute_id).update(
            status=Recompute.RUNNING,
            dirty=False,
            claimed_at=now,
            progress=0.0,
            message="starting",
            error="",
            runs=F("runs") + 1,
        )
    )


def recompute_release(*, recompute_id: int, message: str = "retrying") -> None:
    """Give a claimed row back (before a retry), keeping the request it served."""
    Recompute.objects.filter(pk=recompute_id, status=Recompute.RUNNING).update(
        status=Recompute.PENDING, dirty=True, enqueued_at=timezone.now(), message=message[:300]
    )


def recompute_fail(*, recompute_id: int, error: str) -> None:
    Recompute.objects.filter(pk=recompute_id).update(
        status=Recompute.FAILED, error=error, message="failed", finished_at=timezone.now()
    )


def recompute_finish(*, recompute_id: int) -> bool:
    """running → done, only if no new data arrived meanwhile (``dirty`` still clear).

    Otherwise the row stays running, marked as computing again with the new data, and
    ``False`` says so.
    """
    rows = Recompute.objects.filter(pk=recompute_id, status=Recompute.RUNNING)
    if rows.filter(dirty=False).update(
        status=Recompute.DONE, progress=1.0, message="", finished_at=timezone.now()
    ):
        return True
    rows.update(
        dirty=False,
        runs=F("runs") + 1,
        progress=0.0,
        claimed_at=timezone.now(),
        message="new data arrived; computing again",
    )
    return False


def recompute_hand_over(*, recompute_id: int) -> None:
    """running → pending with a fresh task, so that one busy target cannot hold a worker."""
    rows = Recompute.objects.filter(pk=recompute_id, status=Recompute.RUNNING)
    if rows.update(status=Recompute.PENDING, dirty=True, enqueued_at=timezone.now()):
        _enqueue(recompute_id, countdown=settings.EARSHOT_RECOMPUTE_DELAY)
