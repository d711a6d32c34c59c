"""A job whose worker died is taken over by its redelivered task at once, and its page says
when its progress stands still (issue 28, item 7).

Before: after ``kill -9`` of the heavy worker's pool process 1.1 s into a 5 MB runs
import, Celery redelivered the task (``acks_late``, ``task_reject_on_worker_lost``), but
``job_claim`` found the job "running" and not yet silent for ``STALE_AFTER``, so the
message was dropped, and the page said "running, 278/1000" for 15 min 25 s until the
sweep sent it again. A task's message comes back with its id only when the worker
running it died: the job now remembers the task that claimed it, and that task
redelivered takes it over. The real ``kill -9`` is replayed in ``tests/test_faults_real.py``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.helpers.work_kinds import kind_replaced
from work import job_runners
from work.jobs import WORKER_LOST, job_claim, job_progress_note, job_start
from work.models import Job
from work.runs import MAX_RUNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def runner(monkeypatch):
    calls = []
    kind_replaced(monkeypatch, "test", lambda *, job, report: calls.append(job.pk) or {"ok": 1})
    return calls


def test_the_dead_workers_redelivered_task_takes_the_job_over_at_once(personas, runner):
    job = job_start(kind="test", owner=personas.organiser)
    assert job_claim(job_id=job.pk, task_id="task-1")  # a worker starts it, and is killed
    assert not job_runners.job_run(job_id=job.pk, task_id="task-2")  # another message: busy
    assert job_runners.job_run(job_id=job.pk, task_id="task-1")  # its redelivery: taken over
    job.refresh_from_db()
    assert (job.state, job.runs, job.result, runner) == (Job.DONE, 2, {"ok": 1}, [job.pk])
    assert not job_runners.job_run(job_id=job.pk, task_id="task-1")  # done: nothing more


def test_a_job_whose_redelivered_task_dies_again_is_failed_for_good(personas, runner):
    job = job_start(kind="test", owner=personas.organiser)
    for _ in range(MAX_RUNS):  # claimed, killed, redelivered and claimed, killed again
        assert job_claim(job_id=job.pk, task_id="task-1")
    assert not job_runners.job_run(job_id=job.pk, task_id="task-1")
    job.refresh_from_db()
    assert (job.state, job.error, job.runs, runner) == (Job.FAILED, WORKER_LOST, MAX_RUNS, [])


def still_for(job: Job, minutes: float) -> Job:
    Job.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(minutes=minutes))
    job.refresh_from_db()
    return job


def test_the_job_page_says_when_progress_has_not_moved_for_a_minute(client, personas):
    job = job_start(kind="test", owner=personas.organiser)
    job_claim(job_id=job.pk, task_id="task-1")
    client.force_login(personas.organiser)
    moving = client.get(f"/jobs/{job.pk}/status.json").json()
    assert (moving["no_progress_for"], moving["no_progress"]) == (None, "")
    assert job_progress_note(job=still_for(job, 0.9))["no_progress"] == ""

    still_for(job, 3.5)
    status = client.get(f"/jobs/{job.pk}/status.json").json()
    assert 210 <= status["no_progress_for"] < 240
    # STALE_AFTER is 15 minutes: 11.5 left, so "within 12 minutes"
    assert status["no_progress"] == (
        "No progress for 3 minutes. One long step may still be under way; if the background "
        "worker stopped, the job is started again within 12 minutes."
    )
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert 'class="still" role="status" >No progress for 3 minutes.' in page
    assert client.get(f"/api/jobs/{job.pk}/").json()["no_progress"] == status["no_progress"]
    later = job_progress_note(job=still_for(job, 16))["no_progress"]
    assert later.startswith("No progress for 16 minutes.") and later.endswith("at the next check.")
    Job.objects.filter(pk=job.pk).update(state=Job.QUEUED)
    assert job_progress_note(job=Job.objects.get(pk=job.pk))["no_progress"] == ""
