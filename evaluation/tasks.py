"""Celery tasks of the evaluation layer: thin, idempotent, ids in."""

from __future__ import annotations

from celery import shared_task

from evaluation.services import worker_heartbeat_record


@shared_task(name="evaluation.worker_heartbeat", bind=True)
def worker_heartbeat(self, nonce: str = "") -> str:
    """Record that this worker is alive and reaches the database; returns its hostname."""
    hostname = self.request.hostname or "unknown"
    worker_heartbeat_record(hostname=hostname, nonce=nonce)
    return hostname
