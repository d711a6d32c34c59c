"""Background jobs with progress (work.jobs, job_runners): the life of a job.

The task's body (:func:`~work.job_runners.job_run`) is called directly here;
the real Celery worker runs it in ``tests/journeys/test_background_work_browser.py``.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from common.files.errors import ImportFailed
from tests.helpers.work_kinds import kind_replaced
from work import handoff, job_runners
from work.jobs import NOT_SENT, JobFailed, JobReport, job_cancel, job_claim, job_start
from work.models import Job

pytestmark = pytest.mark.django_db


@pytest.fixture
def runner(monkeypatch):
    """A kind of job whose runner the test decides: ``runner.body = lambda job, report: …``."""

    class Runner:
        body = staticmethod(lambda job, report: {"ok": True})
        calls = 0

        def __call__(self, *, job, report):
            Runner.calls += 1
            return self.body(job, report)

    instance = Runner()
    kind_replaced(monkeypatch, "test", instance)
    return instance


def start(personas, django_capture_on_commit_callbacks, **options) -> Job:
    with django_capture_on_commit_callbacks(execute=True):
        return job_start(kind="test", owner=personas.organiser, collection=personas.collection,
                         **options)  # fmt: skip


def test_a_started_job_is_queued_and_sent_by_name_once_it_commits(
    personas, handed_over, django_capture_on_commit_callbacks
):
    job = start(personas, django_capture_on_commit_callbacks, params={"n": 3})
    assert job.state == Job.QUEUED and job.params == {"n": 3}
    assert handed_over == [(handoff.JOB_TASK, {"job_id": job.pk})]


def test_a_second_start_on_the_same_key_returns_the_job_already_under_way(
    personas, handed_over, django_capture_on_commit_callbacks
):
    first = start(personas, django_capture_on_commit_callbacks, key="campaign:1")
    again = start(personas, django_capture_on_commit_callbacks, key="campaign:1")
    other = start(personas, django_capture_on_commit_callbacks, key="campaign:2")
    assert again.pk == first.pk != other.pk
    assert len(handed_over) == 2
    Job.objects.filter(pk=first.pk).update(state=Job.DONE)
    assert start(personas, django_capture_on_commit_callbacks, key="campaign:1").pk != first.pk


def test_when_the_broker_cannot_be_reached_the_job_fails_and_says_what_to_do(
    personas, monkeypatch, django_capture_on_commit_callbacks
):
    def dead(name, *, kwargs):
        raise ConnectionError("Error 111 connecting to redis")

    monkeypatch.setattr(handoff, "send_task", dead)
    job = start(personas, django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert job.state == Job.FAILED and job.error == NOT_SENT
    assert "Error 111" not in job.error  # what to do, not the broker's internals


def test_a_job_runs_reports_progress_and_keeps_its_result(personas, runner, handed_over):
    def body(job, report):
        for done in range(5):
            report(done, 4 + 1, f"step {done}", force=True)
            assert Job.objects.get(pk=job.pk).done == done  # written as it goes
        return {"answer": 42}

    runner.body = body
    job = job_start(kind="test", owner=personas.organiser)
    assert job_runners.job_run(job_id=job.pk) is True
    job.refresh_from_db()
    assert (job.state, job.result, job.done, job.total) == (Job.DONE, {"answer": 42}, 5, 5)
    assert job.fraction == 1.0 and job.started_at <= job.finished_at
    assert job_runners.job_run(job_id=job.pk) is False  # a redelivered task does nothing
    assert runner.calls == 1


def test_progress_is_written_at_most_every_quarter_second_and_never_past_the_total(
    personas, runner
):
    job = job_start(kind="test", owner=personas.organiser)
    job_claim(job_id=job.pk)
    report = JobReport(job.pk)
    report(1, 10, "one")
    report(2, 10, "two")  # within 0.25 s of the first: not written
    assert Job.objects.get(pk=job.pk).done == 1
    report(99, None, "beyond", force=True)  # no total given: kept under the earlier one
    assert Job.objects.get(pk=job.pk).done == 10
    report(12, 10, "more than said", force=True)  # the total grows to what was done
    job.refresh_from_db()
    assert (job.done, job.total) == (12, 12)


@pytest.mark.parametrize(
    ("error", "message", "file", "line"),
    [
        (JobFailed("Column 3 is empty.", file="answers.csv", line=7), "Column 3 is empty.", "answers.csv", 7),
        (ImportFailed(Path("/tmp/up/runs.tsv"), 12, "duplicate document 'x'"), "duplicate document 'x'", "runs.tsv", 12),
        (ZeroDivisionError("secret internals"), "An unexpected error stopped the job; the server's log has the details.", "", None),
    ],
)  # fmt: skip
def test_a_failure_keeps_its_message_file_and_line_and_never_internals(
    personas, runner, error, message, file, line
):
    def body(job, report):
        raise error

    runner.body = body
    job = job_start(kind="test", owner=personas.organiser)
    job_runners.job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.state, job.error, job.error_file, job.error_line) == (
        Job.FAILED,
        message,
        file,
        line,
    )


def test_a_job_of_an_unknown_kind_fails_with_a_message(personas):
    job = job_start(kind="nonsense", owner=personas.organiser)
    job_runners.job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.state == Job.FAILED and job.error == "Nothing runs jobs of kind 'nonsense'."


def test_cancelling_a_queued_job_stops_it_before_it_starts(personas, runner):
    job = job_cancel(job=job_start(kind="test", owner=personas.organiser))
    assert job.state == Job.CANCELLED
    assert job_runners.job_run(job_id=job.pk) is False and runner.calls == 0


def test_a_running_job_stops_at_its_next_report_when_cancelled(personas, runner):
    seen = []

    def body(job, report):
        report(1, 3, force=True)
        job_cancel(job=job)  # as if someone pressed the button meanwhile
        seen.append(Job.objects.get(pk=job.pk).state)
        report(2, 3, force=True)  # raises JobCancelled
        seen.append("not reached")
        return {}

    runner.body = body
    job = job_start(kind="test", owner=personas.organiser)
    job_runners.job_run(job_id=job.pk)
    job.refresh_from_db()
    assert seen == [Job.RUNNING] and job.state == Job.CANCELLED and job.result == {}


def test_a_job_whose_worker_died_is_taken_over_or_failed_on_cancel(personas, runner):
    job = job_start(kind="test", owner=personas.organiser)
    job_claim(job_id=job.pk)
    assert job_claim(job_id=job.pk) is False  # someone is running it
    long_ago = timezone.now() - timedelta(minutes=16)
    Job.objects.filter(pk=job.pk).update(updated_at=long_ago)
    assert job_runners.job_run(job_id=job.pk) is True  # a redelivered task takes it over
    assert Job.objects.get(pk=job.pk).state == Job.DONE
    stale = job_start(kind="test", owner=personas.organiser)
    job_claim(job_id=stale.pk)
    Job.objects.filter(pk=stale.pk).update(updated_at=long_ago)
    assert job_cancel(job=stale).state == Job.FAILED


def test_the_job_pages_show_progress_poll_a_small_document_and_show_the_result(
    client, personas, runner
):
    job = job_start(kind="test", owner=personas.organiser, collection=personas.collection)
    client.force_login(personas.organiser)
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert f'data-status-url="/jobs/{job.pk}/status.json"' in page and "Cancel the job" in page
    assert client.get(f"/jobs/{job.pk}/result/")["Location"] == f"/jobs/{job.pk}/"  # not yet
    status = client.get(f"/jobs/{job.pk}/status.json").json()
    assert status["state"] == "queued" and status["active"] is True and status["fraction"] is None
    job_runners.job_run(job_id=job.pk)
    status = client.get(f"/jobs/{job.pk}/status.json").json()
    assert (status["state"], status["fraction"]) == ("done", 1.0)
    result = client.get(f"/jobs/{job.pk}/result/").content.decode()
    assert "{&#x27;ok&#x27;: True}" in result  # a kind without its own page: the JSON shown


def test_a_job_on_no_collection_is_its_owners_alone(client, personas):
    job = job_start(kind="test", owner=personas.organiser)
    client.force_login(personas.other_organiser)
    assert client.get(f"/jobs/{job.pk}/").status_code == 404
    client.force_login(personas.organiser)
    assert client.get(f"/jobs/{job.pk}/").status_code == 200


def test_a_read_only_co_organiser_follows_a_job_but_is_not_offered_to_cancel_it(client, personas):
    from catalog.models import CollectionShare
    from common.roles import ORGANISER
    from tests.helpers.personas import make_user

    rita = make_user("rita", ORGANISER)
    CollectionShare.objects.create(collection=personas.collection, user=rita, access="read")
    job = job_start(kind="test", owner=personas.organiser, collection=personas.collection)
    client.force_login(rita)
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "Progress" in page and "Cancel the job" not in page
    assert client.post(f"/jobs/{job.pk}/cancel/").status_code == 403
