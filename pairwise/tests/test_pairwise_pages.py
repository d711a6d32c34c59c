"""The pages of a pairs campaign: the organiser's form and sort page, the worker's task page
in words for clips, and what stays as it was for campaigns of lists (issue 32, item 3)."""

from __future__ import annotations

import html

import pytest

from crowd.models import PreferenceCampaign
from evaluation.models import Recompute
from evaluation.services.mappings import campaign_mapping_request
from pairwise.services.create import pairwise_campaign_create
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.pairwise_study import build_pairs_collection

pytestmark = pytest.mark.django_db

FORM = {
    "name": "By form", "instructions": "Listen.", "consent_text": "Agree.",
    "max_answers_per_worker": 20, "quiz_length": 0, "trap_rate": 0, "trust_threshold": 0.7,
    "min_trap_answers": 1, "completion_code": "DONE1", "screen_out_code": "OUT1",
    "is_open": "on", "margin": 2, "answers_per_pair": 4, "source_name": "crowd",
    "source_status": "official",
}  # fmt: skip


def test_the_form_creates_the_campaign_and_shows_its_sort(personas, client):
    collection = build_pairs_collection(personas.organiser)
    client.force_login(personas.organiser)
    page = client.get(f"/collections/{collection.pk}/campaigns/pairs/new/")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "Answers per pair" in text and "Clips in each list" not in text
    response = client.post(f"/collections/{collection.pk}/campaigns/pairs/new/", FORM)
    campaign = PreferenceCampaign.objects.get(name="By form")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/sort/"
    assert (campaign.kind, campaign.answers_per_example, campaign.pairwise.margin) == (
        "pairs",
        4,
        2,
    )
    assert campaign.pairwise.source.status == "official"
    sort = html.unescape(client.get(f"/campaigns/{campaign.pk}/sort/").content.decode())
    assert "By form: sorting the clips" in sort
    assert "0 of 5 complete" in sort and "0 of 20" in sort  # 5 pairs of 4 answers
    detail = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f"/campaigns/{campaign.pk}/sort/" in detail


def test_a_margin_above_the_answers_per_pair_is_refused_by_the_form(personas, client):
    collection = build_pairs_collection(personas.organiser)
    client.force_login(personas.organiser)
    response = client.post(
        f"/collections/{collection.pk}/campaigns/pairs/new/", {**FORM, "margin": 5}
    )
    assert response.status_code == 200
    assert "The margin cannot be larger than the answers per pair." in html.unescape(
        response.content.decode()
    )
    assert not PreferenceCampaign.objects.exists()


def test_the_worker_page_of_a_pair_asks_about_clips_with_three_answers(personas):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairwise_campaign_create(
        collection=collection, name="Pairs", trap_rate=0.0, quiz_length=0
    ).campaign
    browser = Browser(campaign)
    browser.arrive("worker=w1")
    browser.consent()
    text = html.unescape(browser.task().content.decode())
    assert "Which clip is more similar to the query?" in text
    for label in ("A is more similar", "B is more similar", "They are equally similar"):
        assert label in text
    assert "Both are equally bad" not in text and "Which list is better?" not in text
    assert "Clip A" in text and "<kbd>1</kbd>–<kbd>3</kbd>" in text


def test_the_worker_page_of_lists_keeps_its_four_answers(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    browser = Browser(campaign)
    browser.arrive("worker=w1")
    browser.consent()
    text = html.unescape(browser.task().content.decode())
    assert "Which list is better?" in text and "Both are equally bad" in text
    assert "<kbd>1</kbd>–<kbd>4</kbd>" in text and "Clip A" not in text


def test_a_pairs_campaign_feeds_no_satisfaction_mapping(personas, crowd_collection):
    pairs = pairwise_campaign_create(
        collection=build_pairs_collection(personas.organiser), name="Pairs", trap_rate=0.0
    ).campaign
    lists = make_campaign(crowd_collection, traps=0)
    assert campaign_mapping_request(campaign=pairs) is False
    assert campaign_mapping_request(campaign=lists) is True  # as before issue 32
    assert list(Recompute.objects.values_list("kind", "target_id")) == [("campaign", lists.pk)]


def test_the_sort_page_says_when_the_settings_stop_the_sort(personas, client):
    """The crowd settings let the answers per example drop below the sort's margin: the
    driver then does nothing (pairwise_drive's problem) and the page says why."""
    collection = build_pairs_collection(personas.organiser)
    campaign = pairwise_campaign_create(
        collection=collection, name="Pairs", trap_rate=0.0, margin=3, answers_per_pair=3
    ).campaign
    PreferenceCampaign.objects.filter(pk=campaign.pk).update(answers_per_example=2)
    client.force_login(personas.organiser)
    text = html.unescape(client.get(f"/campaigns/{campaign.pk}/sort/").content.decode())
    assert (
        "The sort cannot go on: its margin (3) is larger than the answers each pair gets (2)"
        in text
    )
