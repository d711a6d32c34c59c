"""Forgiving a trap question recomputes every affected worker's trust, "missed" and
accepted answers; a worker it had stopped stays stopped until the organiser reinstates
them (issue 12: a worker shown the screen-out page is never silently re-admitted)."""

import pytest
from django.db.models import Count, Q

from crowd.models import Answer, TrapQuestion, Worker
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from crowd.services.traps import trap_question_contest
from crowd.services.workers import worker_reinstate
from tests.helpers.crowd_fixtures import arrive, make_campaign, right_choice, trap_of, wrong_choice

pytestmark = pytest.mark.django_db


def quiz(worker, wrong_on: set[int]):
    """Answer the quiz; miss the trap questions at the given example positions (1-based)."""
    missed = []
    while True:
        task = task_serve(worker=worker)
        if task is None or not task.is_quiz:
            return missed
        if task.position in wrong_on:
            missed.append(trap_of(task))
            answer_submit(worker=worker, key=task.key, choice=wrong_choice(task))
        else:
            answer_submit(worker=worker, key=task.key, choice=right_choice(task))


def test_forgiving_the_trap_a_worker_missed_corrects_their_trust_and_the_organiser_reinstates_them(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, trust_threshold=0.8)
    worker = arrive(campaign)
    [missed] = quiz(worker, wrong_on={2})
    worker.refresh_from_db()
    assert (worker.status, worker.trust) == (Worker.STOPPED, 0.75)
    assert Answer.objects.filter(worker=worker, excluded=True).count() == 4

    recomputed = trap_question_contest(trap=missed)

    worker.refresh_from_db()
    assert recomputed == 1
    # 3 trap answers still count, all right: trust 3/3 = 1.0, none missed.
    assert (worker.trust, worker.trap_answered, worker.trap_missed) == (1.0, 3, 0)
    assert (worker.status, worker.stop_reason) == (Worker.STOPPED, Worker.LOW_TRUST)
    assert Answer.objects.filter(worker=worker, excluded=True).count() == 4
    assert task_serve(worker=worker) is None  # not silently re-admitted

    worker_reinstate(worker=worker)

    worker.refresh_from_db()
    assert (worker.status, worker.trusted, worker.stop_reason) == (Worker.ACTIVE, True, "")
    assert not Answer.objects.filter(worker=worker, excluded=True).exists()
    task = task_serve(worker=worker)
    assert task is not None and trap_of(task) is None  # back to work, contested trap not served


def test_contesting_a_trap_only_changes_the_workers_who_answered_it(crowd_collection):
    # Quiz questions are each one worker's (issue 29), so three workers share work traps
    # instead: 4 of the 12 examples, every example for all three; each worker misses the
    # first trap question they meet and answers the rest right, so each ends with 3 of 4
    # (0.75 < 0.8) and is stopped at the end of their work, the checkpoint.
    campaign = make_campaign(
        crowd_collection, traps=4, quiz_traps=0, trust_threshold=0.8, min_trap_answers=4,
        answers_per_example=3,
    )  # fmt: skip
    workers = [arrive(campaign, f"w{i}") for i in range(3)]
    for worker in workers:
        missed_one = False
        while (task := task_serve(worker=worker)) is not None:
            miss = trap_of(task) is not None and not missed_one
            missed_one = missed_one or miss
            choice = wrong_choice(task) if miss else right_choice(task)
            answer_submit(worker=worker, key=task.key, choice=choice)
    missed_rates = (
        TrapQuestion.objects.filter(example__campaign=campaign)
        .annotate(
            seen=Count("example__answers"),
            missed=Count("example__answers", filter=Q(example__answers__correct=False)),
        )
        .order_by("-missed")
    )
    most_missed = missed_rates.first()
    assert most_missed.missed >= 1
    trap_question_contest(trap=most_missed)
    for worker in workers:
        worker.refresh_from_db()
        assert worker.status == Worker.STOPPED  # each missed one of 4: 0.75 < 0.8
        answered_it = Answer.objects.filter(worker=worker, example__trap=most_missed)
        if answered_it.filter(correct=False).exists():
            assert (worker.trust, worker.trap_answered) == (1.0, 3)  # 3 of 3 right now
        else:  # answered it right: 2 of the 3 that still count are right
            assert (worker.trust, worker.trap_answered) == (2 / 3, 3)


def test_un_forgiving_stops_the_worker_again(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, trust_threshold=0.8)
    worker = arrive(campaign)
    [missed] = quiz(worker, wrong_on={1})
    trap_question_contest(trap=missed)
    trap_question_contest(trap=missed, contested=False)
    worker.refresh_from_db()
    assert worker.status == Worker.STOPPED
