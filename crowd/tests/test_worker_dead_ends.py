"""A crowd worker never meets a dead end (issue 25, item 6; issue 31, item 5): a link without an id, a
mistyped link (under DEBUG too), a closed study, a screen-out and "I do not consent" each
get a styled page with the way back to the platform and a code to copy where one is due."""

from __future__ import annotations

import pytest
from django.test import override_settings

from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import mturk_id, prolific_id

pytestmark = pytest.mark.django_db

PROLIFIC = f"PROLIFIC_PID={prolific_id('p1')}&STUDY_ID=s1&SESSION_ID=x1"
TURK = "turkSubmitTo=https://workersandbox.mturk.com"


def test_a_link_without_an_id_gets_a_styled_page_that_says_what_to_do(client, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    page = client.get(f"/t/{campaign.token}/?foo=bar")
    html = page.content.decode()
    assert page.status_code == 400 and "<!doctype html>" in html.lower()
    assert "This study link is missing your id" in html and "Go back to the platform" in html


@pytest.mark.parametrize("path", ["/t/", "/t/nope/", "/t/nope/task/", "/t/nope/whatever/else"])
def test_a_mistyped_link_gets_the_styled_page_even_under_debug(client, path):
    with override_settings(DEBUG=True):
        page = client.get(path)
    html = page.content.decode()
    assert page.status_code == 404 and "This study link" in html
    assert "Technical" not in html and "URLconf" not in html  # not Django's debug page


def test_a_closed_study_shows_the_way_back_to_prolific(client, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, is_open=False)
    page = client.get(f"/t/{campaign.token}/?{PROLIFIC}")
    assert page.status_code == 410
    assert 'href="https://app.prolific.com/submissions"' in page.content.decode()


def test_the_consent_page_says_time_and_pay_and_offers_no_consent_with_its_code(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, minutes_estimate=12, pay_text="£1.80")
    worker = Browser(campaign)
    worker.arrive(PROLIFIC)
    consent = worker.get(f"/t/{campaign.token}/consent/").content.decode()
    assert "It takes about <strong>12 minutes</strong> and pays <strong>£1.80</strong>" in consent
    declined = worker.post(f"/t/{campaign.token}/consent/", {"decline": "1"}).content.decode()
    assert "You chose not to take part" in declined and campaign.no_consent_code in declined
    assert (
        f"cc={campaign.no_consent_code}" in declined and 'data-copy="no-consent-code"' in declined
    )
    assert worker.client.get(f"/t/{campaign.token}/task/").status_code == 302  # not consented
    # The organiser's workers table says so, rather than a plain "active".
    assert Worker.objects.get(campaign=campaign).status_label == "active: has not consented"


def _quiz_then_stop(campaign, browser: Browser, query: str) -> str:
    """Arrive, fail the quiz, and ask to finish: the screen-out page's text."""
    from crowd.models import PreferenceTask
    from tests.helpers.crowd_fixtures import wrong_choice

    browser.start(query)
    while browser.key:
        browser.answer(wrong_choice(PreferenceTask.objects.get(key=browser.key)))
        browser.task()
    return browser.done().content.decode()


@pytest.mark.parametrize("platform", ["prolific", "mturk"])
def test_a_second_person_on_a_stopped_browser_gets_advice_and_the_way_back(
    crowd_collection, platform
):
    """Issue 31, item 5: the page once ended with "It cannot be started again here under
    another id" and nothing else. It now says what each person can do, and how to leave
    through their platform — and shows no code: the id that arrived is not the one this
    browser took part under, so any code there would pay a throwaway id."""
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, per_worker_codes=True)
    first, second = (
        (PROLIFIC, f"PROLIFIC_PID={prolific_id('p2')}&STUDY_ID=s1&SESSION_ID=x2")
        if platform == "prolific"
        else (
            f"workerId={mturk_id('A1')}&assignmentId=ASG1&hitId=H1&{TURK}",
            f"workerId={mturk_id('A2')}&assignmentId=ASG2&hitId=H1&{TURK}",
        )
    )
    browser = Browser(campaign)
    _quiz_then_stop(campaign, browser, first)
    refused = browser.arrive(second)
    html = refused.content.decode()
    assert refused.status_code == 409 and "This browser has already taken part" in html
    assert "If that was you, open the study from that id" in html
    assert "If you are a different person sharing this computer" in html
    if platform == "prolific":
        assert 'href="https://app.prolific.com/submissions"' in html
    else:
        assert "return the HIT on Mechanical Turk" in html
    for code in (campaign.screen_out_code, campaign.completion_code, campaign.no_consent_code):
        assert code not in html
    first_id = Worker.objects.get(campaign=campaign).platform_id
    assert first_id not in html  # nor whose browser it was
    # The advice holds: the first id's own link, in this browser, shows its end page again.
    again = browser.arrive(first)
    assert again.status_code == 302
    end = browser.done().content.decode()
    assert "Thank you for your time" in end
    if platform == "prolific":
        assert campaign.screen_out_code in end


def test_a_code_given_to_the_first_id_never_reaches_a_throwaway_id_on_that_browser(
    crowd_collection,
):
    """The attack: one person earns the completion code, is excluded afterwards, and
    comes back in the same browser under a throwaway id — or opens it cookie-less from
    the same device — hoping the page of the refusal names the code. Prolific takes one
    completion code for the whole study, so it would pay the throwaway id in full."""
    from crowd.models import PreferenceTask
    from crowd.services.workers import worker_exclude
    from tests.helpers.crowd_fixtures import right_choice

    campaign = make_campaign(crowd_collection, traps=2, quiz_length=2, max_answers_per_worker=3)
    browser = Browser(campaign)
    browser.start(PROLIFIC)
    while browser.key:
        browser.answer(right_choice(PreferenceTask.objects.get(key=browser.key)))
        browser.task()
    assert campaign.completion_code in browser.done().content.decode()
    worker_exclude(worker=Worker.objects.get(campaign=campaign), reason="two ids, one person")
    address = browser.client.defaults["REMOTE_ADDR"]
    for attempt in (browser, Browser(campaign, address=address)):  # cookie, then device
        refused = attempt.arrive(f"PROLIFIC_PID={prolific_id('throwaway')}&STUDY_ID=s1")
        assert refused.status_code == 409
        seen = attempt.everything_seen() if attempt is not browser else refused.content.decode()
        for code in (campaign.completion_code, campaign.screen_out_code, campaign.no_consent_code):
            assert code not in seen
    assert not Worker.objects.filter(platform_id=prolific_id("throwaway")).exists()
