"""Background jobs with progress: one row per piece of work a page hands to Celery.

A page starts a job (:func:`work.jobs.job_start`), the Celery task
``judging.job_run`` runs it, and the job's page polls its state and progress until it
shows the result. What each ``kind`` of job does is in the registry
:data:`work.job_runners.JOB_RUNNERS`, filled by the apps. See ``docs/architecture.md``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from work.models.work import Work


class Job(Work):
    """A piece of background work: its kind, who started it, its state and its progress.

    ``key`` names what the job works on (``campaign:12``): while one job of a kind is
    queued or running on a key, starting another returns the same job (a double click
    starts nothing twice). ``result`` is the runner's JSON document; a failure keeps
    its message and, for a bad file, the file and line (``error_file``, ``error_line``).
    The fields every piece of background work has (message, error, queue, end) come from
    :class:`work.models.work.Work`; :mod:`work.state` moves it from state to state.
    """

    QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
    STATES = [(s, s) for s in (QUEUED, RUNNING, DONE, FAILED, CANCELLED)]
    ACTIVE = (QUEUED, RUNNING)

    kind = models.CharField(max_length=50)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    collection = models.ForeignKey(
        "catalog.Collection", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    key = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=STATES, default=QUEUED)
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True)
    cancel_requested = models.BooleanField(default=False)
    runs = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker claimed the job (work.runs.MAX_RUNS)."
    )
    task_id = models.CharField(
        max_length=255, blank=True, default="",
        help_text="The Celery task that claimed it: that task redelivered means its worker died.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_job"  # the table of before issue 30
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "key"],
                condition=Q(state__in=["queued", "running"]) & ~Q(key=""),
                name="job_one_active_per_key",
            ),
            models.CheckConstraint(
                condition=Q(total__isnull=True) | Q(done__lte=F("total")), name="job_done_le_total"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} job {self.pk} ({self.state})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:job", args=[self.pk])

    @property
    def active(self) -> bool:
        return self.state in self.ACTIVE

    @property
    def fraction(self) -> float | None:
        """Progress in [0, 1]; ``None`` while the total is unknown."""
        if self.state == self.DONE:
            return 1.0
        if not self.total:
            return None
        return min(1.0, self.done / self.total)

    def to_dict(self) -> dict:
        """The small document the job page polls (``/jobs/<id>/status.json``, the API)."""
        return {
            **self.work_status(),  # active, fraction, message, error (file, line), queue, end
            "id": self.pk,
            "kind": self.kind,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "cancel_requested": self.cancel_requested,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "progress_at": self.updated_at.isoformat() if self.updated_at else None,
            "url": self.get_absolute_url(),
            "result_url": reverse("catalog:job_result", args=[self.pk]),
        }
