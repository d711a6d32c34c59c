"""Background jobs with progress: one row per piece of work a page hands to Celery.

A page starts a job (:func:`work.jobs.job_start`), the Celery task
``judging.job_run`` runs it, and the job's page polls its state and progress until it
shows the result. What each ``kind`` of job does is in the registry
the one registry of background work (:mod:`work.kinds`), filled by the apps. See ``docs/architecture.md``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from work.models.work import Work, state_field


class Job(Work):
    """A piece of background work: its kind, who started it, its state and its progress.

    ``key`` names what the job works on (``campaign:12``): while one job of a kind is
    queued or running on a key, starting another returns the same job (a double click
    starts nothing twice). ``result`` is the runner's JSON document; a failure keeps
    its message and, for a bad file, the file and line (``error_file``, ``error_line``).
    The fields every piece of background work has (state, runs, task, start, progress
    ``done`` of ``total``, message, error, queue, end) come from
    :class:`work.models.work.Work`; :mod:`work.state` moves it from state to state.
    """

    CANCELLED = "cancelled"
    STATES = [(s, s) for s in (Work.QUEUED, Work.RUNNING, Work.DONE, Work.FAILED, CANCELLED)]

    kind = models.CharField(max_length=50)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    collection = models.ForeignKey(
        "catalog.Collection", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    key = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict, blank=True)
    state = state_field(CANCELLED)
    result = models.JSONField(default=dict, blank=True)
    cancel_requested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
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
