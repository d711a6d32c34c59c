"""worker_trust_update: trust from trap questions, stopping, exclusion and acceptance."""

import pytest

from crowd.models import Answer, Worker
from crowd.services.answers import answer_submit
from crowd.services.tasks import _PRIME, _order_key, task_serve
from tests.helpers.crowd_fixtures import (
    arrive,
    make_campaign,
    right_choice,
    work,
    wrong_choice,
)
from work.handoff import ANSWERS_ACCEPTED_TASK

pytestmark = pytest.mark.django_db


def test_a_worker_who_passes_the_quiz_goes_on_and_their_answers_are_accepted(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, trust_threshold=0.75)
    worker = arrive(campaign)
    work(worker, miss_traps=False)
    worker.refresh_from_db()
    assert (worker.status, worker.trust, worker.trusted) == (Worker.FINISHED, 1.0, True)
    answers = Answer.objects.filter(worker=worker)
    assert answers.count() == campaign.examples.count()
    assert answers.filter(accepted_at__isnull=False).count() == campaign.examples.count() - 4
    assert not answers.filter(example__trap__isnull=False, accepted_at__isnull=False).exists()


def test_a_worker_below_the_threshold_after_the_quiz_is_stopped_with_everything_excluded(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, trust_threshold=0.75)
    worker = arrive(campaign)
    for _ in range(4):
        task = task_serve(worker=worker)
        choice = wrong_choice(task) if task.position <= 2 else right_choice(task)
        answer_submit(worker=worker, key=task.key, choice=choice)
    worker.refresh_from_db()
    assert (worker.status, worker.trust, worker.trusted) == (Worker.STOPPED, 0.5, False)
    assert task_serve(worker=worker) is None
    assert Answer.objects.filter(worker=worker, excluded=True).count() == 4  # kept, flagged


def test_trust_is_not_acted_on_in_the_middle_of_the_quiz(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, min_trap_answers=1)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    answer_submit(worker=worker, key=task.key, choice=wrong_choice(task))
    worker.refresh_from_db()
    assert (worker.status, worker.trust) == (Worker.ACTIVE, 0.0)


def test_in_work_mode_trust_is_acted_on_only_after_the_minimum_of_trap_answers(crowd_collection):
    campaign = make_campaign(
        crowd_collection,
        traps=12,
        min_trap_answers=3,
        trust_threshold=0.5,
        trust_check_every=1,  # a checkpoint after every answer: only the evidence rule acts
    )  # fmt: skip  (every example a trap question: every task is one)
    worker = arrive(campaign)
    statuses = []
    for _ in range(3):
        task = task_serve(worker=worker)
        answer_submit(worker=worker, key=task.key, choice=wrong_choice(task))
        worker.refresh_from_db()
        statuses.append(worker.status)
    assert statuses == [Worker.ACTIVE, Worker.ACTIVE, Worker.STOPPED]


def test_low_trust_stops_a_worker_only_at_a_checkpoint_not_after_the_missed_trap(
    crowd_collection,
):
    # Issue 22 (no oracle): with a checkpoint every 4 work answers, three missed traps
    # (trust 0 from the third on, below 0.5) stop the worker only after the 4th answer.
    # Every example is a trap question here (issue 29 serves them as any example, so
    # that is how a test makes the first three tasks trap questions).
    campaign = make_campaign(
        crowd_collection, traps=12, min_trap_answers=3, trust_threshold=0.5,
        trust_check_every=4,
    )  # fmt: skip
    worker = arrive(campaign)
    statuses, kinds = [], []
    for _ in range(4):
        task = task_serve(worker=worker)
        kinds.append(hasattr(task.example, "trap"))
        answer_submit(worker=worker, key=task.key, choice=wrong_choice(task))
        worker.refresh_from_db()
        statuses.append(worker.status)
    assert kinds == [True] * 4
    assert statuses == [Worker.ACTIVE] * 3 + [Worker.STOPPED]
    assert worker.trusted is False and worker.stop_reason == Worker.LOW_TRUST


def seed_serving_an_ordinary_example_first(campaign) -> int:
    """A worker seed whose own order of the examples (``crowd.services.tasks._order_key``,
    over the examples' ids) starts with an example that is not a trap question. The ids
    differ from run to run on PostgreSQL, whose sequences the earlier tests advance, so a
    fixed seed served the four trap questions first in one run of ``make test`` in 500:
    trust was then established before any ordinary answer was pending."""
    ids = list(campaign.examples.values_list("pk", "trap"))
    for seed in range(1000):
        _, (offset, multiplier) = _order_key(seed)
        first = min(ids, key=lambda row: ((row[0] + offset) * multiplier) % _PRIME)
        if first[1] is None:
            return seed
    raise AssertionError("no seed serves an ordinary example first")


def test_answers_given_before_trust_is_established_are_accepted_once_it_is(crowd_collection):
    campaign = make_campaign(
        crowd_collection, traps=4, trap_rate=0.3, min_trap_answers=4, trust_threshold=0.5
    )
    worker = arrive(campaign, seed=seed_serving_an_ordinary_example_first(campaign))
    pending_seen = False
    for _ in range(20):
        task = task_serve(worker=worker)
        if task is None:
            break
        answer_submit(worker=worker, key=task.key, choice=right_choice(task))
        worker.refresh_from_db()
        if not worker.trusted:
            assert not Answer.objects.filter(worker=worker, accepted_at__isnull=False).exists()
            pending_seen = (
                pending_seen or Answer.objects.filter(example__trap__isnull=True).exists()
            )
    assert worker.trusted and pending_seen
    assert not Answer.objects.filter(
        worker=worker, example__trap__isnull=True, accepted_at__isnull=True
    ).exists()


def test_a_stopped_worker_frees_the_redundancy_slots_for_other_workers(crowd_collection):
    campaign = make_campaign(
        crowd_collection, traps=4, trap_rate=0.4, min_trap_answers=3, trust_threshold=0.9
    )
    careless = arrive(campaign, "careless")
    work(careless, miss_traps=True)
    careless.refresh_from_db()
    assert careless.status == Worker.STOPPED
    examples_they_answered = set(
        Answer.objects.filter(worker=careless, example__trap__isnull=True).values_list(
            "example_id", flat=True
        )
    )
    assert examples_they_answered
    careful = arrive(campaign, "careful")
    work(careful, miss_traps=False)
    got = set(Answer.objects.filter(worker=careful).values_list("example_id", flat=True))
    assert examples_they_answered <= got


def test_accepting_and_excluding_answers_hands_the_campaign_over_on_commit(
    crowd_collection, handed_over, django_capture_on_commit_callbacks
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, trust_threshold=0.5)
    worker = arrive(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        work(worker, miss_traps=False, tasks=3)
    assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk})]


@pytest.mark.django_db(transaction=True)
def test_updating_trust_locks_the_worker_but_not_the_campaign(crowd_collection):
    """Every answer updates trust; had it locked the campaign's row too, as a plain
    ``select_for_update()`` over the worker-campaign join does on PostgreSQL, a
    campaign's answers would each wait for the one before to commit (issue 14). Checked
    from a second connection with ``NOWAIT``, which fails at once on a locked row."""
    from django.db import connection, transaction

    from crowd.services.trust import worker_trust_update

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite locks the whole database")
    import psycopg

    campaign = make_campaign(crowd_collection, traps=4)
    worker = arrive(campaign)
    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], password=settings["PASSWORD"] or None,
        host=settings["HOST"], port=settings["PORT"] or None, autocommit=True,
    )  # fmt: skip

    def lockable(table: str, pk: int) -> bool:
        try:
            other.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE NOWAIT", [pk])
        except psycopg.errors.LockNotAvailable:
            return False
        return True

    try:
        with transaction.atomic():
            worker_trust_update(worker=worker)
            assert not lockable("judging_worker", worker.pk)  # the check sees a lock
            assert lockable("judging_preferencecampaign", campaign.pk)
    finally:
        other.close()
