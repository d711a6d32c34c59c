"""Trap questions' explanations, side-neutral and shown as each worker saw the lists (issue 31
item 2): the quiz feedback's given answer, expected answer and explanation all speak of the
worker's own List A and List B, whichever way round the stored lists were shown."""

import html as entities
import json
import re

import pytest
from django.core.exceptions import ValidationError

from crowd.models import A_BETTER, B_BETTER, PreferenceTask, TrapQuestion
from crowd.services.examples import examples_import_csv
from crowd.services.traps import trap_question_mark
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser

pytestmark = pytest.mark.django_db

OWN_FAMILY = "{a} holds clips of the query's own family; {b} does not."


def quiz_campaign(collection, *, explanation=OWN_FAMILY):
    """A campaign whose first 6 examples (of 12) are quiz questions, each expecting the
    stored list a to be better, with ``explanation``: each of the first 6 workers' one quiz
    question is one of them (the other 6 are the work)."""
    campaign = make_campaign(collection, traps=0, quiz_length=1)
    for example in campaign.examples.order_by("pk")[:6]:
        trap_question_mark(
            example=example, accepted_answers=[A_BETTER], explanation=explanation,
            pool=TrapQuestion.QUIZ,
        )  # fmt: skip
    return campaign


def quiz_tasks_both_ways(campaign):
    """``{swapped: (browser, task)}``: two workers with one of the organiser's quiz questions
    open, the first shown its lists the other way round, the second as stored.

    Each worker's order is drawn when the task is served; here it is set before the worker
    has fetched anything of the task (the page names no clip, and its audio slots are
    read through the task's order when fetched), as if the draw had come out so.
    """
    seen = {}
    for n, swapped in enumerate((True, False)):
        browser = Browser(campaign)
        browser.start(f"worker=w{n}")
        task = PreferenceTask.objects.get(key=browser.key)
        assert task.is_quiz and task.example.source != "quiz"  # one of the organiser's
        PreferenceTask.objects.filter(pk=task.pk).update(swapped=swapped)
        task.refresh_from_db()
        seen[swapped] = (browser, task)
    return seen


def feedback_text(browser, choice):
    response = browser.answer(choice)
    assert response.status_code == 302 and "/feedback/" in response.url
    html = browser.get(response.url).content.decode()
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_a_worker_who_saw_the_lists_swapped_reads_sides_that_agree_with_each_other(
    crowd_collection,
):
    campaign = quiz_campaign(crowd_collection)
    browser, _ = quiz_tasks_both_ways(campaign)[True]
    # Stored list a is the better one; this worker saw it as List B. "A is better" is
    # their wrong answer; the expected one, in their orientation, is "B is better", and
    # the explanation must name their List B as the list of the query's own family.
    text = feedback_text(browser, "a_better")
    assert "You answered “A is better”. The expected answer is “B is better”." in text
    assert "List B holds clips of the query's own family; List A does not." in text
    assert "{a}" not in text and "{b}" not in text


def test_a_worker_who_saw_the_lists_as_stored_reads_them_as_stored(crowd_collection):
    campaign = quiz_campaign(crowd_collection)
    browser, _ = quiz_tasks_both_ways(campaign)[False]
    text = feedback_text(browser, "b_better")
    assert "You answered “B is better”. The expected answer is “A is better”." in text
    assert "List A holds clips of the query's own family; List B does not." in text


def test_nothing_of_the_explanation_reaches_the_worker_before_they_answer(crowd_collection):
    campaign = quiz_campaign(crowd_collection, explanation="{a} has the ukulele; {b} has none.")
    for swapped, (browser, task) in quiz_tasks_both_ways(campaign).items():
        before = browser.everything_seen()
        assert "ukulele" not in before, swapped
        # Nor a feedback page for the open task before its answer.
        assert browser.get(f"{browser.base}/feedback/{task.key}/").status_code in (302, 404)
        assert "ukulele" not in browser.everything_seen()


def test_a_work_trap_question_answered_wrong_shows_no_feedback_and_no_explanation(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=0, trap_rate=0.5)
    for example in campaign.examples.order_by("pk")[:6]:
        trap_question_mark(
            example=example, accepted_answers=[A_BETTER], explanation="{a} has the ukulele.",
            pool=TrapQuestion.WORK,
        )  # fmt: skip
    browser = Browser(campaign)
    browser.start("worker=w1")
    key = browser.key
    task = PreferenceTask.objects.get(key=key)
    response = browser.answer("b_better" if not task.swapped else "a_better")  # a miss
    assert "/feedback/" not in response.url
    assert browser.get(f"{browser.base}/feedback/{key}/").status_code in (302, 404)
    assert "ukulele" not in browser.everything_seen()


def test_an_explanation_stored_naming_a_side_is_shown_to_no_worker_and_flagged_to_the_organiser(
    crowd_collection, organiser
):
    campaign = quiz_campaign(crowd_collection)
    # As stored before issue 31 (the migration leaves "B does not" as it was).
    old = "List A holds clips of the query's own family; B does not."
    TrapQuestion.objects.filter(example__campaign=campaign).update(explanation=old)
    for swapped, (browser, _) in quiz_tasks_both_ways(campaign).items():
        text = feedback_text(browser, "both_bad")
        assert "The expected answer is" in text, swapped
        assert "own family" not in text, swapped  # shown to nobody: its presence says nothing
    page = organiser.get(f"/campaigns/{campaign.pk}/")
    html = page.content.decode()
    assert "Not shown to workers: it names a side (“List A”)" in html


def test_the_campaign_page_lists_an_explanation_with_the_lists_as_it_shows_them(
    crowd_collection, organiser
):
    campaign = quiz_campaign(crowd_collection)
    html = organiser.get(f"/campaigns/{campaign.pk}/")
    assert "List A holds clips of the query's own family; List B does not." in (
        entities.unescape(html.content.decode())
    )


@pytest.mark.parametrize(
    "typed, named",
    [
        ("List A is better: it holds the query's own family.", "List A"),
        ("The first list is the query's own family; B does not.", "B"),
        ("list_b is unrelated", "list_b"),
    ],
)
def test_an_organiser_who_names_a_side_on_the_trap_page_gets_a_clear_error_and_keeps_the_text(
    crowd_collection, organiser, typed, named
):
    campaign = make_campaign(crowd_collection, traps=0)
    example = campaign.examples.first()
    url = f"/campaigns/{campaign.pk}/examples/{example.pk}/trap/"
    response = organiser.post(
        url, {"accepted_answers": [A_BETTER], "explanation": typed, "pool": "quiz"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f"The explanation names a side (“{named}”)" in html
    assert "Write {a} for the list shown here as List A" in html
    assert typed in entities.unescape(html)  # nothing typed is lost
    assert not TrapQuestion.objects.filter(example=example).exists()


def test_the_trap_page_says_who_reads_the_explanation_and_saves_placeholders(
    crowd_collection, organiser
):
    campaign = make_campaign(crowd_collection, traps=0)
    example = campaign.examples.first()
    url = f"/campaigns/{campaign.pk}/examples/{example.pk}/trap/"
    client = organiser
    html = client.get(url).content.decode()
    assert "The worker may see the lists the other way round" in html
    assert "(list a = A)" not in html
    response = client.post(
        url, {"accepted_answers": [B_BETTER], "explanation": "{b} is livelier.", "pool": "quiz"}
    )
    assert response.status_code == 302
    assert TrapQuestion.objects.get(example=example).explanation == "{b} is livelier."


def test_the_api_refuses_an_explanation_that_names_a_side(crowd_collection, personas):
    campaign = make_campaign(crowd_collection, traps=0)
    example = campaign.examples.first()
    response = client_for(personas.organiser).post(
        f"/api/campaigns/{campaign.pk}/examples/{example.pk}/trap/",
        data=json.dumps({"accepted_answers": ["a_better"], "explanation": "A is better."}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "names a side" in json.dumps(response.json())
    assert not TrapQuestion.objects.filter(example=example).exists()


def csv_of(campaign, *rows):
    ids = {
        side: " ".join(
            i.clip.external_id for i in campaign.examples.first().items.filter(side=side)
        )
        for side in "ab"
    }
    query = campaign.examples.first().query.clip.external_id
    return "query,list_a,list_b,accepted_answers,explanation,pool\n" + "\n".join(
        row.format(q=query, a=ids["a"], b=ids["b"]) for row in rows
    )


def test_a_trap_question_imported_from_csv_keeps_its_placeholders_and_reads_right_when_swapped(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=1)
    text = csv_of(campaign, '{q},{a},{b},a_better,"{{a}} holds the query\'s own family.",quiz')
    examples_import_csv(campaign=campaign, text=text)
    trap = TrapQuestion.objects.get()
    assert (trap.accepted_answers, trap.explanation) == (
        [A_BETTER], "{a} holds the query's own family.",
    )  # fmt: skip
    browser, _ = quiz_task_swapped(campaign, trap.example_id)
    text = feedback_text(browser, "a_better")
    assert "The expected answer is “B is better”." in text
    assert "List B holds the query's own family." in text


def quiz_task_swapped(campaign, example_id):
    """A worker with the quiz question ``example_id`` open, shown the other way round (set
    as :func:`quiz_tasks_both_ways` does)."""
    browser = Browser(campaign)
    browser.start("worker=v1")
    task = PreferenceTask.objects.get(key=browser.key)
    assert task.example_id == example_id  # the organiser's quiz question comes first
    PreferenceTask.objects.filter(pk=task.pk).update(swapped=True)
    return browser, task


def test_a_csv_row_that_matches_an_example_stored_the_other_way_round_is_turned_round(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0)
    # The row writes the example's stored list b first: its "a_better" and its {a} are
    # about the stored list b.
    text = csv_of(campaign, '{q},{b},{a},a_better,"{{a}} is livelier than {{b}}.",work')
    assert examples_import_csv(campaign=campaign, text=text) == []  # nothing new
    trap = TrapQuestion.objects.get()
    assert (trap.accepted_answers, trap.explanation) == (
        [B_BETTER], "{b} is livelier than {a}.",
    )  # fmt: skip


def test_a_csv_explanation_that_names_a_side_stops_the_import_at_its_line(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    text = csv_of(
        campaign, "{q},{a},{b},,,", '{q},{a},{b},a_better,"List A holds the family.",quiz'
    )
    with pytest.raises(ValidationError) as error:
        examples_import_csv(campaign=campaign, text=text)
    assert "line 3: The explanation names a side (“List A”)" in str(error.value)
    assert not TrapQuestion.objects.exists()


def test_the_model_refuses_a_side_named_in_letters_wherever_it_is_edited(crowd_collection):
    # The admin and any form built on the model validate through the field.
    campaign = make_campaign(crowd_collection, traps=0)
    trap = TrapQuestion(
        example=campaign.examples.first(), accepted_answers=[A_BETTER], explanation="A wins."
    )
    with pytest.raises(ValidationError) as error:
        trap.full_clean()
    assert "names a side (“A”)" in " ".join(error.value.message_dict["explanation"])
    trap.explanation = "{c} wins."  # a typing slip would reach workers as it is
    with pytest.raises(ValidationError) as error:
        trap.full_clean()
    assert "only {a} and {b}" in " ".join(error.value.message_dict["explanation"])
    trap.explanation = "{a} wins."
    trap.full_clean()
