"""The optional practice step before the quiz (issue 23, item 4): served first, from the
practice pool only, answered like any task (idempotent, listening rule), followed by the
expected answer; the pool stays apart from the trap pools; a campaign is not opened with
a practice longer than its pool. What practice answers do *not* count for is in
``crowd/tests/test_practice_exclusion.py``."""

import html

import pytest
from django.core.exceptions import ValidationError

from catalog.models import RelevanceJudgment
from crowd.models import CHOICE_LABELS, Answer, PracticeAnswer, PreferenceTask, TrapQuestion
from crowd.services.answers import answer_submit
from crowd.services.settings import (
    PREFERENCE_SETTINGS,
    preference_campaign_open_set,
    preference_campaign_update,
)
from crowd.services.tasks import task_serve
from crowd.services.traps import trap_question_mark, trap_questions_from_judgments
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import (
    answer_all,
    arrive,
    make_campaign,
    right_choice,
    wrong_choice,
)
from tests.helpers.crowd_http import Browser

pytestmark = pytest.mark.django_db

PRACTICE = TrapQuestion.PRACTICE


def practice_ids(campaign) -> set[int]:
    return set(campaign.examples.filter(trap__pool=PRACTICE).values_list("pk", flat=True))


def test_practice_comes_first_counts_in_no_cap_then_the_quiz_and_the_work_follow(
    crowd_collection,
):
    # 12 examples: 1 quiz question, 2 practice questions, 9 ordinary ones. The cap of 3
    # counts the quiz and work tasks only: 2 practice + 1 quiz + 2 work = 5 tasks.
    campaign = make_campaign(
        crowd_collection, traps=1, quiz_length=1, practice=2, practice_length=2,
        max_answers_per_worker=3,
    )  # fmt: skip
    worker = arrive(campaign)
    served = answer_all(worker)
    assert [(t.position, t.is_practice, t.is_quiz) for t in served] == [
        (1, True, False), (2, True, False), (3, False, True), (4, False, False),
        (5, False, False),
    ]  # fmt: skip
    assert {t.example_id for t in served[:2]} == practice_ids(campaign)
    worker.refresh_from_db()
    assert (worker.practice_count, worker.served_count, worker.answer_count) == (2, 3, 3)
    assert PracticeAnswer.objects.filter(task__worker=worker).count() == 2
    assert Answer.objects.filter(worker=worker).count() == 3


def test_practice_questions_are_never_served_as_quiz_or_work_nor_after_other_tasks(
    crowd_collection,
):
    # Every example is served to the early worker (5 answers each, work traps filling in),
    # but never a practice question: not in work mode, and not as practice either, since
    # practice was switched on after their first task.
    campaign = make_campaign(
        crowd_collection, traps=4, quiz_length=0, trap_rate=0.5, practice=2,
        answers_per_example=5,
    )  # fmt: skip
    early = arrive(campaign, "early")
    first = task_serve(worker=early)
    answer_submit(worker=early, key=first.key, choice=right_choice(first))
    campaign.practice_length = 2
    campaign.save(update_fields=["practice_length"])
    early.campaign.practice_length = 2
    served = [first, *answer_all(early)]
    assert len(served) == 12 - 2  # every example but the 2 practice questions
    assert not any(t.is_practice for t in served)
    assert practice_ids(campaign).isdisjoint(t.example_id for t in served)
    late = arrive(campaign, "late")
    assert task_serve(worker=late).is_practice  # a newcomer starts with practice


def test_a_practice_answer_is_stored_once_and_counts_nothing_on_the_worker(
    crowd_collection, handed_over
):
    campaign = make_campaign(crowd_collection, traps=0, practice=1, practice_length=1)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    assert task.is_practice and task_serve(worker=worker).pk == task.pk  # a reload
    handed_over.clear()
    first = answer_submit(worker=worker, key=task.key, choice="a_better")
    again = answer_submit(worker=worker, key=task.key, choice="b_better")  # a double submit
    assert isinstance(first, PracticeAnswer)
    assert (again.pk, again.choice, again.task.key) == (first.pk, "a_better", task.key)
    assert PracticeAnswer.objects.count() == 1 and not Answer.objects.exists()
    worker.refresh_from_db()
    assert (worker.answer_count, worker.served_count, worker.practice_count) == (0, 0, 1)
    assert (worker.trap_answered, worker.trust, worker.trusted) == (0, None, False)
    assert handed_over == []  # nothing changed for evaluation
    assert not task_serve(worker=worker).is_practice  # practice over: work


def test_practice_has_the_listening_rule_of_work_and_its_refusals_are_held_against_no_one(
    audible_collection,
):
    campaign = make_campaign(
        audible_collection, traps=0, practice=1, practice_length=1, listening_check=True,
        min_seconds_on_task=5,
    )  # fmt: skip
    browser = Browser(campaign)
    page = browser.start("worker=w1").content.decode()
    assert "Practice 1 of 1 — this answer does not count" in page
    assert len(browser.audio_urls()) == 1 + 2 * campaign.list_length  # same page as work
    refused = browser.answer("a_better")
    assert refused.status_code == 400 and "Please listen before answering" in html.unescape(
        refused.content.decode()
    )
    browser.listen(then_wait=20)
    answered = browser.answer("a_better")
    assert answered.status_code == 302 and "/feedback/" in answered["Location"]
    answer = PracticeAnswer.objects.get()
    assert answer.clips_heard == 3  # the query and the first clip of each list
    assert answer.task.worker.listening_refusals == 0  # practice is where the rule is learnt


def lists_of(example) -> tuple[set[int], set[int]]:
    """The clips of the example's stored lists a and b."""
    items = list(example.items.all())
    return tuple({i.clip_id for i in items if i.side == side} for side in "ab")


def test_the_feedback_says_the_expected_answer_and_why_then_the_quiz_begins(crowd_collection):
    campaign = make_campaign(
        crowd_collection, traps=4, quiz_length=1, quiz_traps=4, practice=0, practice_length=2
    )
    # Two practice questions on examples whose lists share no clip: the first with the
    # organiser's note, the second with none, so the feedback reads the judgments.
    plain = campaign.examples.filter(trap__isnull=True)
    examples = [e for e in plain if not set.intersection(*lists_of(e))]
    noted, judged = examples[:2]
    trap_question_mark(example=noted, accepted_answers=["a_better"], pool=PRACTICE,
                       explanation="{a} keeps the query's tempo.")  # fmt: skip
    trap_question_mark(example=judged, accepted_answers=["b_better"], pool=PRACTICE)
    a_clips, b_clips = lists_of(judged)
    RelevanceJudgment.objects.filter(query=judged.query, clip_id__in=a_clips).update(fine=20)
    RelevanceJudgment.objects.filter(query=judged.query, clip_id__in=b_clips).update(fine=90)

    browser = Browser(campaign)
    browser.start("worker=w1")
    pages = []
    for _ in range(2):
        task = PreferenceTask.objects.get(key=browser.key)
        wrong = wrong_choice(task)
        pages.append((task, wrong, browser.get(browser.answer(wrong)["Location"])))
        browser.task()
    by_example = {t.example_id: (t, wrong, page.content.decode()) for t, wrong, page in pages}
    task, wrong, page = by_example[noted.pk]
    expected = CHOICE_LABELS[right_choice(task)]  # "A is better" unless the sides were swapped
    assert f"You answered “{CHOICE_LABELS[wrong]}”. The expected answer is “{expected}”." in page
    # Stored list a, shown as List B to a worker who saw the sides swapped (issue 31).
    assert f"List {'B' if task.swapped else 'A'} keeps the query&#x27;s tempo." in page
    task, wrong, page = by_example[judged.pk]
    # Stored list a: every clip judged 20, mean 20; list b: 90. Shown sides swap them.
    shown_a, shown_b = (90, 20) if task.swapped else (20, 90)
    assert (
        f"rated how similar they sound to the query at {shown_a} out of 100 on average for "
        f"list A and {shown_b} for list B." in page
    )
    first, last = (page.content.decode() for _, _, page in pages)
    assert "Practice 1 of 2 — this answer does not count" in first
    assert "Practice 2 of 2 — this answer does not count" in last
    assert "That was the last practice task" in last and "last practice" not in first
    assert "Qualification question 1 of 1" in browser.page.content.decode()


def test_a_shown_practice_question_never_becomes_a_trap_nor_a_shown_example_a_practice_one(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0, practice=1, practice_length=1)
    worker = arrive(campaign)
    practice, work = answer_all(worker, limit=2)
    with pytest.raises(ValidationError, match="shown to workers as practice"):
        trap_question_mark(example=practice.example, accepted_answers=["a_better"],
                           pool=TrapQuestion.WORK)  # fmt: skip
    with pytest.raises(ValidationError, match="cannot become a practice question"):
        trap_question_mark(example=work.example, accepted_answers=["a_better"], pool=PRACTICE)
    # Within the practice pool its answer may change; an unseen example may join it.
    trap_question_mark(example=practice.example, accepted_answers=["b_better"], pool=PRACTICE)
    unseen = campaign.examples.filter(tasks__isnull=True).first()
    trap_question_mark(example=unseen, accepted_answers=["both_bad"], pool=PRACTICE)
    # Marked from judgments: only examples nobody has been shown join the practice pool.
    answer_all(worker)  # every other example is shown to the worker
    assert campaign.examples.filter(tasks__isnull=True).count() == 1  # the one just marked
    assert trap_questions_from_judgments(campaign=campaign, count=20, pool=PRACTICE) == []
    assert len(trap_questions_from_judgments(campaign=campaign, count=1)) == 1  # clear-cut ones


def test_a_practice_longer_than_its_pool_is_refused_open_and_when_opening(
    client, personas, crowd_collection
):
    # 12 examples: 1 quiz and 2 work traps, 2 practice questions, 7 ordinary ones; trap
    # rate 0.1 needs ceil(7 × 0.1 / 0.9) = 1 work trap, so only the practice can be short.
    campaign = make_campaign(
        crowd_collection, traps=3, quiz_traps=1, quiz_length=0, trap_rate=0.1, practice=2,
        practice_length=2,
    )  # fmt: skip
    short = (
        "The practice pool has 2 questions and the practice step needs 3: mark more "
        "questions for practice, or shorten the practice."
    )
    with pytest.raises(ValidationError) as refused:
        preference_campaign_update(campaign=campaign, changes={"practice_length": 3})
    assert refused.value.message_dict == {"practice_length": [short]}
    client.force_login(personas.organiser)  # the settings page says the same beside the field
    url = f"/campaigns/{campaign.pk}/settings/"
    data = {f: getattr(campaign, f) for f in PREFERENCE_SETTINGS}
    data = {f: "" if value is None else value for f, value in data.items()}
    page = html.unescape(client.post(url, {**data, "practice_length": 3}).content.decode())
    assert "Practice tasks before the quiz (0: none)" in page and short in page
    campaign.refresh_from_db()
    assert campaign.practice_length == 2
    preference_campaign_open_set(campaign=campaign, is_open=False)
    assert preference_campaign_update(campaign=campaign, changes={"practice_length": 3}) == [
        "practice_length"
    ]
    with pytest.raises(ValidationError) as refused:
        preference_campaign_open_set(campaign=campaign, is_open=True)
    assert refused.value.messages == [short]
    preference_campaign_update(campaign=campaign, changes={"practice_length": 0})
    assert preference_campaign_open_set(campaign=campaign, is_open=True)


def test_the_organiser_chooses_the_practice_pool_on_the_trap_page_and_through_the_api(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    first, second = campaign.examples.order_by("pk")[:2]
    client.force_login(personas.organiser)
    url = f"/campaigns/{campaign.pk}/examples/{first.pk}/trap/"
    page = client.get(url).content.decode()
    assert "practice (before the quiz, with the answer; never counts)" in page
    client.post(url, {"accepted_answers": ["both_bad"], "pool": PRACTICE})
    assert TrapQuestion.objects.get(example=first).pool == PRACTICE
    marked = client_for(personas.organiser).post(
        f"/api/campaigns/{campaign.pk}/examples/{second.pk}/trap/",
        {"accepted_answers": ["a_better"], "pool": PRACTICE},
        format="json",
    )
    assert marked.status_code == 201 and marked.json()["pool"] == PRACTICE
