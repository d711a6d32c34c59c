"""In Chromium: crowd workers arriving through task links (Prolific, Mechanical Turk, generic).

No outside network: Prolific's completion page and Mechanical Turk's submit endpoint
are intercepted with Playwright routing. The honest flows run with the listening check
on: the worker plays the query and a clip of each list, as the campaign asks.
"""

import re
from datetime import timedelta
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from crowd.explanations import explanation_shown
from crowd.models import CHOICE_LABELS, Answer, PreferenceTask, Worker
from crowd.views import tasks as crowd_tasks
from tests.helpers.browser import current_task, listen, start, wait_for_next_page
from tests.helpers.crowd_fixtures import make_campaign, right_choice, trap_of, wrong_choice
from tests.helpers.platform_links import prolific_id

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def choose_with_mouse(page, choice: str) -> None:
    key = page.locator('input[name="key"]').get_attribute("value")
    page.get_by_role("radio", name=CHOICE_LABELS[choice], exact=True).check()
    page.get_by_role("button", name="Submit answer").click()
    wait_for_next_page(page, key)


def choose_with_keyboard(page, choice: str) -> None:
    key = page.locator('input[name="key"]').get_attribute("value")
    number = list(CHOICE_LABELS).index(choice) + 1
    page.locator("body").press(str(number))
    expect(page.get_by_role("radio", name=CHOICE_LABELS[choice], exact=True)).to_be_checked()
    page.keyboard.press("Enter")
    wait_for_next_page(page, key)


def finish(page) -> None:
    """The end page, the same for everyone with nothing more to do (issue 22), then Finish."""
    expect(page.get_by_role("heading", name="No more tasks for you")).to_be_visible()
    page.get_by_role("link", name="Finish the study").click()


def test_a_prolific_worker_passes_the_quiz_works_then_misses_traps_and_is_screened_out(
    page, audible_collection
):
    campaign = make_campaign(
        audible_collection, traps=6, quiz_length=2, trap_rate=0.5, trust_threshold=0.7,
        completion_code="DONE-777", screen_out_code="OUT-999",
    )  # fmt: skip
    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('pp1')}&STUDY_ID=st1&SESSION_ID=se1")
    expect(page.get_by_role("heading", name="Before you start")).to_be_visible()
    expect(page.get_by_text("This study collects your opinion")).to_be_visible()
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()

    # The quiz: two trap questions, answered right (mouse, then keyboard).
    for answer_with in (choose_with_mouse, choose_with_keyboard):
        expect(page.get_by_text(re.compile(r"Qualification question \d of 2"))).to_be_visible()
        task = current_task(page)
        assert task.is_quiz and trap_of(task) is not None
        answer_with(page, right_choice(task))
        expect(page.get_by_role("status").get_by_text("Right")).to_be_visible()
        page.get_by_role("link", name="Continue").click()

    # Work: the worker can hear the clips of the task served to them.
    player = page.get_by_label("Query clip")
    player.evaluate("audio => audio.play()")
    page.wait_for_function("() => document.querySelector('audio').currentTime > 0.1")
    expect(page.get_by_role("heading", name="A", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="B", exact=True)).to_be_visible()

    # Ordinary examples answered with mouse and keyboard; every trap question missed.
    shown = 0
    while page.get_by_role("button", name="Submit answer").count():
        task = current_task(page)
        if trap_of(task):
            choose_with_mouse(page, wrong_choice(task))
        else:
            (choose_with_keyboard if shown % 2 else choose_with_mouse)(page, right_choice(task))
        shown += 1
    worker = Worker.objects.get(platform_id=prolific_id("pp1"))
    assert worker.status == Worker.STOPPED
    finish(page)  # no oracle: stopped at a checkpoint, told only when finishing
    expect(page.get_by_role("heading", name="Thank you for your time")).to_be_visible()
    assert page.get_by_label("Screen-out code").inner_text() == "OUT-999"
    assert "DONE-777" not in page.content()
    # Every work task: the 6 ordinary examples and the 4 work traps, served alike (issue
    # 29); the first checkpoint (trust_check_every, 10) is the last of them: 2 of 6 right.
    assert shown == 10
    assert Answer.objects.filter(worker=worker).count() == shown + 2
    assert not Answer.objects.filter(worker=worker, excluded=False).exists()


@pytest.fixture
def prolific(page):
    """Prolific's completion page, intercepted; a short countdown before the redirect."""
    page.route(
        "https://app.prolific.com/**",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body="<h1>Prolific: submission complete</h1>"
        ),
    )
    return page


def test_a_prolific_worker_who_reaches_the_cap_sees_the_code_copies_it_and_is_sent_back(
    prolific, crowd_collection, monkeypatch
):
    page = prolific
    monkeypatch.setattr(crowd_tasks, "PROLIFIC_REDIRECT_SECONDS", 3)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    campaign = make_campaign(
        crowd_collection, traps=0, max_answers_per_worker=3, completion_code="DONE-123"
    )
    start(
        page, f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('pp2')}&STUDY_ID=st1&SESSION_ID=se2"
    )
    for i in range(3):
        expect(page.get_by_text(f"Task {i + 1} of at most 3")).to_be_visible()
        (choose_with_keyboard if i % 2 else choose_with_mouse)(page, "both_good")
    finish(page)
    # The code is on the page before anything else happens, with a copy button and a link.
    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()
    expect(page.get_by_label("Completion code")).to_have_text("DONE-123")
    expect(page.get_by_role("link", name="return to Prolific now")).to_have_attribute(
        "href", "https://app.prolific.com/submissions/complete?cc=DONE-123"
    )
    page.get_by_role("button", name="Copy code").click()
    expect(page.get_by_text("Copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == "DONE-123"
    # Then the redirect, with the code.
    page.get_by_role("heading", name="Prolific: submission complete").wait_for()
    assert parse_qs(page.url.split("?", 1)[1]) == {"cc": ["DONE-123"]}
    assert Worker.objects.get(platform_id=prolific_id("pp2")).answer_count == 3


def test_when_the_redirect_to_prolific_fails_the_code_is_still_there(
    page, crowd_collection, monkeypatch
):
    monkeypatch.setattr(crowd_tasks, "PROLIFIC_REDIRECT_SECONDS", 1)
    page.route("https://app.prolific.com/**", lambda route: route.abort("internetdisconnected"))
    campaign = make_campaign(
        crowd_collection, traps=0, max_answers_per_worker=1, completion_code="DONE-456"
    )
    start(
        page, f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('pp3')}&STUDY_ID=st1&SESSION_ID=se3"
    )
    choose_with_mouse(page, "a_better")
    finish(page)
    expect(page.get_by_label("Completion code")).to_have_text("DONE-456")
    page.wait_for_timeout(2500)  # the redirect was tried, and failed
    if "/done/" not in page.url:
        page.go_back()
    expect(page.get_by_label("Completion code")).to_have_text("DONE-456")
    expect(page.get_by_role("link", name="return to Prolific now")).to_be_visible()


def test_a_worker_who_answers_without_listening_is_told_what_to_play_and_then_goes_on(
    page, audible_collection
):
    campaign = make_campaign(
        audible_collection, traps=0, listening_check=True, min_seconds_on_task=1,
        max_answers_per_worker=2,
    )  # fmt: skip
    start(page, f"/t/{campaign.token}/?worker=g1")
    first_key = page.locator('input[name="key"]').get_attribute("value")
    page.get_by_role("radio", name=CHOICE_LABELS["b_better"], exact=True).check()
    page.get_by_label("Comments (optional)").fill("B sounds closer")
    page.get_by_role("button", name="Submit answer").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Please listen before answering")
    expect(alert).to_contain_text("still to play: the query, list A, list B")
    # Nothing was lost: the same task, the choice and the comment are still there.
    assert page.locator('input[name="key"]').get_attribute("value") == first_key
    expect(page.get_by_role("radio", name=CHOICE_LABELS["b_better"], exact=True)).to_be_checked()
    expect(page.get_by_label("Comments (optional)")).to_have_value("B sounds closer")
    assert not Answer.objects.exists()

    listen(page)
    page.wait_for_timeout(1000)  # the campaign's 1 s on the task
    page.get_by_role("button", name="Submit answer").click()
    wait_for_next_page(page, first_key)
    answer = Answer.objects.get()
    assert (answer.choice, answer.comment, answer.clips_heard) == ("b_better", "B sounds closer", 3)
    expect(page.get_by_text("Task 2 of at most 2")).to_be_visible()


def test_an_mturk_preview_shows_the_task_but_cannot_submit(page, crowd_collection):
    campaign = make_campaign(crowd_collection)
    page.goto(f"/t/{campaign.token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1")
    expect(
        page.get_by_text("This is a preview. Accept the HIT to start answering.")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="A", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Submit answer")).to_be_disabled()
    expect(page.get_by_label("A is better")).to_be_disabled()
    assert not Worker.objects.exists()


def test_an_mturk_worker_previews_accepts_listens_answers_and_the_assignment_is_submitted(
    page, audible_collection
):
    campaign = make_campaign(
        audible_collection, traps=0, max_answers_per_worker=2, listening_check=True,
        min_seconds_on_task=1,
    )  # fmt: skip
    posted = []

    def mturk(route):
        posted.append(route.request)
        route.fulfill(status=200, content_type="text/html", body="<h1>HIT submitted</h1>")

    page.route("https://workersandbox.mturk.com/mturk/externalSubmit", mturk)
    page.goto(f"/t/{campaign.token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=HIT1")
    expect(page.get_by_text("Accept the HIT to start answering")).to_be_visible()
    assert not page.locator("audio").count()  # no audio before a task is someone's
    # Accepting reloads the frame with the worker's ids (as Mechanical Turk does).
    start(
        page,
        f"/t/{campaign.token}/?assignmentId=ASG1&hitId=HIT1&workerId=AWRK1"
        "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com",
    )
    for _ in range(2):
        listen(page)
        page.wait_for_timeout(1000)
        choose_with_mouse(page, "a_better")
    finish(page)
    page.get_by_role("heading", name="HIT submitted").wait_for()
    [request] = posted
    assert request.method == "POST"
    assert parse_qs(request.post_data)["assignmentId"] == ["ASG1"]
    assert Answer.objects.filter(worker__platform_id="AWRK1", clips_heard=3).count() == 2


def test_a_generic_worker_listens_answers_and_sees_the_completion_code(page, audible_collection):
    campaign = make_campaign(
        audible_collection, traps=0, max_answers_per_worker=2, listening_check=True,
        min_seconds_on_task=1, completion_code="GEN-42",
    )  # fmt: skip
    start(page, f"/t/{campaign.token}/?worker=lab-7")
    for _ in range(2):
        listen(page)
        page.wait_for_timeout(1000)
        choose_with_keyboard(page, "both_good")
    finish(page)
    expect(page.get_by_label("Completion code")).to_have_text("GEN-42")
    assert not page.get_by_role("link", name="return to Prolific now").count()


def test_an_open_task_page_beats_so_its_lease_goes_on(page, crowd_collection, monkeypatch):
    # The page's script posts to the task's alive URL every TASK_HEARTBEAT_SECONDS (45 s;
    # 1 s here), and each beat moves the task's alive_at: its slot stays leased.
    monkeypatch.setattr(crowd_tasks, "TASK_HEARTBEAT_SECONDS", 1)
    campaign = make_campaign(crowd_collection, traps=0)
    start(page, f"/t/{campaign.token}/?worker=beat-1")
    task = current_task(page)
    PreferenceTask.objects.filter(pk=task.pk).update(alive_at=task.served_at - timedelta(hours=1))
    with page.expect_response(lambda r: "/alive/" in r.url and r.status == 204):
        pass
    task.refresh_from_db()
    assert task.alive_at >= task.served_at


def test_a_worker_plays_a_practice_task_sees_the_expected_answer_then_reaches_the_quiz(
    page, audible_collection
):
    # Issue 23: the practice task is the work page with the same listening rule and marks,
    # said to be practice, followed by the expected answer and why; then the quiz.
    campaign = make_campaign(
        audible_collection, traps=4, quiz_length=1, quiz_traps=4, practice=1,
        practice_length=1, listening_check=True, min_seconds_on_task=1,
    )  # fmt: skip
    start(page, f"/t/{campaign.token}/?worker=learner")
    expect(page.get_by_text("Practice 1 of 1 — this answer does not count")).to_be_visible()
    expect(page.get_by_role("note")).to_contain_text("This is a practice task")
    task = current_task(page)
    assert task.is_practice
    listen(page)
    expect(page.get_by_text("✓ heard")).to_have_count(3)  # the query and a clip of each list
    expect(page.get_by_text("Ready: you can answer.")).to_be_visible()
    choose_with_mouse(page, wrong_choice(task))
    heading = "Practice 1 of 1 — this answer does not count"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    expected = CHOICE_LABELS[right_choice(task)]
    expect(page.get_by_role("status")).to_contain_text(f"The expected answer is “{expected}”")
    why = explanation_shown(trap_of(task).explanation, swapped=task.swapped)  # "{a}": List A or B
    expect(page.get_by_text(why)).to_be_visible()
    expect(page.get_by_text("That was the last practice task")).to_be_visible()
    page.get_by_role("link", name="Continue").click()
    expect(page.get_by_text("Qualification question 1 of 1")).to_be_visible()
    assert current_task(page).is_quiz
    assert not Answer.objects.exists()  # the practice answer is no Answer


def test_a_prolific_worker_arriving_at_a_full_study_is_told_before_anything_is_asked(
    page, crowd_collection
):
    # Issue 29: every example already has its answer; a newcomer is told so at once —
    # not after a consent form and a quiz — and how to return the study on Prolific.
    from tests.helpers.crowd_fixtures import answer_all, arrive

    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=1)
    answer_all(arrive(campaign, "early"))
    page.goto(
        f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('late1')}&STUDY_ID=st1&SESSION_ID=se1"
    )
    expect(page.get_by_role("heading", name="This study is full")).to_be_visible()
    expect(page.get_by_role("link", name="your submissions on Prolific")).to_be_visible()
    expect(page.get_by_role("checkbox")).to_have_count(0)  # no consent asked
    assert not PreferenceTask.objects.filter(worker__platform_id=prolific_id("late1")).exists()
