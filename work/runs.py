"""Runs of a piece of background work: counted at every claim, and at most :data:`MAX_RUNS`.

A worker that dies under a piece of work (``kill -9``, out of memory, the hard time
limit) leaves it claimed; the work is taken over (a redelivered message, the sweep) and
run once more. If that second run dies too, the work is failed for good with a message
and a "Try again" instead of being redelivered and resent forever: it may be the work
itself that kills its workers. A run stopped by the soft time limit fails cleanly at
once (running it again would take as long).
"""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError

MAX_RUNS = 2
"""Times a worker may claim a piece of work: its run, and one more after a worker died
under it."""


TIMED_OUT = (
    f"It ran longer than the limit of {settings.EARSHOT_TASK_SOFT_TIME_LIMIT:,} seconds and "
    "was stopped, so nothing was changed. Try again; if it stops again, make the work "
    "smaller or ask an administrator to raise EARSHOT_TASK_SOFT_TIME_LIMIT_SECONDS."
)
"""The error of work stopped by its soft time limit (Celery ``soft_time_limit``)."""


TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (DatabaseError,)
"""Errors worth a retry with backoff (a locked SQLite file, a dropped connection): the
work goes back to the queue, its claim not counted, and its task is retried."""

MAX_RETRIES = 5
"""Retries of a task after a transient error (1, 2, 4, … s apart); then the work fails
with the error."""
