"""The one place where judging hands its changes over to evaluation.

``judging`` never imports the evaluation Django layer (ARCHITECTURE.md): a change is
announced *after the transaction commits* by sending a Celery task **by name**:

- ``evaluation.preference_answers_accepted(campaign_id=<int>)`` when the set of
  accepted answers of a campaign changes (answers accepted, or earlier accepted ones
  excluded because their worker was stopped);
- ``evaluation.collection_data_changed(collection_id=<int>)`` when a collection's
  judgments or runs change (an assessor completes a judgment, an import, the API);
  evaluation then also refreshes the estimates of the collection's open low-cost
  campaigns;
- ``evaluation.relevance_campaign_changed(campaign_id=<int>)`` when a low-cost relevance
  campaign is created or stopped (its estimates order its pairs);
- ``judging.job_run(job_id=<int>)`` when a page starts a background job
  (:mod:`work.jobs`); if it cannot be sent, the job is marked failed so
  that its page says so instead of waiting forever.

All tasks are idempotent and coalesced in evaluation (they recompute from all the
data), so however many changes one transaction makes, each task is sent once per
target per commit; nothing is sent when the transaction rolls back.

**Coalesced at the sender.** The three "… changed" tasks (:data:`COALESCED_TASKS`; not
``job_run``, each job is its own) are also sent at most once while one is waiting: before
publishing, the sender sets a marker in the cache (the project's Redis) with ``SET NX``
and an expiry of ``EARSHOT_HANDOFF_COALESCE_SECONDS`` (10 s), and only the sender that
set it publishes. The receiving task deletes the marker as its *first* step
(:func:`handoff_started`), before it reads anything, so a change committed after that
point sends again, and one committed before it is read by that task: the trailing
change is never lost. At 37 crowd answers a second that is one message per wait instead
of one per answer. When the cache cannot be reached the message is sent as before; a
send that fails after setting the marker deletes it again (and the change is written
down, below); a message lost after it was published (its changes are lost with it, as
they were before) holds later changes back at most until the marker expires. Web and
worker must share the cache (they do: ``CACHES`` is the broker's Redis, and a Redis
restarted empty loses messages and markers together).

Sending is fire and forget and bounded (no result is kept; a broker that cannot be
reached fails within about two seconds, ``CELERY_TASK_PUBLISH_RETRY_POLICY``). The tasks
that receive them are in :mod:`work.tasks` and call what evaluation registered
(:func:`work.kinds.receiver_register`). A broker
outage never breaks a change that is already committed: the failure is logged in one
line and the change is written down as a :class:`~work.models.PendingHandoff`, which
work's sweep step (:func:`pending_handoffs_hand_over`: at every worker start, on a
schedule, and in ``manage.py recompute``) hands over once the broker is back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.base import BaseCache
from django.db import transaction
from redis.exceptions import RedisError

from work.kinds import receiver
from work.models import PendingHandoff
from work.send import publish, send_within_deadline

ANSWERS_ACCEPTED_TASK = "evaluation.preference_answers_accepted"
COLLECTION_CHANGED_TASK = "evaluation.collection_data_changed"
RELEVANCE_CAMPAIGN_CHANGED_TASK = "evaluation.relevance_campaign_changed"
JOB_TASK = "judging.job_run"
RECOMPUTE_TASK = "evaluation.recompute"
"""The tasks that run a job and a recompute (:mod:`work.tasks`): names of before issue 30,
kept, since their messages wait in the broker until done (``acks_late``)."""
COALESCED_TASKS = frozenset(
    {ANSWERS_ACCEPTED_TASK, COLLECTION_CHANGED_TASK, RELEVANCE_CAMPAIGN_CHANGED_TASK}
)
"""Tasks sent at most once while one is queued and not started (see above)."""

logger = logging.getLogger(__name__)

_PENDING = "_earshot_handoffs"


def preference_answers_changed(*, campaign_id: int) -> None:
    """Send :data:`ANSWERS_ACCEPTED_TASK` for the campaign once the transaction commits."""
    _announce(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign_id})


def collection_data_changed(*, collection_id: int) -> None:
    """Send :data:`COLLECTION_CHANGED_TASK` for the collection once the transaction commits."""
    _announce(COLLECTION_CHANGED_TASK, {"collection_id": collection_id})


def relevance_campaign_changed(*, campaign_id: int) -> None:
    """Send :data:`RELEVANCE_CAMPAIGN_CHANGED_TASK` once the transaction commits."""
    _announce(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign_id})


def job_queued(
    *, job_id: int, queue: str = "", priority: int = 0, on_error: Callable[[Exception], None]
) -> None:
    """Send :data:`JOB_TASK` for the job to ``queue`` (the default queue if empty) with
    ``priority`` (:mod:`work.fairness`) once the transaction commits; ``on_error`` if it fails."""
    _announce(JOB_TASK, {"job_id": job_id}, on_error=on_error, queue=queue, priority=priority)


def _announce(
    task: str,
    kwargs: dict[str, int],
    *,
    on_error: Callable[[Exception], None] | None = None,
    queue: str = "",
    priority: int = 0,
) -> None:
    connection = transaction.get_connection()
    key = (task, *sorted(kwargs.items()))
    pending: set[tuple] = connection.__dict__.setdefault(_PENDING, set())
    pending.add(key)
    transaction.on_commit(
        lambda: _send_once(connection, key, task, kwargs, on_error, queue, priority)
    )


def _send_once(
    connection,
    key: tuple,
    task: str,
    kwargs: dict[str, int],
    on_error: Callable[[Exception], None] | None = None,
    queue: str = "",
    priority: int = 0,
) -> None:
    pending: set[tuple] = connection.__dict__.setdefault(_PENDING, set())
    if key not in pending:
        return  # already sent for this commit by an earlier callback
    pending.discard(key)
    try:
        # The default queue (interactive) and priority (0) are named by no argument.
        options = {"queue": queue} if queue else {}
        send_task(task, kwargs=kwargs, **options, **({"priority": priority} if priority else {}))
    except Exception as error:  # any broker failure: remember the change, say so in a line
        arguments = ", ".join(f"{name}={value}" for name, value in kwargs.items())
        logger.warning(
            "could not send %s(%s) to the broker (%s: %s); it is handed over when the "
            "broker is back (the worker's sweep, or `manage.py recompute` now)",
            task, arguments, type(error).__name__, error,
        )  # fmt: skip
        if on_error is not None:
            on_error(error)  # e.g. a job marks itself failed, so that its page says so
        else:
            remember(task, kwargs)


def remember(task: str, kwargs: dict[str, int]) -> None:
    """Write down a handoff that could not be sent (see :class:`~work.models.PendingHandoff`)."""
    (target_id,) = kwargs.values()
    try:
        PendingHandoff.objects.update_or_create(task=task, target_id=target_id)
    except Exception:  # the database is gone too: the next change or a recompute catches up
        logger.warning("could not write down %s(%s) either", task, target_id)


def send_task(name: str, *, kwargs: dict, queue: str | None = None, priority: int = 0) -> None:
    """Enqueue a task by name on the project's Celery app, fire and forget, within
    :data:`work.send.SEND_DEADLINE`; a coalesced task only if none is queued for the same target
    (:func:`queued_mark`). The marker is set inside the deadline too, so a Redis that
    does not answer costs no more than today's bounded send (tests replace this function).
    ``queue`` is the Celery queue (:mod:`work.queues`); the default queue if ``None``;
    ``priority`` its priority there (:mod:`work.fairness`: 0 is served first).
    """
    # The cache of this thread, used by the sending thread: Django keeps one cache object
    # per thread, and a new one for every sending thread would open a new connection.
    markers = caches["default"]
    send_within_deadline(lambda: _publish(name, kwargs, markers, queue, priority))


def _publish(
    name: str, kwargs: dict, markers: BaseCache, queue: str | None = None, priority: int = 0
) -> None:
    coalesced = name in COALESCED_TASKS and settings.EARSHOT_HANDOFF_COALESCE_SECONDS > 0
    marked = queued_mark(name, kwargs, markers=markers) if coalesced else None
    if marked is False:
        return  # a message for this target is queued, and its task will read this change
    try:
        publish(name, kwargs=kwargs, queue=queue or "", priority=priority)  # no queue: interactive
    except BaseException:
        if marked:  # nothing is queued after all: the next change sends
            handoff_started(name, kwargs, markers=markers)
        raise


def queued_key(task: str, kwargs: dict) -> str:
    """The cache key of the marker "a message of ``task`` for ``kwargs`` is queued and its
    task has not started", the one name the sender and the receiving task share.

    >>> queued_key("evaluation.preference_answers_accepted", {"campaign_id": 7})
    'handoff-queued:evaluation.preference_answers_accepted:campaign_id=7'
    """
    arguments = ",".join(f"{name}={value}" for name, value in sorted(kwargs.items()))
    return f"handoff-queued:{task}:{arguments}"


def queued_mark(task: str, kwargs: dict, *, markers: BaseCache = cache) -> bool | None:
    """Set the marker of ``task`` for ``kwargs`` if there is none (``SET NX`` with an
    expiry of ``EARSHOT_HANDOFF_COALESCE_SECONDS``): ``True`` if this caller set it (it
    sends the message), ``False`` if a message is queued already (it sends nothing),
    ``None`` if the cache cannot be reached (it sends, as without coalescing)."""
    try:
        key = queued_key(task, kwargs)
        return bool(markers.add(key, 1, timeout=settings.EARSHOT_HANDOFF_COALESCE_SECONDS))
    except (RedisError, OSError) as error:  # the broker is this Redis too: its send says so
        logger.debug("the hand-off marker of %s could not be set (%s: %s); sending anyway",
                     task, type(error).__name__, error)  # fmt: skip
        return None


def handoff_started(task: str, kwargs: dict, *, markers: BaseCache = cache) -> None:
    """Delete the marker of ``task`` for ``kwargs`` (best effort): the receiving task calls
    this first, before it reads anything, so that any change committed from now on sends
    a message again; a failed send calls it too. If the cache cannot be reached the
    marker expires by itself (``EARSHOT_HANDOFF_COALESCE_SECONDS``)."""
    try:
        markers.delete(queued_key(task, kwargs))
    except (RedisError, OSError) as error:
        logger.warning("the hand-off marker of %s could not be deleted (%s: %s); it expires "
                       "by itself", task, type(error).__name__, error)  # fmt: skip


def pending_handoffs_hand_over() -> int:
    """Do what each written-down hand-off (:class:`~work.models.PendingHandoff`) would have
    done had the broker taken it (its receiver, :func:`work.kinds.receiver_register`: a
    coalesced recompute), and delete it; how many. A step of the one sweep
    (:mod:`work.sweep`), before the recomputes' own, so what it asks for is sent at once."""
    done = 0
    for pending in PendingHandoff.objects.order_by("pk"):
        with transaction.atomic():
            receive = receiver(pending.task)
            if receive is not None:
                receive(pending.target_id)
            else:
                logger.warning("unknown handoff %s: dropped", pending)
            PendingHandoff.objects.filter(pk=pending.pk, failed_at=pending.failed_at).delete()
        done += 1
    return done


def handoffs_sweep_step(*, worker: str = "", started_at=None) -> dict[str, int]:
    """:func:`pending_handoffs_hand_over` as a step of the one sweep (:mod:`work.sweep`)."""
    return {"handed_over": pending_handoffs_hand_over()}
