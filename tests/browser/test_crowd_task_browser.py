"""In Chromium: crowd workers arriving through task links (Prolific, Mechanical Turk).

No outside network: Prolific's completion page and Mechanical Turk's submit endpoint
are intercepted with Playwright routing.
"""

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from judging.models import Answer, PreferenceTask, Worker
from judging.models.crowd import CHOICE_LABELS
from tests.crowd_fixtures import make_campaign, right_choice, trap_of, wrong_choice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def current_task(page) -> PreferenceTask:
    key = page.locator('input[name="key"]').get_attribute("value")
    return PreferenceTask.objects.select_related("example").get(key=key)


def wait_for_next_page(page, key: str) -> None:
    page.wait_for_function(
        "key => { const i = document.querySelector('input[name=key]'); return !i || i.value !== key; }",
        arg=key,
    )


def choose_with_mouse(page, choice: str) -> None:
    key = page.locator('input[name="key"]').get_attribute("value")
    page.get_by_role("radio", name=CHOICE_LABELS[choice], exact=True).check()
    page.get_by_role("button", name="Submit answer").click()
    wait_for_next_page(page, key)


def choose_with_keyboard(page, choice: str) -> None:
    key = page.locator('input[name="key"]').get_attribute("value")
    number = list(CHOICE_LABELS).index(choice) + 1
    page.locator("body").press(str(number))
    assert page.get_by_role("radio", name=CHOICE_LABELS[choice], exact=True).is_checked()
    page.keyboard.press("Enter")
    wait_for_next_page(page, key)


def seed_with_traps_at(positions: set[int], *, rate: float, upto: int) -> int:
    """A worker seed whose work-mode draws (random.Random(f"{seed}:{position}"), as in
    task_serve) give trap questions exactly at ``positions`` among 3..upto."""
    import random

    for seed in range(100_000):
        draws = {p: random.Random(f"{seed}:{p}").random() < rate for p in range(3, upto + 1)}
        if {p for p, trap in draws.items() if trap} == positions:
            return seed
    raise AssertionError("no such seed")


def test_a_prolific_worker_passes_the_quiz_works_then_misses_traps_and_is_screened_out(
    page, audible_collection
):
    campaign = make_campaign(
        audible_collection, traps=6, quiz_length=2, trap_rate=0.5, trust_threshold=0.7,
        completion_code="DONE-777", screen_out_code="OUT-999",
    )  # fmt: skip
    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID=pp1&STUDY_ID=st1&SESSION_ID=se1")
    expect(page.get_by_role("heading", name="Before you start")).to_be_visible()
    expect(page.get_by_text("This study collects your opinion")).to_be_visible()
    # Fix the worker's random draws: quiz at tasks 1–2, examples at 3–5, a trap at 6.
    seed = seed_with_traps_at({6}, rate=0.5, upto=6)
    Worker.objects.filter(platform_id="pp1").update(seed=seed)
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
    worker = Worker.objects.get(platform_id="pp1")
    assert worker.status == Worker.STOPPED
    expect(page.get_by_role("heading", name="Thank you for your time")).to_be_visible()
    assert page.get_by_label("Screen-out code").inner_text() == "OUT-999"
    assert "DONE-777" not in page.content()
    assert shown == 4  # three examples (mouse, keyboard, mouse), then the missed trap
    assert Answer.objects.filter(worker=worker).count() == shown + 2
    assert not Answer.objects.filter(worker=worker, excluded=False).exists()


def test_a_prolific_worker_who_reaches_the_cap_is_redirected_with_the_completion_code(
    page, crowd_collection
):
    campaign = make_campaign(
        crowd_collection, traps=0, max_answers_per_worker=3, completion_code="DONE-123"
    )
    page.route(
        "https://app.prolific.com/**",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body="<h1>Prolific: submission complete</h1>"
        ),
    )
    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID=pp2&STUDY_ID=st1&SESSION_ID=se2")
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()
    for i in range(3):
        expect(page.get_by_text(f"Task {i + 1} of at most 3")).to_be_visible()
        (choose_with_keyboard if i % 2 else choose_with_mouse)(page, "both_good")
    page.get_by_role("heading", name="Prolific: submission complete").wait_for()
    assert parse_qs(page.url.split("?", 1)[1]) == {"cc": ["DONE-123"]}
    assert Worker.objects.get(platform_id="pp2").answer_count == 3


def test_an_mturk_preview_shows_the_task_but_cannot_submit(page, crowd_collection):
    campaign = make_campaign(crowd_collection)
    page.goto(f"/t/{campaign.token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1")
    expect(
        page.get_by_text("This is a preview. Accept the HIT to start answering.")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="A", exact=True)).to_be_visible()
    assert page.get_by_role("button", name="Submit answer").is_disabled()
    assert page.get_by_label("A is better").is_disabled()
    assert not Worker.objects.exists()


def test_an_mturk_worker_who_finishes_posts_the_assignment_to_turk_submit_to(
    page, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=2)
    posted = []

    def mturk(route):
        posted.append(route.request)
        route.fulfill(status=200, content_type="text/html", body="<h1>HIT submitted</h1>")

    page.route("https://workersandbox.mturk.com/mturk/externalSubmit", mturk)
    page.goto(
        f"/t/{campaign.token}/?assignmentId=ASG1&hitId=HIT1&workerId=WRK1"
        "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    )
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()
    for _ in range(2):
        choose_with_mouse(page, "a_better")
    page.get_by_role("heading", name="HIT submitted").wait_for()
    [request] = posted
    assert request.method == "POST"
    assert parse_qs(request.post_data)["assignmentId"] == ["ASG1"]
