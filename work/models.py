"""What every table of background work has: its message, error, queue and end.

:class:`Work` is abstract: each kind of work keeps its own table (``judging.models.Job``,
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
