"""What every table of background work has, under one name and meaning: its state, its
claims, its task, its start, its progress, its message, error, queue and end, and the
status document they all give.

:class:`Work` is abstract: each kind of work keeps its own table (``work.models.jobs.Job``,
``evaluation.models.Recompute``) with these fields, and :mod:`work.state` is the one
state machine that moves all of them.

Progress is ``done`` of ``total`` on every table (issue 30, item 3): a job counts what
its page shows ("278 of 1,000 rows"), and a computation that only knows a fraction
writes it through the same call as ``round(fraction * PARTS)`` of :data:`PARTS`
(:class:`work.progress.WorkReport`). A count can be read as a fraction; a fraction
cannot be read back as a count, so the count is what is stored.
"""

from __future__ import annotations

from django.db import models

from work.queues import INTERACTIVE

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
"""The states every piece of background work goes through (:mod:`work.state`); a job may
also be ``cancelled``, a recompute ``idle`` (never asked for yet)."""

PARTS = 10_000
"""The ``total`` of work whose progress is a fraction: exact to the four decimals of the
status document's ``fraction``."""


def state_field(*extra: str, default: str = QUEUED) -> models.CharField:
    """The ``state`` field: :data:`QUEUED`, :data:`RUNNING`, :data:`DONE`, :data:`FAILED`
    and the ``extra`` states of one kind of work."""
    states = (QUEUED, RUNNING, DONE, FAILED, *extra)
    return models.CharField(max_length=10, choices=[(s, s) for s in states], default=default)


class Work(models.Model):
    """The fields :mod:`work.state` writes on every table of background work.

    ``state`` is where it is (:data:`QUEUED` … :data:`FAILED`, each table adds its own);
    ``runs`` counts the claims by a worker (at most :data:`work.runs.MAX_RUNS`);
    ``task_id`` is the Celery task that claimed it last (that task redelivered means its
    worker died); ``started_at`` when it was claimed last; ``done`` of ``total`` its
    progress. A failure keeps its message and, when a file is to blame, the file and
    line (``error_file``, ``error_line``).
    """

    QUEUED, RUNNING, DONE, FAILED = QUEUED, RUNNING, DONE, FAILED
    ACTIVE = (QUEUED, RUNNING)

    state = state_field()
    runs = models.PositiveSmallIntegerField(
        default=0, help_text="Claims by a worker (work.runs.MAX_RUNS)."
    )
    task_id = models.CharField(
        max_length=255, blank=True, default="",
        help_text="The Celery task that claimed it: that task redelivered means its worker died.",
    )  # fmt: skip
    started_at = models.DateTimeField(null=True, blank=True, help_text="When it was last claimed.")
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(null=True, blank=True)
    message = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    error_file = models.CharField(max_length=300, blank=True)
    error_line = models.PositiveIntegerField(null=True, blank=True)
    queue = models.CharField(
        max_length=20, default=INTERACTIVE, help_text="The Celery queue it waits in (work.queues)."
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def active(self) -> bool:
        """Queued or running."""
        return self.state in self.ACTIVE

    @property
    def fraction(self) -> float | None:
        """Progress in [0, 1] (1 once done); ``None`` while the total is unknown."""
        if self.state == DONE:
            return 1.0
        if not self.total:
            return None
        return min(1.0, self.done / self.total)

    def work_status(self) -> dict:
        """What every status document of background work says, the same for all (a job's
        page and API, the results pages' recompute status): the one progress document."""
        fraction = self.fraction
        return {
            "active": self.active,
            "fraction": None if fraction is None else round(fraction, 4),
            "message": self.message,
            "error": self.error,
            "error_file": self.error_file,
            "error_line": self.error_line,
            "queue": self.queue,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }
