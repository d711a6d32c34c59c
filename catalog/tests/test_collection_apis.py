"""The REST API for collections: token auth, organiser-owned data only, clear 4xx messages."""

import pytest
from rest_framework.test import APIClient

from catalog.models import Collection, RelevanceJudgment, RunEntry
from tests.helpers.clients import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(personas):
    return client_for(personas.organiser)


def test_an_anonymous_client_is_refused(personas):
    response = APIClient().get("/api/collections/")
    assert response.status_code == 401


def test_an_account_without_the_organiser_role_is_refused(personas):
    response = client_for(personas.assessor).get("/api/collections/")
    assert response.status_code == 403
    assert "organisers" in response.json()["detail"]


def test_an_organiser_lists_only_their_collections(api, personas):
    Collection.objects.create(name="Oscar's", owner=personas.other_organiser)
    response = api.get("/api/collections/")
    assert [c["name"] for c in response.json()] == ["Tiny collection"]


def test_another_organisers_collection_is_not_found(personas):
    oscar = client_for(personas.other_organiser)
    pk = personas.collection.pk
    assert oscar.get(f"/api/collections/{pk}/").status_code == 404
    response = oscar.post(
        f"/api/collections/{pk}/clips/create/", {"clips": [{"external_id": "x"}]}, format="json"
    )
    assert response.status_code == 404
    assert not personas.collection.clips.filter(external_id="x").exists()


def test_an_organiser_builds_a_collection_through_the_api(api, personas):
    response = api.post("/api/collections/create/", {"name": "Built"}, format="json")
    assert response.status_code == 201
    pk = response.json()["id"]
    clips = [{"external_id": i, "title": f"Clip {i}"} for i in ["q", "a", "b"]]
    assert (
        api.post(
            f"/api/collections/{pk}/clips/create/", {"clips": clips}, format="json"
        ).status_code
        == 201
    )
    assert (
        api.post(
            f"/api/collections/{pk}/queries/create/", {"clips": ["q"]}, format="json"
        ).status_code
        == 201
    )
    system = api.post(f"/api/collections/{pk}/systems/create/", {"name": "S"}, format="json").json()
    response = api.put(
        f"/api/collections/{pk}/systems/{system['id']}/run/replace/",
        {"rankings": {"q": ["b", "a"]}},
        format="json",
    )
    assert response.json() == {"entries": 2}
    response = api.post(
        f"/api/collections/{pk}/judgments/create/",
        {"judgments": [{"query": "q", "clip": "a", "fine": 70, "broad": 2}]},
        format="json",
    )
    assert response.json() == {
        "source": "api:olivia", "source_created": True, "created": 1, "updated": 0,
        "unchanged": 0, "kept": 0,
    }  # fmt: skip

    assert api.get(f"/api/collections/{pk}/systems/{system['id']}/run/").json() == {
        "system": "S",
        "rankings": {"q": ["b", "a"]},
    }
    judgments = api.get(f"/api/collections/{pk}/judgments/").json()
    assert judgments["count"] == 1
    assert judgments["results"][0] | {"updated_at": None} == {
        "query": "q", "clip": "a", "broad": 2, "fine": 70, "assessor": None,
        "source": "api:olivia", "updated_at": None,
    }  # fmt: skip
    detail = api.get(f"/api/collections/{pk}/").json()
    assert (detail["clip_count"], detail["query_count"], detail["system_count"]) == (3, 1, 1)


def test_sending_the_same_judgments_twice_changes_nothing_and_a_change_needs_replace(api, personas):
    pk = personas.collection.pk
    body = {"judgments": [{"query": "c1", "clip": "c2", "fine": 40}]}
    api.post(f"/api/collections/{pk}/judgments/create/", body, format="json")
    again = api.post(f"/api/collections/{pk}/judgments/create/", body, format="json").json()
    assert (again["created"], again["updated"], again["unchanged"]) == (0, 0, 1)
    body["judgments"][0]["fine"] = 45
    refused = api.post(f"/api/collections/{pk}/judgments/create/", body, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith(
        "1 judgment(s) already in source 'api:olivia' would change (judgment 1: c1 c2 Fine 40 → 45)"
    )
    assert RelevanceJudgment.objects.get().fine == 40
    body["replace"] = True
    response = api.post(f"/api/collections/{pk}/judgments/create/", body, format="json")
    assert (response.json()["created"], response.json()["updated"]) == (0, 1)
    assert RelevanceJudgment.objects.get().fine == 45


def test_a_run_naming_a_clip_of_another_collection_is_refused_with_its_id(api, personas):
    other = Collection.objects.create(name="Oscar's", owner=personas.other_organiser)
    other.clips.create(external_id="secret")
    system = personas.collection.systems.get()
    response = api.put(
        f"/api/collections/{personas.collection.pk}/systems/{system.pk}/run/replace/",
        {"rankings": {"c1": ["c2", "secret"]}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "No clip with these ids in the collection (runs): secret."}
    assert not RunEntry.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rankings": {"c1": ["c2", "c2"]}}, "Query c1: clip c2 is ranked twice."),
        ({"rankings": {"nope": ["c2"]}}, "No query with these ids in the collection: nope."),
    ],
)
def test_bad_runs_get_a_message_naming_the_problem(api, personas, body, message):
    system = personas.collection.systems.get()
    response = api.put(
        f"/api/collections/{personas.collection.pk}/systems/{system.pk}/run/replace/",
        body,
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["detail"] == message


def test_a_judgment_out_of_scale_is_refused_by_field(api, personas):
    response = api.post(
        f"/api/collections/{personas.collection.pk}/judgments/create/",
        {"judgments": [{"query": "c1", "clip": "c2", "fine": 101}]},
        format="json",
    )
    assert response.status_code == 400
    assert "fine" in str(response.json())


def test_a_duplicate_collection_name_is_a_clear_400(api):
    response = api.post("/api/collections/create/", {"name": "Tiny collection"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "You already have a collection named 'Tiny collection'."}


def test_an_organiser_gets_a_token_with_their_password_and_uses_it(personas):
    from tests.helpers.personas import PASSWORD

    response = APIClient().post(
        "/api/token/", {"username": personas.organiser.username, "password": PASSWORD}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/collections/").status_code == 200
    again = APIClient().post(
        "/api/token/", {"username": personas.organiser.username, "password": PASSWORD}
    )
    assert again.json()["token"] == token  # one token per organiser


def test_a_wrong_password_or_a_non_organiser_gets_no_token(personas):
    from tests.helpers.personas import PASSWORD

    wrong = APIClient().post(
        "/api/token/", {"username": personas.organiser.username, "password": "x"}
    )
    assert wrong.status_code == 400 and "wrong password" in wrong.json()["detail"]
    assessor = APIClient().post(
        "/api/token/", {"username": personas.assessor.username, "password": PASSWORD}
    )
    # The same answer as a wrong password: it must not tell that the account exists and
    # that the password was right (it used to be a 403 naming the missing role).
    assert (assessor.status_code, assessor.json()) == (400, wrong.json())
    unknown = APIClient().post("/api/token/", {"username": "nobody-at-all", "password": "x"})
    assert (unknown.status_code, unknown.json()) == (400, wrong.json())
