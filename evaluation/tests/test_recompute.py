"""Coalesced recomputes: requests mark a target dirty; one task claims, computes, maybe reruns."""

from datetime import timedelta

import pytest
from django.utils import timezone

from evaluation.models import Recompute
from evaluation.services import recompute as service
from evaluation.services.computers import recompute_run
from evaluation.services.recompute import recompute_request
from tests.helpers.work_kinds import kind_replaced
from work.kinds import RECOMPUTE

pytestmark = pytest.mark.django_db


@pytest.fixture
def computations(monkeypatch):
    """A fake computer for kind ``campaign``; ``during`` runs inside a computation."""
    calls = []

    class Fake:
        during = None

        def __call__(self, *, target_id, report):
            calls.append(target_id)
            report(0.5, "half way", force=True)
            if self.during:
                action, self.during = self.during, None
                action()

    fake = Fake()
    kind_replaced(monkeypatch, "campaign", fake, table=RECOMPUTE)
    fake.calls = calls
    return fake


def test_the_first_request_enqueues_one_task_on_commit(
    enqueued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is True
        assert enqueued == []  # not before the commit
    row = Recompute.objects.get(kind="campaign", target_id=7)
    assert enqueued == [row.pk]
    assert (row.state, row.dirty, row.requests) == ("queued", True, 1)


def test_a_hundred_requests_in_a_burst_enqueue_one_task(
    enqueued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        results = [recompute_request(kind="campaign", target_id=7) for _ in range(100)]
    assert results.count(True) == 1
    assert len(enqueued) == 1
    assert Recompute.objects.get().requests == 100


def test_the_task_claims_computes_and_finishes(
    enqueued, computations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    assert recompute_run(recompute_id=enqueued[0]) is True
    row = Recompute.objects.get()
    assert computations.calls == [7]
    assert (row.state, row.dirty, row.computations, row.fraction) == ("done", False, 1, 1.0)
    assert row.finished_at is not None


def test_a_second_task_for_the_same_row_does_nothing(
    enqueued, computations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    recompute_run(recompute_id=enqueued[0])
    assert recompute_run(recompute_id=enqueued[0]) is False  # a redelivered message
    assert computations.calls == [7]


def test_a_request_while_running_makes_the_task_compute_exactly_once_more(
    enqueued, computations, django_capture_on_commit_callbacks, settings
):
    settings.EARSHOT_RECOMPUTE_MIN_INTERVAL = 0  # no debouncing: the rerun follows at once
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)

    def burst():
        with django_capture_on_commit_callbacks(execute=True):
            joined = [recompute_request(kind="campaign", target_id=7) for _ in range(20)]
        assert joined == [False] * 20  # joined the running computation

    computations.during = burst
    recompute_run(recompute_id=enqueued[0])
    row = Recompute.objects.get()
    assert computations.calls == [7, 7]
    assert len(enqueued) == 1
    assert (row.state, row.computations, row.requests) == ("done", 2, 21)


@pytest.fixture
def debounced(monkeypatch, settings):
    """A 1 s coalescing delay, a 10 s minimum interval; the tasks sent, with their countdowns."""
    settings.EARSHOT_RECOMPUTE_DELAY, settings.EARSHOT_RECOMPUTE_MIN_INTERVAL = 1, 10
    enqueued = []
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: enqueued.append((pk, countdown)))
    return enqueued


def test_with_debouncing_new_data_during_a_short_computation_waits_out_the_interval(
    debounced, computations, django_capture_on_commit_callbacks
):
    """A stream of answers costs one computation per interval, not one after another."""
    enqueued = debounced
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    assert enqueued[0][1] == 1  # the first request of a burst: the coalescing delay

    def burst():
        with django_capture_on_commit_callbacks(execute=True):
            [recompute_request(kind="campaign", target_id=7) for _ in range(20)]

    computations.during = burst
    recompute_run(recompute_id=enqueued[0][0])
    row = Recompute.objects.get()
    assert computations.calls == [7]  # no second computation straight away
    assert (row.state, row.dirty, row.computations, row.requests) == ("queued", True, 1, 21)
    # The fresh task waits out the rest of the 10 s since the computation started.
    assert len(enqueued) == 2 and 9 < enqueued[1][1] <= 10
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is False  # joins it
    Recompute.objects.update(started_at=timezone.now() - timedelta(seconds=11))
    assert recompute_run(recompute_id=row.pk) is True  # the interval has passed
    row.refresh_from_db()
    assert computations.calls == [7, 7]
    assert (row.state, row.computations, row.requests) == ("done", 2, 22)


def test_with_debouncing_a_request_soon_after_a_computation_started_waits_for_the_rest(
    debounced, computations, django_capture_on_commit_callbacks
):
    enqueued = debounced
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    recompute_run(recompute_id=enqueued[0][0])
    Recompute.objects.update(started_at=timezone.now() - timedelta(seconds=4))
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is True
    assert 5 < enqueued[1][1] <= 6  # 10 s after the last start, not the 1 s delay
    Recompute.objects.update(started_at=timezone.now() - timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        Recompute.objects.update(state=Recompute.DONE)
        assert recompute_request(kind="campaign", target_id=7) is True
    assert enqueued[2][1] == 1  # long ago: only the coalescing delay


def test_a_request_after_it_finished_enqueues_a_new_task(
    enqueued, computations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    recompute_run(recompute_id=enqueued[0])
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is True
    assert len(enqueued) == 2


def test_progress_is_written_to_the_row_while_running(
    enqueued, computations, django_capture_on_commit_callbacks
):
    seen = []
    computations.during = lambda: seen.append(Recompute.objects.get().to_dict())
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    recompute_run(recompute_id=enqueued[0])
    assert seen[0]["status"] == "running"
    assert seen[0]["progress"] == 0.5
    assert seen[0]["message"] == "half way"


def test_a_failing_computation_marks_the_row_failed_with_the_error(
    enqueued, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(*, target_id, report):
        raise ValueError("no judgments on the fine scale")

    kind_replaced(monkeypatch, "campaign", broken, table=RECOMPUTE)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    recompute_run(recompute_id=enqueued[0])
    row = Recompute.objects.get()
    assert row.state == "failed"
    assert row.error == "ValueError: no judgments on the fine scale"
    # The next request tries again.
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="campaign", target_id=7) is True


def test_a_transient_error_gives_the_row_back_for_a_retry(
    enqueued, monkeypatch, django_capture_on_commit_callbacks
):
    from django.db import OperationalError

    def locked(*, target_id, report):
        raise OperationalError("database is locked")

    kind_replaced(monkeypatch, "campaign", locked, table=RECOMPUTE)
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    with pytest.raises(OperationalError):
        recompute_run(recompute_id=enqueued[0])
    assert Recompute.objects.get().state == "queued"  # the retried task can claim it


def test_a_row_left_running_by_a_dead_worker_is_reclaimed_after_a_while(
    enqueued, computations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        recompute_request(kind="campaign", target_id=7)
    Recompute.objects.update(state="running", started_at=timezone.now())
    assert recompute_run(recompute_id=enqueued[0]) is False
    Recompute.objects.update(started_at=timezone.now() - timedelta(hours=1))
    assert recompute_run(recompute_id=enqueued[0]) is True
    assert Recompute.objects.get().state == "done"


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown recompute kind"):
        recompute_request(kind="system", target_id=1)


def test_low_cost_estimates_are_not_debounced(debounced, django_capture_on_commit_callbacks):
    """They choose an assessor's next pair, so they follow each judgment at once."""
    enqueued = debounced
    Recompute.objects.create(
        kind="lowcost", target_id=7, state=Recompute.DONE, started_at=timezone.now()
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert recompute_request(kind="lowcost", target_id=7) is True
    assert enqueued[0][1] == 1  # the coalescing delay only, though it started just now
