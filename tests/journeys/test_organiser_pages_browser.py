"""In Chromium: an organiser runs a study from the browser — creates and shares a collection,
invites an assessor who sets a password and finds their work, changes campaign settings.

The pages that hand work to the real Celery worker (the generator, results settings) are
in ``test_background_work_browser.py``.
"""

import re

import pytest
from playwright.sync_api import expect

from common.roles import ORGANISER
from tests.helpers.browser import log_in, shot
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD, make_user
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_out(page):
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()


def test_an_organiser_creates_and_shares_a_collection_that_a_co_organiser_only_reads(
    page, personas
):
    make_user("rita", ORGANISER)
    log_in(page, personas.organiser.username, PASSWORD)
    page.get_by_role("link", name="New collection").click()
    page.get_by_label("Name").fill("Pilot study")
    page.get_by_label("Description").fill("Two systems, ten queries.")
    page.get_by_role("button", name="Create collection").click()
    expect(page.get_by_role("heading", name="Pilot study")).to_be_visible()
    page.get_by_role("link", name="Edit or archive").click()
    page.get_by_label("Name").fill("Pilot study 2025")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Pilot study 2025")).to_be_visible()

    page.goto(f"/collections/{personas.collection.pk}/")
    page.get_by_role("link", name="Sharing").click()
    page.get_by_label("Organiser's username").fill("rita")
    page.get_by_label("read-only").check()
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_text("Shared with rita (read-only).")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("rita"))).to_contain_text("read-only")
    shot(page, "collection-sharing")
    log_out(page)

    log_in(page, "rita", PASSWORD)
    expect(page.get_by_role("row", name=re.compile("Tiny collection"))).to_contain_text(
        "read-only, shared by olivia"
    )
    page.get_by_role("link", name="Tiny collection").click()
    expect(page.get_by_text("Shared with you read-only by olivia")).to_be_visible()
    expect(page.get_by_role("link", name="Edit or archive")).to_have_count(0)
    page.get_by_label("Search clips").fill("clip 2")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("table.clips tbody tr")).to_have_count(1)
    expect(page.locator("table.clips tbody")).to_contain_text("c2")
    page.goto(f"/collections/{personas.collection.pk}/edit/")  # typed by hand: refused, kindly
    expect(page.get_by_role("heading", name="You may not open this page")).to_be_visible()
    expect(page.get_by_text("read-only access to “Tiny collection”")).to_be_visible()


def test_an_invited_assessor_sets_a_password_and_finds_the_campaign_to_judge(page, personas):
    campaign = make_relevance_campaign(personas, assessors=[])
    log_in(page, personas.organiser.username, PASSWORD)
    page.get_by_role("link", name="People").click()
    page.get_by_label("Username").fill("bea")
    page.get_by_role("button", name="Create account").click()
    link = page.get_by_role("textbox", name="Invitation link").input_value()
    assert "/invitation/" in link
    shot(page, "people-invitation")
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_label("Assessor").select_option(label="bea")
    page.get_by_role("button", name="Add assessor").click()
    expect(page.get_by_role("row", name=re.compile("bea"))).to_be_visible()
    log_out(page)

    page.goto(link)
    expect(page.get_by_role("heading", name="Welcome to Earshot, bea")).to_be_visible()
    page.get_by_label("New password").fill("a tune in my head")
    page.get_by_label("The same password again").fill("a tune in my head")
    page.get_by_role("button", name="Set my password").click()
    expect(page.get_by_role("heading", name="Your judging")).to_be_visible()
    expect(page.get_by_role("heading", name=campaign.name)).to_be_visible()
    page.get_by_role("button", name="Get next query").click()
    expect(page).to_have_url(re.compile(r"/judge/assignments/\d+/"))
    log_out(page)

    log_in(page, "bea", "a tune in my head")  # the password works from now on
    expect(page.get_by_role("heading", name="Your judging")).to_be_visible()
    page.goto(link)
    expect(page.get_by_role("heading", name="This invitation link no longer works")).to_be_visible()


def test_an_organiser_changes_a_campaigns_settings_and_closes_it(page, personas, crowd_collection):
    # quiz length 2 needs 8 quiz questions (a worker sees at most a quarter of the pool)
    campaign = make_campaign(crowd_collection, traps=10, quiz_traps=8, quiz_length=1, trap_rate=0.1)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Tasks per worker at most (M)").fill("2")
    page.get_by_label("Quiz length (Q)").fill("2")
    page.get_by_role("button", name="Save settings").click()
    expect(
        page.get_by_text("the first 2 would be quiz questions, leaving no real work")
    ).to_be_visible()
    page.get_by_label("Tasks per worker at most (M)").fill("20")
    page.get_by_label("Trust threshold").fill("0.8")
    page.get_by_label("Quiz length (Q)").fill("2")
    page.get_by_role("button", name="Save settings").click()
    expect(
        page.get_by_text("Saved: Tasks per worker at most (M), Quiz length (Q), Trust threshold.")
    ).to_be_visible()
    page.get_by_role("button", name="Close the campaign").click()
    expect(page.get_by_text("“Study” is closed.")).to_be_visible()
    shot(page, "campaign-settings")
    campaign.refresh_from_db()
    assert (campaign.trust_threshold, campaign.quiz_length, campaign.is_open) == (0.8, 2, False)
    page.goto(f"/t/{campaign.token}/?worker=w1")
    expect(page.get_by_text("closed", exact=False).first).to_be_visible()
