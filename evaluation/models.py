"""Evaluation results and background-work bookkeeping."""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time each Celery worker answered a heartbeat task: proof the pipeline runs."""

    hostname = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()
    nonce = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"{self.hostname} at {self.seen_at:%Y-%m-%d %H:%M:%S}"
