"""In Chromium: what a crowd worker reads on a phone and on a computer (issue 31, item 9),
and an MTurk preview's Submit button that looks as disabled as it is."""

import re

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import start
from tests.helpers.crowd_fixtures import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(base_url=live_server.url, **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors


def test_on_a_phone_the_task_folds_its_instructions_and_speaks_of_no_keyboard(
    phone, audible_collection
):
    campaign = make_campaign(audible_collection, listening_check=True)
    start(phone, f"/t/{campaign.token}/?worker=on-a-phone")
    expect(phone.get_by_role("heading", name="Which list is better?")).to_be_visible()
    instructions = phone.locator("details.instructions")
    expect(instructions).not_to_have_attribute("open", "")
    expect(phone.get_by_text("Keyboard:")).to_be_hidden()
    expect(phone.locator(".choice kbd").first).to_be_hidden()
    # The lists begin on the first screen; the instructions are one tap away.
    assert phone.get_by_role("heading", name="A", exact=True).bounding_box()["y"] < 844
    phone.get_by_text("Instructions", exact=True).click()
    expect(phone.get_by_text("Clips are heard one at a time")).to_be_visible()


def test_a_worker_reads_the_rule_of_a_comparison_not_the_assessors(page, audible_collection):
    campaign = make_campaign(audible_collection, listening_check=True, min_clips_per_list=1)
    start(page, f"/t/{campaign.token}/?worker=on-a-computer")
    rule = page.locator("details.instructions")
    expect(rule).to_have_attribute("open", "")
    # 3 clips (the query and one of each list), 5 s each (EARSHOT_LISTEN_SECONDS_PER_CLIP).
    expect(rule).to_contain_text(
        "an answer also waits until 15 seconds have passed since your first clip"
    )
    expect(rule).not_to_contain_text("when judging")
    expect(rule).not_to_contain_text("must-listen")
    expect(page.get_by_text("Keyboard:")).to_be_visible()


def test_an_mturk_previews_submit_button_looks_disabled(page, crowd_collection):
    campaign = make_campaign(crowd_collection)
    page.goto(f"/t/{campaign.token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1")
    button = page.get_by_role("button", name="Submit answer")
    expect(button).to_be_disabled()
    expect(page.get_by_text("Accept the HIT to answer.")).to_be_visible()
    look = button.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]")
    assert look == ["rgb(228, 231, 238)", "not-allowed"]  # not the accent of a live button


def test_the_completion_code_a_worker_copies_has_no_letter_that_looks_like_a_digit(
    page, crowd_collection
):
    """Issue 31: codes mixed the letter O with the digit 0 ("3Y8RYPW8OOWK")."""
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=1,
                             min_work_answers=1)  # fmt: skip
    start(page, f"/t/{campaign.token}/?worker=copies-a-code")
    page.get_by_role("radio", name="A is better").check()
    page.get_by_role("button", name="Submit answer").click()
    expect(page.get_by_role("heading", name="No more tasks for you")).to_be_visible()
    page.get_by_role("link", name="Finish the study").click()
    code = page.locator(".code").first
    expect(code).to_have_text(campaign.completion_code)
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{12}", code.inner_text())
