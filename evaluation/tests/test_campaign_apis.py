"""The REST API for campaigns, answers and mappings: token auth, organiser-owned only."""

from urllib.parse import quote

import pytest

from evaluation.services import campaign_mapping_compute
from tests.helpers.clients import client_for
from tests.helpers.mappings import MEASURE, answered_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(crowd_collection):
    campaign = answered_campaign(crowd_collection)
    campaign_mapping_compute(campaign=campaign)
    return campaign


def test_an_organiser_lists_and_reads_their_campaigns(personas, campaign):
    api = client_for(personas.organiser)
    listed = api.get("/api/campaigns/").json()
    assert [c["name"] for c in listed] == ["Study"]
    assert listed[0]["collection"] == campaign.collection_id
    detail = api.get(f"/api/campaigns/{campaign.pk}/").json()
    assert (detail["answers"], detail["accepted_answers"]) == (10, 8)  # 2 quiz answers
    assert detail["mappings"] == [MEASURE]


def test_answers_are_paginated_and_say_whether_they_are_accepted(personas, campaign):
    api = client_for(personas.organiser)
    page = api.get(f"/api/campaigns/{campaign.pk}/answers/?limit=4").json()
    assert page["count"] == 10 and len(page["results"]) == 4 and page["next"]
    everything = api.get(f"/api/campaigns/{campaign.pk}/answers/").json()["results"]
    accepted = [a for a in everything if a["accepted"]]
    assert len(accepted) == 8
    assert not any(a["trap_question"] for a in accepted)
    careless = [a for a in everything if a["worker"] == "careless"]
    assert careless[0]["excluded"] and not careless[0]["accepted"]


def test_the_mapping_is_served_by_measure(personas, campaign):
    api = client_for(personas.organiser)
    response = api.get(f"/api/campaigns/{campaign.pk}/mapping/?measure={quote(MEASURE)}")
    assert response.status_code == 200
    body = response.json()
    assert body["measure"] == MEASURE and body["payload"]["n_answers"] == 8
    missing = api.get(f"/api/campaigns/{campaign.pk}/mapping/?measure=nDCG%405")
    assert missing.status_code == 404


@pytest.mark.parametrize("path", ["", "answers/", f"mapping/?measure={quote(MEASURE)}"])
def test_another_organisers_campaign_is_not_found(personas, campaign, path):
    api = client_for(personas.other_organiser)
    assert api.get("/api/campaigns/").json() == []
    response = api.get(f"/api/campaigns/{campaign.pk}/{path}")
    assert response.status_code == 404


def test_an_assessor_and_an_anonymous_client_are_refused(personas, campaign):
    from rest_framework.test import APIClient

    assert client_for(personas.assessor).get("/api/campaigns/").status_code == 403
    assert APIClient().get(f"/api/campaigns/{campaign.pk}/answers/").status_code == 401
