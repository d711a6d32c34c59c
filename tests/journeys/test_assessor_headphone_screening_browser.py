"""In Chromium: an assessor with headphones takes the headphone screen of a relevance
campaign (issue 23, item 2) on asking for work, and reaches the judging page.

The crowd browser test's player and ears (:mod:`tests.journeys.test_headphone_screening_browser`):
each sound plays sped up 16 times in the page's own player, and the test stands in for
the assessor's ears by reading which interval the server made quiet.
"""

import pytest
from playwright.sync_api import expect

from listening.models import AssessorScreen
from tests.helpers.browser import log_in, pass_the_headphone_check
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_assessor_with_headphones_passes_the_screen_and_reaches_the_judging_page(page, personas):
    campaign = make_campaign(personas, headphone_check=True)
    log_in(page, personas.assessor.username, PASSWORD)
    page.get_by_role("button", name="Get next query").click()

    pass_the_headphone_check(page)

    expect(
        page.get_by_role("heading", name="How similar is each candidate to the query?")
    ).to_be_visible()
    screen = AssessorScreen.objects.get(campaign=campaign, assessor=personas.assessor)
    assert (screen.result, screen.right) == (AssessorScreen.PASSED, 6)
