"""Limits before work: a computation states its cost before it starts and refuses what
is over a configured limit, with a message the organiser reads where the result would be.

A caller (e.g. :mod:`evaluation.services.limits`) computes the cost from counts it
already has (systems, queries, resamples, pairs, pool size), raises :class:`WorkRefused`
naming the numbers, the limit and what to change when a limit is passed, and otherwise
calls :func:`work_admit`, which hands work too big for the interactive queue over to
the heavy one (:class:`TooHeavyHere`).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError

from work.queues import INTERACTIVE, current_queue


class WorkRefused(ValidationError):
    """Work over a configured limit; its message says the cost, the limit and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class TooHeavyHere(Exception):
    """Within the limits but over the interactive budget, and running on the interactive
    queue: the task hands the work to the heavy queue before doing any of it."""

    def __init__(self, cost: int) -> None:
        super().__init__(f"cost {cost:,} is over the interactive budget")
        self.cost = cost


def work_admit(*, cost: int) -> None:
    """Work within the limits may start here, unless it is heavy and this is the
    interactive queue (``EARSHOT_INTERACTIVE_MAX_COST``): then :class:`TooHeavyHere`."""
    if current_queue() == INTERACTIVE and cost > settings.EARSHOT_INTERACTIVE_MAX_COST:
        raise TooHeavyHere(cost)


def amount(n: float) -> str:
    """A count as people read it.

    >>> amount(4_552_653), amount(10_000), amount(45_526_530_000), amount(3.2e12)
    ('4.6 million', '10,000', '45.5 billion', '3.2 trillion')
    """
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.1f} {word}"
    return f"{int(n):,}"
