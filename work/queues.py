"""The two queues of background work, and where a message waits in its queue.

Short work goes to :data:`INTERACTIVE` (the hand-offs of a judgment or an answer, small
uploads, recomputes within ``EARSHOT_INTERACTIVE_MAX_COST``; for now also the example
generator, whose size is bounded by its own limits), long work to :data:`HEAVY` (big
uploads, big recomputes). Each queue has a worker of its
own (``make run``; README "Production"), so one organiser's long work never holds
another's short work. A task records the queue it was delivered on
(:func:`running_on`), so that work that turns out to be heavy only once its size is
known (a recompute) hands itself over to the heavy queue before doing anything
(:func:`work.limits.work_admit`).
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache import caches

from work.fairness import PRIORITIES

INTERACTIVE = "interactive"
HEAVY = "heavy"
QUEUES = (INTERACTIVE, HEAVY)

logger = logging.getLogger(__name__)

_running_on: ContextVar[str] = ContextVar("earshot_work_queue", default="")


@contextmanager
def running_on(queue: str) -> Iterator[None]:
    """Within this block the work runs on ``queue`` (a task says where it was delivered)."""
    token = _running_on.set(queue or "")
    try:
        yield
    finally:
        _running_on.reset(token)


def current_queue() -> str:
    """The queue the running task was delivered on; ``""`` outside a task (a command
    computing in the foreground, a test)."""
    return _running_on.get()


def delivered_on(request) -> str:
    """The queue a Celery task's ``request`` came from (its routing key)."""
    info = getattr(request, "delivery_info", None) or {}
    return info.get("routing_key") or ""


PRIORITY_SEPARATOR = "\x06\x16"
"""How kombu's Redis transport names a queue's list of one priority: ``queue␆␖3``."""


def priority_lists(queue: str) -> list[str]:
    """The Redis lists of ``queue``, most urgent first (priority 0 is the queue's own name;
    :mod:`work.fairness`)."""
    return [queue, *(f"{queue}{PRIORITY_SEPARATOR}{p}" for p in range(1, PRIORITIES))]


def queue_position(queue: str, *, task: str, kwargs: dict, limit: int = 2_000) -> int | None:
    """How many messages wait before the one of ``task`` with ``kwargs`` in ``queue`` (0:
    it is next); ``None`` if it is not waiting there (taken, delayed, lost) or the broker
    cannot be read. Reads the Redis lists of the queue, most urgent first
    (:func:`priority_lists`: every message of a more urgent list goes first; kombu's Redis
    transport pushes on the left and takes from the right), the next ``limit`` messages of
    each only (a page polls it every second; further back the page says "waiting" without
    a count), through the cache's client (the same Redis, with its short timeouts)."""
    try:
        client = caches["default"]._cache.get_client(None)  # redis-py, with the cache's timeouts
        ahead = 0
        for name in priority_lists(queue):
            messages = client.lrange(name, -limit, -1)
            for index, raw in enumerate(messages):
                if _is(raw, task=task, kwargs=kwargs):
                    return ahead + len(messages) - 1 - index
            ahead += client.llen(name) if len(messages) == limit else len(messages)
    except Exception as error:  # no Redis cache, or the broker is away: nothing to say
        logger.debug("queue %s not read (%s: %s)", queue, type(error).__name__, error)
        return None
    return None


def _is(raw: bytes, *, task: str, kwargs: dict) -> bool:
    try:
        message = json.loads(raw)
        if message["headers"]["task"] != task:
            return False
        args, sent, _ = json.loads(base64.b64decode(message["body"]))
        return sent == kwargs or list(args) == list(kwargs.values())
    except (ValueError, KeyError, TypeError):
        return False
