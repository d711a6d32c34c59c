"""What every table of background work has: its message, error, queue and end, and the
status document they all give.

:class:`Work` is abstract: each kind of work keeps its own table (``work.models.jobs.Job``,
``evaluation.models.Recompute``) with these fields, and :mod:`work.state` is the one
state machine that moves all of them.
"""

from __future__ import annotations

from django.db import models

from work.queues import INTERACTIVE


class Work(models.Model):
    """The fields :mod:`work.state` writes on every table of background work.

    A failure keeps its message and, when a file is to blame, the file and line
    (``error_file``, ``error_line``).
    """

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
        """Queued or running (each table names its states)."""
        raise NotImplementedError

    @property
    def fraction(self) -> float | None:
        """Progress in [0, 1]; ``None`` while it is unknown."""
        raise NotImplementedError

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
