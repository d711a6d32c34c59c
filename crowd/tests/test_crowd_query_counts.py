"""How many SQL statements each crowd request makes (issue 14: crowd capacity).

Pinned so that a regression shows up in ``make test``; the figures behind them are in
``docs/benchmarks.md`` ("Crowd capacity"). Savepoints count: the test runs inside a
transaction, where each ``atomic()`` block is a SAVEPOINT/RELEASE pair (on a live server
a BEGIN/COMMIT pair instead). The same counts hold on SQLite and PostgreSQL, for a
trap question and any other task alike (one more thing a worker cannot tell them
apart by), and whatever the number of examples in the campaign: the database picks the
next example, it does not send them all.

Where the statements of an answer go (11; 21 before issue 14, 17 after its first round,
then 14, 13, 12): the worker by the cookie, with the campaign (1); the task by its key
with the worker's status, the campaign's state, the trap question if any, its answer if
it was answered and how many clips were heard (1); the listening evidence (1: the
query's and the lists' clips, and which of them the server sent for the task); the
answer's transaction (2 savepoint statements), claiming the task (1), counting the
answer while locking the worker and reading it back (1), the answer (1); the trust
update in the same transaction (3: the trap counts, the worker's new trust, the
acceptance of the worker's answers — one statement whether the worker is trusted or
not; none of their answers is excluded, since they could answer). No statement sorts
by a model's default order, which for workers, tasks and answers joins the campaign to
sort by its date. The crowd's statements are written in plain SQL (:mod:`common.sql`).
"""

import pytest

from crowd.models import Example, PreferenceTask
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser

pytestmark = pytest.mark.django_db

TASK_GET_NEW = 9  # serves a new task (16, 14, 11, then 10 before): candidates, claim, lists
TASK_GET_AGAIN = 3  # a reload of the open task (7, then 4 before): worker, task, lists
ANSWER_POST = 11  # 14, then 13 before
DOUBLE_POST = 2  # the same answer again, a double click (5, 4, then 3 before): nothing written
AUDIO_GET = 7  # 12, 11, then 10 before: the worker, the task, the clip, then 4 to record it
ALIVE_POST = 2  # issue 22's heartbeat of an open task page: the worker, then its lease renewed
ROOM = 1  # issue 29: a worker's first task (practice aside) is served only if there is room
# Practice (issue 23), in a campaign without a quiz: serving one is the worker, whether
# there is room (before the first task), the open task, 2 savepoint statements, the next
# practice question, the worker's practice count, the example's slot count, the task, the
# lists, and the practice's length for the page.
PRACTICE_GET_NEW = 10 + ROOM
# Its answer counts nothing: the worker, the task, the listening evidence, 2 savepoint
# statements, claiming the task, the practice answer (no count, trust or acceptance).
PRACTICE_ANSWER_POST = 7
PRACTICE_DOUBLE_POST = 3  # the worker, the task, then its practice answer (not an Answer)


def started(collection, traps=4, **options) -> Browser:
    campaign = make_campaign(
        collection, traps=traps, listening_check=True, min_seconds_on_task=5, **options
    )
    browser = Browser(campaign)
    browser.start("worker=w1")
    return browser


def answer_after_listening(browser, django_assert_num_queries, choice="a_better"):
    browser.listen()
    browser.wait(20)
    with django_assert_num_queries(ANSWER_POST):
        response = browser.answer(choice)
    assert response.status_code == 302
    return response


# Every example a work-pool trap question, or none: the worker's first task is one or not.
TRAPS = pytest.mark.parametrize("traps", [0, 12], ids=["work task", "trap question"])


@TRAPS
def test_an_answer_and_its_double_post_make_the_same_statements_for_any_task(
    audible_collection, django_assert_num_queries, traps
):
    browser = started(audible_collection, traps=traps)
    task = PreferenceTask.objects.get(key=browser.key)
    assert hasattr(task.example, "trap") == bool(traps)
    answer_after_listening(browser, django_assert_num_queries)
    with django_assert_num_queries(DOUBLE_POST):
        assert browser.answer("a_better").status_code == 302


@TRAPS
def test_the_task_page_makes_the_same_statements_for_any_task(
    audible_collection, django_assert_num_queries, traps
):
    browser = started(audible_collection, traps=traps)
    answer_after_listening(browser, django_assert_num_queries)
    with django_assert_num_queries(TASK_GET_NEW):
        assert browser.task().status_code == 200
    with django_assert_num_queries(TASK_GET_AGAIN):
        assert browser.task().status_code == 200


def test_serving_a_task_costs_the_same_in_a_campaign_four_times_larger(
    audible_collection, django_assert_num_queries
):
    browser = started(audible_collection, answers_per_example=3)
    examples = list(Example.objects.filter(campaign=browser.campaign))
    for copy in range(3):  # three more examples per example: other signatures, same lists
        for example in examples:
            items = list(example.items.all())
            example.pk, example.signature = None, f"{example.signature}#{copy}"
            example.save()
            for item in items:
                item.pk, item.example = None, example
                item.save()
    assert Example.objects.filter(campaign=browser.campaign).count() == 4 * len(examples)
    answer_after_listening(browser, django_assert_num_queries)
    with django_assert_num_queries(TASK_GET_NEW):
        assert browser.task().status_code == 200


def test_an_audio_range_of_the_task_makes_a_fixed_number_of_statements(
    audible_collection, django_assert_num_queries
):
    browser = started(audible_collection)
    query_url = next(u for u in browser.audio_urls() if u.endswith("/query"))
    with django_assert_num_queries(AUDIO_GET):
        assert browser.get(query_url, HTTP_RANGE="bytes=0-99").status_code == 206


def test_the_task_pages_heartbeat_makes_two_statements(
    audible_collection, django_assert_num_queries
):
    browser = started(audible_collection)
    with django_assert_num_queries(ALIVE_POST):
        assert browser.alive().status_code == 204


def test_practice_tasks_make_a_fixed_number_of_statements_and_none_once_they_are_over(
    audible_collection, django_assert_num_queries
):
    campaign = make_campaign(
        audible_collection, traps=4, listening_check=True, min_seconds_on_task=5, practice=2,
        practice_length=2,
    )  # fmt: skip
    browser = Browser(campaign)
    browser.arrive("worker=w1")
    browser.consent()
    for _ in range(2):
        with django_assert_num_queries(PRACTICE_GET_NEW):
            assert browser.task().status_code == 200
        assert PreferenceTask.objects.get(key=browser.key).is_practice
        browser.listen()
        browser.wait(20)
        with django_assert_num_queries(PRACTICE_ANSWER_POST):
            assert browser.answer("a_better").status_code == 302
        with django_assert_num_queries(PRACTICE_DOUBLE_POST):
            assert browser.answer("a_better").status_code == 302
    with django_assert_num_queries(TASK_GET_NEW + ROOM):  # the first work task, after practice
        assert browser.task().status_code == 200
    assert not PreferenceTask.objects.get(key=browser.key).is_practice
