"""In Chromium: a participant whose study link carries two ids in its Prolific id
(``PROLIFIC_PID=X Y``, issue 29) gets a page that says the id is not valid and what to
do; nothing is recorded. The same link with a real Prolific id starts the study."""

import pytest
from playwright.sync_api import expect

from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.platform_links import prolific_id

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_link_with_two_ids_gets_a_clear_page_and_a_real_id_starts(page, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    two = f"{prolific_id('one')}%20{prolific_id('two')}"
    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID={two}&STUDY_ID=s1&SESSION_ID=x1")
    expect(
        page.get_by_role("heading", name="The id in this study link is not valid")
    ).to_be_visible()
    expect(page.get_by_text("Your Prolific id in this link is not valid")).to_contain_text(
        "a Prolific id is 24 characters, each a digit or a letter from a to f"
    )
    expect(page.get_by_text("Go back to the platform where you found the study")).to_be_visible()
    assert not Worker.objects.exists()

    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('one')}&STUDY_ID=s1&SESSION_ID=x1")
    expect(page.get_by_role("heading", name="Before you start")).to_be_visible()
    assert Worker.objects.get().platform_id == prolific_id("one")
