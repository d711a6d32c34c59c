"""A request body of 5,000 ``[`` is a 400 on every API POST and PUT, never a 500.

``json.loads`` raises ``RecursionError`` on it (not ``ValueError``): the anonymous
``/api/token/`` used to answer 500 to anyone. Every write endpoint of the REST API is
found from the URL configuration, so a new one is covered without editing this test.
"""

import re

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from crowd.models import PreferenceCampaign
from relevance.services.campaigns import assignment_next, relevance_campaign_create
from tests.helpers.fuzzing import api_write_routes
from tests.helpers.relevance_data import make_campaign

pytestmark = pytest.mark.django_db

DEEP = b"[" * 5000


def test_there_are_write_endpoints_to_check():
    routes = {route for route, _ in api_write_routes()}
    assert "/api/token/" in routes and "/api/collections/create/" in routes
    assert len(routes) >= 8


def test_every_api_write_endpoint_answers_a_deeply_nested_body_with_a_400(personas):
    collection = personas.collection
    system = collection.systems.get()
    campaign = PreferenceCampaign.objects.create(collection=collection, name="C")
    ids = {"collection_id": collection.pk, "system_id": system.pk, "campaign_id": campaign.pk,
           "source_id": 1, "relevance_campaign_id": relevance_campaign_create(
               collection=collection, name="R").pk,
           # The body is read before the view looks anything up: any id reaches it.
           "user_id": personas.assessor.pk, "job_id": 1}  # fmt: skip
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=personas.organiser).key}")
    checked = []
    for route, method in api_write_routes():
        url = route
        for name, value in ids.items():
            url = url.replace(f"<id:{name}>", str(value))
        url = re.sub(r"<id:\w+>", "1", url)  # any other id: the body is read first
        client = APIClient() if route == "/api/token/" else api
        response = getattr(client, method)(url, DEEP, content_type="application/json")
        assert response.status_code == 400, (url, method, response.status_code)
        assert "JSON" in response.json()["detail"]
        checked.append(url)
    assert "/api/token/" in checked


def test_the_judging_page_answers_a_deeply_nested_body_with_a_400(client, personas):
    campaign = make_campaign(personas)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    client.force_login(personas.assessor)
    response = client.post(
        f"/judge/assignments/{work.pk}/judgments", DEEP, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "The request is not JSON."}
