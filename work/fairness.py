"""Fair queues: one organiser's burst of work does not hold another's small work.

Each queue of :mod:`work.queues` is served first in, first out, by one worker. Twenty
small uploads one organiser sent at once held another organiser's 15-line upload from
0.6 s to 35.8 s (issue 28, item 6). Work is therefore sent with a **priority by recent
use**: a piece of work whose owner has ``n`` other pieces queued or running is sent with
Celery priority ``n`` (at most 9). The Redis transport keeps one list per priority and a
worker always takes from the most urgent list first (``CELERY_BROKER_TRANSPORT_OPTIONS``:
``priority_steps`` 0–9; 0 is served first), so the first piece of every organiser goes
before the second of anyone, and an organiser's own pieces keep their order. Nothing is
ever refused or dropped: a burst is served at the pace of the worker, behind the others'
first pieces (measured in ``benchmarks/bench_fair_queues.py``, ``docs/benchmarks.md``).
"""

from __future__ import annotations

PRIORITIES = 10
"""Priority lists per queue (``priority_steps`` 0–9 of the Redis transport)."""


def priority_after(active: int) -> int:
    """The priority of a piece of work whose owner has ``active`` other pieces queued or
    running (0: served first).

    >>> [priority_after(n) for n in (0, 1, 2, 9, 30)]
    [0, 1, 2, 9, 9]
    """
    return max(0, min(PRIORITIES - 1, active))
