"""Coalesced recomputes: a burst of a hundred requests causes one computation, not a hundred.

One :class:`~evaluation.models.Recompute` row per target holds its state, and moves by
the one state machine of background work (:mod:`work.state`, with :data:`RECOMPUTES`
naming the row's fields). What is the recomputes' own is
here: the coalescing, the debouncing and when a task is sent::

    idle/done/failed ──request──▶ queued ──task claims──▶ running ──▶ done
                                     ▲                       │ dirty meanwhile?
                                     └──── (after MAX_INLINE_RUNS) ◀── run again

- :func:`recompute_request` (called inside the transaction that made new data
  available) sets ``dirty`` and, only if the row was not already queued or running,
  moves it to ``queued`` and enqueues **one** task on commit, delayed by
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
- **Debouncing** (kinds in :data:`DEBOUNCED_KINDS`): two computations of one target
  start at least ``settings.EARSHOT_RECOMPUTE_MIN_INTERVAL`` seconds apart. New data that arrives during
  a computation shorter than that is handed over to a task that waits out the rest of
  the interval, and a request soon after a computation started waits likewise, so a
  steady stream of answers costs one computation per interval (about
  computation ÷ (computation + interval) of a core) instead of computations back to
  back. With an interval of 0 a rerun follows at once, as above.

Faults (the broker or a worker goes away; nothing is lost, nothing waits long):

- Sending is fire and forget and bounded (:func:`_enqueue`: no result backend, a
  publish retry of about a second): a broker that cannot be reached costs a request at
  most ~2 s, is logged in one line, and leaves the row ``queued`` with no
  ``enqueued_at`` — so the **next request sends it again** at once (a row whose message
  may be lost, sent more than :data:`RESEND_AFTER` ago, is sent again too), as do the
  page's "Recompute now" (``resend=True``), the worker's sweep and ``manage.py recompute``.
- A running computation beats a heartbeat into its row every :data:`HEARTBEAT_EVERY`
  seconds; a row ``running`` whose heartbeat is older than :data:`DEAD_AFTER` belongs to
  a dead worker and may be claimed again (:func:`recompute_claim`), and the sweep
  (:mod:`evaluation.services.sweep`, at every worker start and on a schedule) puts it
  back to ``queued`` and sends it. A task redelivered after its worker process was
  killed (``acks_late``, ``reject_on_worker_lost``) claims its own row again by task id.
- **Poison work ends.** Every claim counts (``runs``, reset by a new request of an
  idle row): a row whose worker died under it on its second run
  (:data:`work.runs.MAX_RUNS`) is failed for good (:data:`WORKER_LOST`) by the claim or
  the sweep instead of being run again; a computation stopped by its soft time limit is
  failed at once (:func:`recompute_time_out`). Such a row is not sent again by the
  requests of new data, only by "Recompute now" (``resend=True``: "Try again").
- **Queues.** A row's task goes to its ``queue`` (:mod:`work.queues`); a computation that
  finds itself too heavy for the interactive queue before it starts
  (:class:`work.limits.TooHeavyHere`) moves the row to the heavy queue
  (:func:`recompute_hand_to_heavy`), where it stays.

Computations overwrite their results, so running one twice is harmless. What each kind
of target computes is registered with the one registry of background work
(:mod:`work.kinds`, from :data:`evaluation.services.computers.COMPUTERS`); the task is
``work``'s, sent by name (:data:`work.handoff.RECOMPUTE_TASK`), so this module imports
neither the computers nor the tasks, and they may all ask for recomputes here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, PositiveSmallIntegerField, Q, Value, When
from django.utils import timezone

from evaluation.models import Recompute
from work import state
from work.handoff import RECOMPUTE_TASK
from work.models.work import PARTS
from work.queues import HEAVY
from work.runs import TIMED_OUT
from work.send import publish, send_within_deadline

logger = logging.getLogger(__name__)

HEARTBEAT_EVERY = 10.0
"""Seconds between two heartbeats of a running computation into its row."""
DEAD_AFTER = timedelta(seconds=90)
"""A running row whose last heartbeat is older than this belongs to a dead worker."""
RESEND_AFTER = timedelta(seconds=settings.EARSHOT_RESEND_AFTER)
"""A queued row sent longer ago than this (plus its delay) may have lost its message
(e.g. Redis restarted without persistence): the next request or the sweep sends it again
(``EARSHOT_RESEND_AFTER_SECONDS``, default 60; a duplicate message is harmless)."""
MAX_INLINE_RUNS = 3

DEBOUNCED_KINDS = frozenset({"campaign", "collection"})
"""Kinds whose computations start ``EARSHOT_RECOMPUTE_MIN_INTERVAL`` apart: the mapping
and the leaderboards that a stream of crowd answers (or judgments) keeps asking for.
Not ``lowcost``: its estimates choose an assessor's next pair and follow each judgment."""

WORKER_LOST = (
    "The worker computing these results stopped twice before it finished (the work may "
    "need more memory or time than the worker has), so the results were not updated. "
    "Press Recompute now to try again; if it stops again, ask an administrator to look at "
    "the worker's log, or make the work smaller in Results settings."
)
"""The error of a row failed for good because its workers died under it (MAX_RUNS)."""

RECOMPUTES = state.Machine(Recompute, lost=WORKER_LOST, stale_after=DEAD_AFTER, beat="heartbeat_at")
"""Where a recompute keeps its state, for the one state machine (:mod:`work.state`): the
fields of :class:`work.models.Work`, and ``heartbeat_at`` its beat."""


Computer = Callable[..., None]
"""What recomputes one kind of target: ``computer(*, target_id: int, report)``, ``report``
a :class:`work.progress.FractionReport` (a fraction and a message)."""


_sending: ContextVar[bool] = ContextVar("earshot_recompute_sending", default=True)


@contextmanager
def computed_in_the_foreground() -> Iterator[None]:
    """Within this block requests mark rows queued but send nothing: the caller
    (``manage.py recompute``) computes them itself, with no broker."""
    token = _sending.set(False)
    try:
        yield
    finally:
        _sending.reset(token)


def _enqueue(recompute_id: int, *, countdown: float) -> bool:
    """Send the task for a row, fire and forget (no result is kept); ``False`` if not sent.

    A broker that cannot be reached is logged in one line and leaves the row queued
    without ``enqueued_at``, so that the next request (or the sweep) sends it again.
    """
    if not _sending.get():
        return False
    try:
        queue = Recompute.objects.filter(pk=recompute_id).values_list("queue", flat=True).first()
        send_within_deadline(
            lambda: publish(RECOMPUTE_TASK, args=[recompute_id], countdown=countdown, queue=queue)
        )
        return True
    except Exception as error:  # any broker failure: the row stays queued for a resend
        logger.warning(
            "could not send recompute %s to the broker (%s: %s); the next request, the "
            "worker's sweep or `manage.py recompute` sends it again",
            recompute_id, type(error).__name__, error,
        )  # fmt: skip
        Recompute.objects.filter(pk=recompute_id, state=Recompute.QUEUED).update(
            enqueued_at=None, message="waiting: the broker could not be reached"
        )
        return False


def resendable(now) -> Q:
    """Pending rows whose message was never sent or may be lost."""
    late = now - RESEND_AFTER - timedelta(seconds=settings.EARSHOT_RECOMPUTE_DELAY)
    return Q(state=Recompute.QUEUED) & (Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=late))


def poisoned() -> Q:
    """Rows failed for good: their workers died under them, or they ran out of time.
    Only "Recompute now" (``resend``) sends them again."""
    return Q(state=Recompute.FAILED, error__in=[WORKER_LOST, TIMED_OUT])


def dead(now) -> Q:
    """Running rows whose worker stopped beating."""
    return RECOMPUTES.stale(now)


def _countdown(kind: str, started_at, *, now, delay: float | None = None) -> float:
    """How long a new task for a row last claimed at ``started_at`` waits: the coalescing
    delay, or longer so that computations start ``EARSHOT_RECOMPUTE_MIN_INTERVAL`` apart."""
    delay = settings.EARSHOT_RECOMPUTE_DELAY if delay is None else delay
    if started_at is None or kind not in DEBOUNCED_KINDS:
        return delay
    rest = settings.EARSHOT_RECOMPUTE_MIN_INTERVAL - (now - started_at).total_seconds()
    return max(delay, rest)


def recompute_may_rerun_now(*, recompute_id: int) -> bool:
    """Has the minimum interval passed since the row's computation started? (Always, when
    computing in the foreground: nobody else would compute it.)"""
    if not _sending.get():
        return True
    kind, started = (
        Recompute.objects.filter(pk=recompute_id).values_list("kind", "started_at").get()
    )
    return _countdown(kind, started, now=timezone.now(), delay=0) == 0


def recompute_request(
    *, kind: str, target_id: int, delay: float | None = None, resend: bool = False
) -> bool:
    """Ask for ``kind`` ``target_id`` to be recomputed once the current transaction commits.

    Returns ``True`` if this request enqueued the task, ``False`` if it joined one
    already queued or running. ``resend`` (the pages' "Recompute now") sends the task
    of a queued row again whatever its age: a duplicate does nothing.
    """
    if kind not in dict(Recompute.KINDS):
        raise ValueError(f"unknown recompute kind {kind!r}; use one of {dict(Recompute.KINDS)}")
    now = timezone.now()
    rows = Recompute.objects.filter(kind=kind, target_id=target_id)
    marked = rows.update(dirty=True, requests=F("requests") + 1, requested_at=now)
    if not marked:
        Recompute.objects.get_or_create(kind=kind, target_id=target_id)
        rows.update(dirty=True, requests=F("requests") + 1, requested_at=now)
    idle = Q(state__in=[Recompute.IDLE, Recompute.DONE, Recompute.FAILED])
    if not resend:
        idle &= ~poisoned()
    lost = Q(state=Recompute.QUEUED) if resend else resendable(now)
    enqueued = state.enqueue(
        RECOMPUTES,
        rows,
        when=idle | lost,
        enqueued_at=now,
        done=0,
        total=PARTS,
        message="waiting for a worker",
        error="",
        # a request anew counts its claims afresh; a resent queued row keeps them
        runs=Case(
            When(idle, then=Value(0)),
            default=F("runs"),
            output_field=PositiveSmallIntegerField(),
        ),
    )
    if enqueued:
        recompute_id, started_at = rows.values_list("pk", "started_at").get()
        countdown = _countdown(kind, started_at, now=now, delay=delay)
        if _sending.get():
            # robust: whatever escapes the send must not fail the request that committed
            transaction.on_commit(lambda: _enqueue(recompute_id, countdown=countdown), robust=True)
        else:
            rows.update(enqueued_at=None, message="waiting: computed in the foreground")
    return bool(enqueued)


def recompute_claim(*, recompute_id: int, task_id: str = "", worker: str = "") -> bool:
    """queued (or running on a dead worker, or running for this very task redelivered)
    → running, one more claim counted; ``False`` if another live task has it.

    A row claimed :data:`~work.runs.MAX_RUNS` times already (its workers died under it)
    is failed for good (:data:`WORKER_LOST`) instead, and ``False`` returned.
    """
    also = Q(state=Recompute.RUNNING, task_id=task_id) if task_id else None
    return state.claim(
        RECOMPUTES, recompute_id, also=also, dirty=False, claimed_by=worker[:255],
        task_id=task_id[:255], done=0, total=PARTS, computations=F("computations") + 1,
    )  # fmt: skip


def recompute_heartbeat(*, recompute_id: int) -> bool:
    """A running computation is alive: stamp its row (every :data:`HEARTBEAT_EVERY` s)."""
    return state.heartbeat(RECOMPUTES, recompute_id)


def recompute_release(*, recompute_id: int, message: str = "retrying") -> None:
    """Give a claimed row back (before a retry), keeping the request it served; its
    worker is alive, so the claim does not count."""
    state.release(
        RECOMPUTES, recompute_id, dirty=True, enqueued_at=timezone.now(), message=message[:300]
    )


def recompute_hand_to_heavy(*, recompute_id: int) -> None:
    """running → queued on the heavy queue, before computing anything (the computation
    found its cost over the interactive budget); its claim does not count."""
    if state.release(
        RECOMPUTES, recompute_id, dirty=True, enqueued_at=timezone.now(), queue=HEAVY,
        message="waiting for a worker of big computations",
    ):  # fmt: skip
        _enqueue(recompute_id, countdown=0)


def recompute_time_out(*, recompute_id: int) -> None:
    """A computation stopped by its soft time limit: failed for good, "Try again"."""
    recompute_fail(recompute_id=recompute_id, error=TIMED_OUT)


def recompute_fail(*, recompute_id: int, error: str) -> None:
    state.fail(RECOMPUTES, recompute_id, error=error)


def recompute_finish(*, recompute_id: int, compute_again: bool = True) -> bool:
    """running → done, only if no new data arrived meanwhile (``dirty`` still clear).

    Otherwise ``False`` says so, and with ``compute_again`` the row stays running, marked
    as computing again with the new data (without it, the caller hands over:
    :func:`recompute_hand_over`).
    """
    if state.finish(RECOMPUTES, recompute_id, only=Q(dirty=False), done=PARTS, total=PARTS, runs=0):
        return True
    if not compute_again:
        return False
    state.progress(
        RECOMPUTES, recompute_id, dirty=False, computations=F("computations") + 1, done=0,
        started_at=timezone.now(), message="new data arrived; computing again",
    )  # fmt: skip
    return False


def recompute_hand_over(*, recompute_id: int) -> None:
    """running → queued with a fresh task, so that one busy target cannot hold a worker;
    the task waits the coalescing delay, or the rest of the minimum interval."""
    now = timezone.now()
    started = (
        Recompute.objects.filter(pk=recompute_id, state=Recompute.RUNNING)
        .values_list("kind", "started_at")
        .first()
    )
    if state.release(
        RECOMPUTES, recompute_id, dirty=True, enqueued_at=now, message="waiting", runs=0
    ):
        _enqueue(recompute_id, countdown=_countdown(*started, now=now))
