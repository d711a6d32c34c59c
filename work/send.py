"""The one sender of background work: a Celery task by name, fire and forget, bounded.

Both apps send through :func:`publish` (a task by name, no result kept, to a queue of
:mod:`work.queues`) inside :func:`send_within_deadline` (a request or a command waits at
most :data:`SEND_DEADLINE` seconds for the broker). What a caller does when a send fails
is its own: judging writes the hand-off down (``work.models.PendingHandoff``) or fails
the job, a recompute stays pending without ``enqueued_at``; the sweep sends again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from celery import current_app

SEND_DEADLINE = 2.0
"""Seconds a request or a command waits at most for a task to be sent."""


def send_within_deadline(send: Callable[[], object], *, seconds: float = SEND_DEADLINE) -> None:
    """Run ``send`` (a publish to the broker) and wait for it at most ``seconds``.

    Its error is raised here; if it is still trying when the time is up,
    :class:`TimeoutError` is raised and it goes on alone in the background (a message it
    delivers late is harmless: every task is idempotent and coalesced). The publish
    retry policy bounds most failures already; this bounds a broker that accepts a
    connection and then never answers.
    """
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            send()
            outcome.append(None)
        except BaseException as error:  # handed to the caller's thread
            outcome.append(error)

    thread = threading.Thread(target=attempt, name="earshot-send", daemon=True)
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise TimeoutError(f"the broker did not take the message within {seconds:g} s")
    if outcome[0] is not None:
        raise outcome[0]


def publish(
    name: str,
    *,
    args: list | None = None,
    kwargs: dict | None = None,
    queue: str = "",
    countdown: float | None = None,
    priority: int = 0,
) -> None:
    """Publish task ``name`` on the project's Celery app, fire and forget (no result is
    kept: there is no result backend). Only what is given is passed on: no ``queue`` is
    the default (interactive) queue, no ``countdown`` runs it at once, ``priority`` 0 is
    the most urgent (:mod:`work.fairness`)."""
    options: dict = {"ignore_result": True}
    for option, value in (("args", args), ("kwargs", kwargs), ("countdown", countdown)):
        if value is not None:
            options[option] = value
    if queue:
        options["queue"] = queue
    if priority:
        options["priority"] = priority
    current_app.send_task(name, **options)
