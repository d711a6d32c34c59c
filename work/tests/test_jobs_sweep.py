"""The sweep takes over or fails the jobs a dead worker left running, and sends again the
jobs whose message may be lost (:func:`work.jobs.jobs_sweep`, a step of
:func:`work.sweep.work_sweep`, the one sweep, which a starting worker and the beat
schedule run; their wiring is tested with the recomputes in ``tests/test_faults*.py``).

A worker's death is what it leaves in the database: a ``running`` job that reported
nothing for ``STALE_AFTER`` (15 min). The task's body (``job_run``) stands for the
worker that receives a message.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from catalog.models import RunEntry
from tests.helpers.uploads import form_data, post, upload_dirs_root
from tests.helpers.work_kinds import kind_replaced
from work import handoff
from work.job_runners import job_run
from work.jobs import STALE_AFTER, WORKER_LOST, job_claim, job_retry, job_start, jobs_sweep
from work.models import Job
from work.runs import MAX_RUNS
from work.sweep import work_sweep

pytestmark = pytest.mark.django_db
LONG_AGO = STALE_AFTER + timedelta(minutes=1)


def silent(job: Job, *, state: str, runs: int) -> Job:
    """The job as a worker that died ``LONG_AGO`` left it (or a queued one left waiting)."""
    Job.objects.filter(pk=job.pk).update(
        state=state, runs=runs, updated_at=timezone.now() - LONG_AGO
    )
    job.refresh_from_db()
    return job


def sweep(capture) -> tuple:
    with capture(execute=True):
        report = jobs_sweep()
    return report.sent_again, report.failed


def sent(handed_over) -> list[int]:
    return [kwargs["job_id"] for name, kwargs in handed_over if name == handoff.JOB_TASK]


def test_a_job_left_running_by_a_dead_worker_is_sent_again_and_taken_over(
    personas, handed_over, django_capture_on_commit_callbacks, monkeypatch
):
    kind_replaced(monkeypatch, "test", lambda *, job, report: {"ok": 1})
    job = job_start(kind="test", owner=personas.organiser)
    assert job_claim(job_id=job.pk)  # a worker starts it, and dies
    silent(job, state=Job.RUNNING, runs=1)
    handed_over.clear()
    assert sweep(django_capture_on_commit_callbacks) == (1, 0)
    job.refresh_from_db()
    assert (job.state, sent(handed_over)) == (Job.QUEUED, [job.pk])
    assert sweep(django_capture_on_commit_callbacks) == (0, 0)  # touched: not sent twice
    assert job_run(job_id=job.pk) is True  # another worker takes it over
    assert job_run(job_id=job.pk) is False  # the dead worker's redelivered message: nothing
    job.refresh_from_db()
    assert (job.state, job.result, job.runs) == (Job.DONE, {"ok": 1}, 2)


def test_a_queued_job_whose_message_may_be_lost_is_sent_again_and_fresh_jobs_are_left_alone(
    personas, handed_over, django_capture_on_commit_callbacks
):
    waiting = silent(job_start(kind="a", owner=personas.organiser), state=Job.QUEUED, runs=0)
    fresh_queued = job_start(kind="b", owner=personas.organiser)
    fresh_running = job_start(kind="c", owner=personas.organiser)
    job_claim(job_id=fresh_running.pk)
    handed_over.clear()
    assert sweep(django_capture_on_commit_callbacks) == (1, 0)
    assert sent(handed_over) == [waiting.pk]
    states = dict(Job.objects.values_list("pk", "state"))
    assert states == {waiting.pk: Job.QUEUED, fresh_queued.pk: Job.QUEUED,
                      fresh_running.pk: Job.RUNNING}  # fmt: skip


def test_a_job_that_outlived_its_runs_is_failed_keeps_its_files_and_can_be_tried_again(
    client, personas, upload_dirs, handed_over, django_capture_on_commit_callbacks
):
    # An upload of runs whose worker died twice (the second time after a take-over).
    client.force_login(personas.organiser)
    text = b"Alpha c1 c2\nAlpha c1 c3\n"  # ranked lists: system query doc
    post(client, personas.collection, "runs", form_data({"format": "ranked"}, runs=("r.txt", text)))
    job = Job.objects.get()
    silent(job, state=Job.RUNNING, runs=MAX_RUNS)
    handed_over.clear()
    assert sweep(django_capture_on_commit_callbacks) == (0, 1)
    job.refresh_from_db()
    assert (job.state, job.error, sent(handed_over)) == (Job.FAILED, WORKER_LOST, [])
    assert job_run(job_id=job.pk) is False  # a late redelivery cannot run it a third time
    assert list(upload_dirs_root().iterdir())  # the files are kept
    page = client.get(f"/jobs/{job.pk}/result/").content.decode()
    assert "stopped twice" in page and "Try again" in page
    with django_capture_on_commit_callbacks(execute=True):
        job = job_retry(job=job)
    assert (job.state, job.runs, sent(handed_over)) == (Job.QUEUED, 0, [job.pk])
    assert job_run(job_id=job.pk) is True
    job.refresh_from_db()
    assert job.state == Job.DONE, job.error
    assert RunEntry.objects.filter(system__name="Alpha").count() == 2


def test_the_one_sweep_sweeps_the_jobs_too(personas, django_capture_on_commit_callbacks):
    job = job_start(kind="a", owner=personas.organiser)
    job_claim(job_id=job.pk)
    silent(job, state=Job.RUNNING, runs=MAX_RUNS)
    with django_capture_on_commit_callbacks(execute=True):
        report = work_sweep()
    assert (report.jobs_sent, report.jobs_failed) == (0, 1)
    assert Job.objects.get(pk=job.pk).error == WORKER_LOST
