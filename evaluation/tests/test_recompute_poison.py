"""Poison work ends: a recompute whose worker dies (or runs out of time) on its second run
is failed for good with its error, and only "Recompute now" tries it again (issue 21).

Before, recomputes had no run limit: after ``kill -9`` the task was redelivered and
claimed again by its task id, and after a restart the sweep revived and sent it again,
for ever. A worker's death is what it leaves in the database (a ``running`` row claimed
by a task that never finished); the task's body (``recompute_run``) stands for the
worker that receives a message, as in ``tests/test_faults.py``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from evaluation.models import Recompute
from evaluation.services.computers import recompute_run
from evaluation.services.recompute import WORKER_LOST, recompute_claim, recompute_request
from tests.helpers.work_kinds import kind_replaced
from work.kinds import RECOMPUTE
from work.limits import TooHeavyHere, WorkRefused
from work.queues import HEAVY, INTERACTIVE, running_on
from work.runs import MAX_RUNS, TIMED_OUT
from work.sweep import work_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def computer(monkeypatch):
    """The ``campaign`` computer, doing what the test sets in ``computer.does``."""

    class Computer:
        calls = 0
        does = None

        def __call__(self, *, target_id, report):
            Computer.calls += 1
            if self.does is not None:
                self.does()

    fake = Computer()
    kind_replaced(monkeypatch, "campaign", fake, table=RECOMPUTE)
    return fake


def requested(capture) -> Recompute:
    with capture(execute=True):
        recompute_request(kind="campaign", target_id=7)
    return Recompute.objects.get(kind="campaign", target_id=7)


def test_the_run_limit_is_two_runs():
    assert MAX_RUNS == 2  # the issue: "dies or times out on its second run"


def test_a_task_redelivered_after_its_second_worker_died_fails_the_row_for_good(
    enqueued, computer, django_capture_on_commit_callbacks
):
    row = requested(django_capture_on_commit_callbacks)
    # First run: task-1 claims it and its worker is killed; the message comes back.
    assert recompute_claim(recompute_id=row.pk, task_id="task-1", worker="w@a")
    # Second run: the redelivered task-1 claims its own row again; killed again.
    assert recompute_claim(recompute_id=row.pk, task_id="task-1", worker="w@a")
    # Third delivery: not run.
    assert recompute_run(recompute_id=row.pk, task_id="task-1") is False
    row.refresh_from_db()
    assert (row.state, row.error, row.runs) == ("failed", WORKER_LOST, 2)
    assert computer.calls == 0


def test_the_sweep_fails_a_row_whose_worker_died_on_its_second_run_and_revives_a_first(
    enqueued,
):
    long_ago = timezone.now() - timedelta(minutes=5)
    second = Recompute.objects.create(kind="collection", target_id=1, state="running",
                                      runs=2, started_at=long_ago, heartbeat_at=long_ago)  # fmt: skip
    first = Recompute.objects.create(kind="collection", target_id=2, state="running",
                                     runs=1, started_at=long_ago, heartbeat_at=long_ago)  # fmt: skip
    report = work_sweep()
    assert (report.revived, report.sent) == (1, 1) and enqueued == [first.pk]
    second.refresh_from_db()
    assert (second.state, second.error) == ("failed", WORKER_LOST)
    assert Recompute.objects.get(pk=first.pk).state == "queued"


def test_a_starting_worker_fails_what_died_twice_under_its_earlier_lives(enqueued):
    now = timezone.now()
    row = Recompute.objects.create(kind="collection", target_id=1, state="running", runs=2,
                                   claimed_by="celery@box", started_at=now - timedelta(seconds=5),
                                   heartbeat_at=now)  # fmt: skip
    work_sweep(worker="celery@box", started_at=now)
    row.refresh_from_db()
    assert (row.state, row.error) == ("failed", WORKER_LOST) and enqueued == []


def test_new_data_does_not_resend_a_row_failed_for_good_but_recompute_now_does(
    enqueued, computer, django_capture_on_commit_callbacks
):
    row = requested(django_capture_on_commit_callbacks)
    Recompute.objects.filter(pk=row.pk).update(state="failed", error=WORKER_LOST, runs=2)
    enqueued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is False
    assert enqueued == [] and Recompute.objects.get().state == "failed"
    with django_capture_on_commit_callbacks(execute=True):  # "Recompute now": Try again
        assert recompute_request(kind="campaign", target_id=7, resend=True) is True
    row.refresh_from_db()
    assert (row.state, row.runs, enqueued) == ("queued", 0, [row.pk])
    assert recompute_run(recompute_id=row.pk) is True
    assert Recompute.objects.get().state == "done" and computer.calls == 1


def test_a_computation_stopped_by_its_soft_time_limit_fails_at_once_and_is_not_resent(
    enqueued, computer, django_capture_on_commit_callbacks
):
    def out_of_time():
        raise SoftTimeLimitExceeded

    computer.does = out_of_time
    row = requested(django_capture_on_commit_callbacks)
    assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.error) == ("failed", TIMED_OUT)
    assert "EARSHOT_TASK_SOFT_TIME_LIMIT_SECONDS" in row.error
    enqueued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    assert enqueued == []


def test_a_refused_computation_fails_with_its_message_and_new_data_tries_again(
    enqueued, computer, django_capture_on_commit_callbacks
):
    def refuse():
        raise WorkRefused("3,018 systems: too many pairs; the limit is 50,000.")

    computer.does = refuse
    row = requested(django_capture_on_commit_callbacks)
    assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.error) == (
        "failed",
        "3,018 systems: too many pairs; the limit is 50,000.",
    )
    enqueued.clear()
    with django_capture_on_commit_callbacks(execute=True):  # e.g. fewer systems now
        assert recompute_request(kind="campaign", target_id=7) is True
    assert enqueued == [row.pk]


def test_work_too_heavy_for_the_interactive_queue_moves_to_the_heavy_queue_uncounted(
    enqueued, computer, django_capture_on_commit_callbacks
):
    def heavy():
        if computer.calls == 1:
            raise TooHeavyHere(10**11)

    computer.does = heavy
    row = requested(django_capture_on_commit_callbacks)
    enqueued.clear()
    with running_on(INTERACTIVE):
        assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.queue, row.runs, row.dirty) == ("queued", HEAVY, 0, True)
    assert enqueued == [row.pk]
    with running_on(HEAVY):
        assert recompute_run(recompute_id=row.pk) is True
    assert Recompute.objects.get().state == "done"
