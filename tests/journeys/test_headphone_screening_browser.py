"""In Chromium: an honest worker with headphones takes the headphone screen (issue 23,
item 2) and reaches the quiz.

The worker plays the calibration noise and each trial's three tones in the page's own
players (sped up 16 times: the test needs the browser to fetch and decode the server's
WAV, not to wait 4 s a trial), then picks the quiet tone. The test stands in for the
worker's ears by reading which interval the server made quiet, as the crowd browser
tests read trap questions' answers; ``crowd/tests/test_headphone_screening.py`` answers from
the signal itself. The pages need no script, so the page fixture's check that nothing
broke the Content-Security-Policy holds trivially and stays armed for a later one.
"""

import pytest
from playwright.sync_api import expect

from crowd.models import Worker
from tests.helpers.browser import pass_the_headphone_check
from tests.helpers.crowd_fixtures import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_worker_with_headphones_calibrates_passes_the_screen_and_reaches_the_quiz(
    page, audible_collection
):
    campaign = make_campaign(audible_collection, traps=4, quiz_length=2, headphone_check=True)
    page.goto(f"/t/{campaign.token}/?worker=h1")
    expect(page.get_by_text("You need headphones")).to_be_visible()
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()

    pass_the_headphone_check(page)

    expect(page.get_by_text("Qualification question 1 of 2")).to_be_visible()
    worker = Worker.objects.get(platform_id="h1")
    assert (worker.headphones, worker.headphones_right) == (Worker.PASSED, 6)
