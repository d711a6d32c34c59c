"""Background work is work's (issue 30, item 3): one registry, one task shell, one
progress writer, and nothing lost for a message or a client of before the change."""

from __future__ import annotations

import logging

import pytest
from celery import current_app
from django.conf import settings

from evaluation.models import Recompute
from evaluation.services.results import collection_results_compute
from work import kinds, tasks
from work.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    JOB_TASK,
    RECOMPUTE_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
    queued_key,
)
from work.models.work import PARTS
from work.progress import WorkReport


def test_every_kind_of_background_work_is_in_the_one_registry():
    """Uploads, the example generator and listening copies are jobs, the four recomputes
    recomputes: each app registered its kinds when it was ready."""
    assert set(kinds.kinds(kinds.JOB)) >= {
        "generate_examples", "listening_copies", "upload_clips", "upload_runs",
        "upload_judgments", "upload_mirex", "upload_answers",
    }  # fmt: skip
    assert kinds.kinds(kinds.RECOMPUTE) == [k for k, _ in Recompute.KINDS]
    assert kinds.kind_runner("collection", table=kinds.RECOMPUTE) is collection_results_compute
    assert kinds.kind_runner("collection") is None  # a job of that name: nothing runs it
    with pytest.raises(ValueError, match="a job or a recompute"):
        kinds.kind_register("upload_runs", run=print, table="jobs")


def test_a_message_sent_before_the_change_still_finds_its_task():
    """The tasks whose messages may wait in the broker during an upgrade keep their names
    (the job and recompute ones are acknowledged only when done); the sweep, renamed after
    work, still answers to its old name, and the beat schedule sends the new one."""
    registered = set(current_app.tasks)
    assert {
        JOB_TASK, RECOMPUTE_TASK, ANSWERS_ACCEPTED_TASK, COLLECTION_CHANGED_TASK,
        RELEVANCE_CAMPAIGN_CHANGED_TASK, "evaluation.worker_heartbeat", "work.sweep",
        "evaluation.recompute_sweep",
    } <= registered  # fmt: skip
    assert (JOB_TASK, RECOMPUTE_TASK) == ("judging.job_run", "evaluation.recompute")
    for name in (JOB_TASK, RECOMPUTE_TASK):
        assert (
            current_app.tasks[name].acks_late
            and current_app.tasks[name].run.__module__ == "work.tasks"
        )
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "work.sweep" in schedule and "evaluation.recompute_sweep" not in schedule


@pytest.mark.django_db
def test_a_hand_off_nobody_receives_is_dropped_with_a_line_in_the_log(monkeypatch, caplog):
    """A hand-off of a name no app registered (a message of a future or removed kind)
    deletes its marker and asks for nothing, instead of failing over and over."""
    monkeypatch.delitem(kinds._RECEIVERS, ANSWERS_ACCEPTED_TASK)
    deleted = []
    monkeypatch.setattr(tasks, "handoff_started", lambda task, kw: deleted.append((task, kw)))
    with caplog.at_level(logging.WARNING, logger="work.tasks"):
        assert tasks.preference_answers_accepted(campaign_id=7) is False
    assert deleted == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": 7})]
    assert "nothing receives evaluation.preference_answers_accepted(campaign_id=7)" in caplog.text
    assert queued_key(ANSWERS_ACCEPTED_TASK, {"campaign_id": 7}).endswith("campaign_id=7")


@pytest.mark.django_db
def test_a_computation_and_a_job_report_progress_through_one_writer():
    """A fraction is written as parts of 10,000 (the status document's fraction and the
    old ``progress`` key read it back exactly to 4 decimals); a count as itself."""
    from evaluation.services.recompute import RECOMPUTES

    row = Recompute.objects.create(kind="collection", target_id=1, state="running")
    WorkReport(RECOMPUTES, row.pk).fraction(0.4567, "fitting")
    row.refresh_from_db()
    assert (row.done, row.total, row.message) == (4_567, PARTS, "fitting")
    status = row.to_dict()
    # 4,567 / 10,000 = 0.4567, rounded to 4 decimals by the status document
    assert (status["fraction"], status["progress"], status["status"]) == (0.4567, 0.4567, "running")
    WorkReport(RECOMPUTES, row.pk, interval=0).fraction(7.0)  # out of range: clamped to 1
    row.refresh_from_db()
    assert (row.done, row.total) == (PARTS, PARTS)
    Recompute.objects.filter(pk=row.pk).update(state="failed")
    WorkReport(RECOMPUTES, row.pk, interval=0)(3, 4)  # not running: nothing written
    row.refresh_from_db()
    assert (row.done, row.total, row.to_dict()["state"]) == (PARTS, PARTS, "failed")
