"""Writes of the evaluation layer."""

from __future__ import annotations

from django.utils import timezone

from evaluation.models import WorkerHeartbeat


def worker_heartbeat_record(*, hostname: str, nonce: str = "") -> WorkerHeartbeat:
    heartbeat, _ = WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"seen_at": timezone.now(), "nonce": nonce}
    )
    return heartbeat
