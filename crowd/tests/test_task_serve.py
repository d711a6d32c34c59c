"""task_serve: random order per worker, quiz and work mode, caps, redundancy, reloads."""

import pytest

from crowd.models import Example, PreferenceTask, Worker
from crowd.selectors import campaign_room
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from crowd.services.workers import Arrival, worker_arrive
from tests.helpers.crowd_fixtures import answer_all, arrive, make_campaign

pytestmark = pytest.mark.django_db


def test_a_reload_returns_the_same_task_with_the_same_sides_until_it_is_answered(crowd_collection):
    campaign = make_campaign(crowd_collection)
    worker = arrive(campaign)
    first = task_serve(worker=worker)
    again = task_serve(worker=worker)
    assert (again.pk, again.key, again.swapped) == (first.pk, first.key, first.swapped)
    answer_submit(worker=worker, key=first.key, choice="both_good")
    assert task_serve(worker=worker).pk != first.pk


def test_a_worker_who_has_not_consented_gets_no_task(crowd_collection):
    campaign = make_campaign(crowd_collection)
    worker = worker_arrive(campaign=campaign, arrival=Arrival("generic", "w1"))
    assert task_serve(worker=worker) is None


def test_workers_see_the_examples_in_different_random_orders_and_never_twice(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=10)
    orders = []
    for worker_id in ("w1", "w2", "w3"):
        served = answer_all(arrive(campaign, worker_id))
        examples = [task.example_id for task in served]
        assert len(examples) == len(set(examples)) == campaign.examples.count()
        orders.append(examples)
    assert len({tuple(order) for order in orders}) == 3


def test_sides_are_random_per_task(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    served = answer_all(arrive(campaign))
    assert {task.swapped for task in served} == {True, False}


def test_a_worker_gets_at_most_m_tasks_and_then_finishes(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=5)
    worker = arrive(campaign)
    assert len(answer_all(worker)) == 5
    worker.refresh_from_db()
    assert (worker.status, worker.served_count, worker.answer_count) == (Worker.FINISHED, 5, 5)


def test_each_example_is_answered_by_at_most_r_workers(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=2)
    n_examples = campaign.examples.count()
    totals = [len(answer_all(arrive(campaign, f"w{i}"))) for i in range(4)]
    assert sum(totals) == 2 * n_examples
    assert totals[2:] == [0, 0]
    assert set(campaign.examples.values_list("slots_taken", flat=True)) == {2}
    assert not campaign_room(campaign=campaign)  # the pages say "full" before any task


def test_in_quiz_mode_the_first_q_tasks_are_trap_questions(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=3)
    served = answer_all(arrive(campaign))
    assert [t.is_quiz for t in served[:4]] == [True, True, True, False]
    assert all(hasattr(t.example, "trap") for t in served[:3])


def test_in_work_mode_trap_questions_are_mixed_in_at_the_rate(crowd_collection):
    # Each worker's order is a permutation of the examples' primary keys, which differ from
    # run to run on PostgreSQL (its sequences are not rolled back), so one worker's 4 trap
    # questions come first with probability 1 / C(12, 4) = 1/495 (it happened in CI). Three
    # workers with independent orders all seeing them first: (1/495)**3, about 8e-9.
    campaign = make_campaign(
        crowd_collection, traps=4, trap_rate=0.5, min_trap_answers=1, answers_per_example=3
    )
    sequences = []
    for worker_id in ("w1", "w2", "w3"):
        served = answer_all(arrive(campaign, worker_id))
        kinds = [hasattr(t.example, "trap") for t in served]
        assert sum(kinds) == 4 and len(kinds) == campaign.examples.count()
        assert not any(t.is_quiz for t in served)
        sequences.append(kinds)
    assert any(kinds != sorted(kinds, reverse=True) for kinds in sequences)  # mixed in


def test_work_trap_questions_are_served_as_any_example_whatever_the_trap_rate(crowd_collection):
    # Issue 29: the work pool's trap questions are examples of the work, drawn by the same
    # statement; the trap rate says how many the pool needs, not how often to roll for one.
    campaign = make_campaign(crowd_collection, traps=4, trap_rate=0.0)
    served = answer_all(arrive(campaign))
    assert len(served) == campaign.examples.count()
    assert sum(hasattr(t.example, "trap") for t in served) == 4


def test_a_stale_task_gives_its_slot_back_but_stays_with_its_worker(crowd_collection):
    from datetime import timedelta

    from django.utils import timezone

    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    PreferenceTask.objects.filter(pk=task.pk).update(alive_at=timezone.now() - timedelta(minutes=4))
    other = arrive(campaign, "w2")
    served = answer_all(other)
    assert task.example_id in {t.example_id for t in served}
    assert task_serve(worker=worker).pk == task.pk
    answer_submit(worker=worker, key=task.key, choice="a_better")
    task.example.refresh_from_db()
    assert task.example.slots_taken == 2


def test_an_example_held_only_by_a_long_open_task_is_served_beyond_redundancy(crowd_collection):
    # Issue 22 (no hoarding): every slot leased, nothing else left. A task served just now
    # (someone answering) keeps its example; one open longer than TASK_BEYOND_AFTER (2 min)
    # does not, so the other worker is served it as a second answer rather than idling.
    from datetime import timedelta

    from django.utils import timezone

    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=1)
    holder = arrive(campaign)
    held = task_serve(worker=holder)
    other = arrive(campaign, "w2")
    served = answer_all(other)
    assert held.example_id not in {t.example_id for t in served}
    assert len(served) == campaign.examples.count() - 1
    PreferenceTask.objects.filter(pk=held.pk).update(
        served_at=timezone.now() - timedelta(minutes=5)
    )
    late = arrive(campaign, "w3")
    [beyond] = answer_all(late)  # every other example has its answer
    assert beyond.example_id == held.example_id
    assert Example.objects.get(pk=held.example_id).slots_taken == 2
