"""A crowd worker never meets a dead end (issue 25, item 6): a link without an id, a
mistyped link (under DEBUG too), a closed study, a screen-out and "I do not consent" each
get a styled page with the way back to the platform and a code to copy where one is due."""

from __future__ import annotations

import pytest
from django.test import override_settings

from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import prolific_id

pytestmark = pytest.mark.django_db

PROLIFIC = f"PROLIFIC_PID={prolific_id('p1')}&STUDY_ID=s1&SESSION_ID=x1"


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
