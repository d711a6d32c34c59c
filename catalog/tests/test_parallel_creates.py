"""Ten identical write requests at the same instant never end in a 500.

Issue 11: ten parallel identical ``systems/create`` or ``clips/create`` requests gave an
occasional ``IntegrityError`` 500 (a check, then a create, racing). Creates are now
idempotent (the same thing twice is there once, and both requests succeed) and a request
that contradicts stored data is a clean 409. Real threads, real transactions, each with
its own database connection, released together by a barrier.
"""

import threading

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import Clip, Query, RelevanceJudgment, RunEntry, System

pytestmark = pytest.mark.django_db(transaction=True)

N = 10


def at_once(method: str, url: str, body: dict, token: str) -> list[int]:
    """``N`` threads send the same request together; their status codes."""
    barrier = threading.Barrier(N)
    statuses: list[int] = []

    def send():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            barrier.wait(timeout=30)
            response = getattr(client, method)(url, body, format="json")
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(N)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == N, "a request did not finish"
    return statuses


@pytest.fixture
def token(personas):
    return Token.objects.create(user=personas.organiser).key


def test_ten_identical_system_creates_make_one_system_and_all_succeed(personas, token):
    url = f"/api/collections/{personas.collection.pk}/systems/create/"
    statuses = at_once("post", url, {"name": "GoodEar", "team": "UC3M"}, token)
    assert sorted(statuses) == [200] * (N - statuses.count(201)) + [201] * statuses.count(201)
    assert statuses.count(201) == 1
    assert System.objects.filter(name="GoodEar").count() == 1


def test_ten_identical_clip_creates_make_each_clip_once(personas, token):
    url = f"/api/collections/{personas.collection.pk}/clips/create/"
    body = {"clips": [{"external_id": f"new{i}", "title": f"New {i}"} for i in range(20)]}
    statuses = at_once("post", url, body, token)
    assert set(statuses) <= {200, 201}, statuses
    assert Clip.objects.filter(external_id__startswith="new").count() == 20


def test_the_same_system_with_another_team_is_a_409(personas, token):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    url = f"/api/collections/{personas.collection.pk}/systems/create/"
    assert api.post(url, {"name": "S1"}, format="json").status_code == 200  # already there
    response = api.post(url, {"name": "S1", "team": "Other"}, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "detail": "The collection already has a system named 'S1' with team ''."
    }
    clips = f"/api/collections/{personas.collection.pk}/clips/create/"
    response = api.post(
        clips, {"clips": [{"external_id": "c1", "title": "Renamed"}]}, format="json"
    )
    assert response.status_code == 409
    assert Clip.objects.get(external_id="c1").title == "Clip 1"


def test_ten_identical_queries_runs_and_judgments_at_once_never_500(personas, token):
    pk = personas.collection.pk
    system = personas.collection.systems.get()
    assert set(
        at_once("post", f"/api/collections/{pk}/queries/create/", {"clips": ["c2"]}, token)
    ) == {201}
    assert Query.objects.filter(clip__external_id="c2").count() == 1
    run = f"/api/collections/{pk}/systems/{system.pk}/run/replace/"
    assert set(at_once("put", run, {"rankings": {"c1": ["c2", "c3"]}}, token)) == {200}
    assert RunEntry.objects.filter(system=system).count() == 2
    body = {"judgments": [{"query": "c1", "clip": "c2", "fine": 40}], "source": "panel"}
    statuses = at_once("post", f"/api/collections/{pk}/judgments/create/", body, token)
    assert set(statuses) == {201}
    assert RelevanceJudgment.objects.filter(source__name="panel").count() == 1
