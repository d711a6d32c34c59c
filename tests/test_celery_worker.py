"""A real Celery worker process on the embedded Redis runs a task that writes to the database."""

import time
import uuid

import pytest

from evaluation.models import WorkerHeartbeat
from evaluation.tasks import worker_heartbeat

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_task_sent_through_redis_is_run_by_the_worker_and_written_to_the_database(
    celery_worker_process,
):
    nonce = uuid.uuid4().hex
    worker_heartbeat.delay(nonce)  # fire and forget: there is no result backend
    deadline = time.monotonic() + 30
    while not WorkerHeartbeat.objects.filter(nonce=nonce).exists():
        assert time.monotonic() < deadline, "the worker did not run the task"
        time.sleep(0.1)
    assert WorkerHeartbeat.objects.get(nonce=nonce).hostname.startswith("celery@")
    assert celery_worker_process.poll() is None  # a separate, still running process
