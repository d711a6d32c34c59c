"""A real Celery worker process on the embedded Redis runs a task that writes to the database."""

import time
import uuid

import pytest

from evaluation.models import WorkerHeartbeat
from work.tasks import worker_heartbeat

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


def test_the_worker_runs_niced_so_that_requests_go_first(celery_worker_process):
    """Background work yields the cores to the web workers (EARSHOT_WORKER_NICENESS, 10 in
    the product, TEST_WORKER_NICENESS for the tests' worker): at 10 crowd answers/s a
    recompute then delays fewer of the answers that meet it (docs/benchmarks.md, "Crowd
    capacity"). Field 19 of /proc/<pid>/stat is the nice value."""
    import os
    from pathlib import Path

    from tests.helpers.processes import TEST_WORKER_NICENESS

    def niceness(pid: int) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])

    deadline = time.monotonic() + 30  # the worker sets it once it has started
    expected = min(19, os.nice(0) + TEST_WORKER_NICENESS)
    while niceness(celery_worker_process.pid) != expected:
        assert time.monotonic() < deadline, f"worker niceness {niceness(celery_worker_process.pid)}"
        time.sleep(0.1)
