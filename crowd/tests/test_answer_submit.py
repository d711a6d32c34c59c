"""answer_submit: idempotent by the task's key, correct side mapping, safe under concurrency.

The concurrency tests use real threads, each with its own database connection, and a
barrier so that their requests arrive together (run on SQLite and on PostgreSQL).
"""

import pytest
from django.core.exceptions import ValidationError

from crowd.models import Answer, Worker
from crowd.services.answers import answer_submit
from crowd.services.tasks import TaskError, task_serve
from tests.helpers.crowd_fixtures import arrive, make_campaign
from tests.helpers.threads import run_together


@pytest.mark.django_db
def test_the_answer_is_stored_about_the_lists_as_shown_and_as_stored(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    answer = answer_submit(worker=worker, key=task.key, choice="a_better", comment=" nice ")
    expected = "b_better" if task.swapped else "a_better"
    assert (answer.choice, answer.outcome, answer.swapped) == ("a_better", expected, task.swapped)
    assert answer.comment == "nice" and answer.seconds >= 0 and answer.correct is None


@pytest.mark.django_db
def test_a_resubmitted_form_returns_the_first_answer_and_creates_nothing(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    first = answer_submit(worker=worker, key=task.key, choice="both_bad")
    again = answer_submit(worker=worker, key=task.key, choice="a_better")
    assert again.pk == first.pk and again.choice == "both_bad"
    worker.refresh_from_db()
    assert (worker.answer_count, Answer.objects.count()) == (1, 1)


@pytest.mark.django_db
def test_another_workers_task_key_or_an_unknown_choice_is_refused(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker, other = arrive(campaign), arrive(campaign, "w2")
    task = task_serve(worker=worker)
    with pytest.raises(TaskError):
        answer_submit(worker=other, key=task.key, choice="a_better")
    with pytest.raises(ValidationError):
        answer_submit(worker=worker, key=task.key, choice="c_better")
    assert not Answer.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_double_click_arriving_at_once_creates_one_answer(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    results = run_together(
        [lambda: answer_submit(worker=worker, key=task.key, choice="a_better")] * 6
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert {r.pk for r in results} == {Answer.objects.get().pk}
    worker.refresh_from_db()
    assert (worker.answer_count, worker.served_count) == (1, 1)


@pytest.mark.django_db(transaction=True)
def test_two_tabs_of_one_worker_asking_at_once_get_the_same_task(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign)
    results = run_together([lambda: task_serve(worker=Worker.objects.get(pk=worker.pk))] * 4)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({r.pk for r in results}) == 1
    worker.refresh_from_db()
    assert worker.served_count == 1


@pytest.mark.django_db(transaction=True)
def test_workers_racing_for_the_last_slots_never_exceed_redundancy_or_caps(crowd_collection):
    campaign = make_campaign(
        crowd_collection, traps=0, answers_per_example=2, max_answers_per_worker=5
    )
    workers = [arrive(campaign, f"w{i}") for i in range(6)]

    def work(worker):
        def go():
            count = 0
            while (task := task_serve(worker=worker)) is not None:
                answer_submit(worker=worker, key=task.key, choice="both_good")
                count += 1
            return count

        return go

    results = run_together([work(w) for w in workers])
    assert not [r for r in results if isinstance(r, Exception)], results
    n_examples = campaign.examples.count()
    assert sum(results) == Answer.objects.count() == min(2 * n_examples, 6 * 5)
    assert max(results) <= 5
    per_example = campaign.examples.values_list("slots_taken", flat=True)
    assert all(n <= 2 for n in per_example)
    for example in campaign.examples.all():
        assert example.answers.count() == example.slots_taken
    for worker in Worker.objects.all():
        assert worker.answer_count == worker.served_count == worker.answers.count() <= 5
