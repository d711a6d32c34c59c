"""In Chromium: the organiser copies the Prolific study URL and codes from the campaign
page (no URL built by hand: issue 25, item 5), and the URL, with Prolific's ids filled in
as Prolific does, brings a participant to the consent page."""

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import log_in
from tests.helpers.clipboard import copy_with
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_copied_study_url_works_once_prolific_fills_in_its_ids(
    page, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    url = copy_with(page, "Copy the study URL")
    assert url.endswith(
        "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    )
    assert copy_with(page, "Copy the completion code") == campaign.completion_code

    participant = page.context.browser.new_context()
    worker = participant.new_page()
    filled = url.replace("{{%PROLIFIC_PID%}}", "5f3a" * 6).replace("{{%STUDY_ID%}}", "s-1")
    worker.goto(filled.replace("{{%SESSION_ID%}}", "x-9"))
    expect(
        worker.get_by_label("I have read the information above and agree to take part")
    ).to_be_visible()
    participant.close()
