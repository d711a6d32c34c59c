"""The REST API does what the organiser pages do: collections, sharing, people, campaign
settings, the generator and its job, results settings. Who may call what is
tests/test_permission_matrix.py; here, what the calls do and their clear 400s."""

from __future__ import annotations

import math

import pytest

from catalog.models import Collection, CollectionShare
from common.roles import ORGANISER
from evaluation.models import ResultsConfig
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import make_user
from tests.helpers.relevance_data import make_assessor
from work import job_runners
from work.models import Job

pytestmark = pytest.mark.django_db
CG = "CG(scale=fine)@5"


@pytest.fixture
def api(personas):
    return client_for(personas.organiser)


def test_a_collection_is_renamed_archived_and_shared_through_the_api(api, personas):
    pk = personas.collection.pk
    renamed = api.post(f"/api/collections/{pk}/update/", {"name": "Renamed"}, format="json")
    assert renamed.json()["name"] == "Renamed"
    archived = api.post(f"/api/collections/{pk}/archive/", {"archived": True}, format="json")
    assert archived.json()["archived_at"] is not None
    make_user("rita", ORGANISER)
    shared = api.post(
        f"/api/collections/{pk}/shares/create/",
        {"username": "rita", "access": "read"},
        format="json",
    )
    assert shared.status_code == 201 and shared.json()["access"] == "read"
    assert [s["username"] for s in api.get(f"/api/collections/{pk}/shares/").json()] == ["rita"]
    bad = api.post(
        f"/api/collections/{pk}/shares/create/",
        {"username": "ada", "access": "read"},
        format="json",
    )
    assert bad.status_code == 400 and "not an organiser" in bad.json()["detail"]
    gone = api.post(f"/api/collections/{pk}/shares/delete/", {"username": "rita"}, format="json")
    assert gone.json() == {"removed": True} and not CollectionShare.objects.exists()


def test_a_shared_collection_is_listed_for_its_co_organiser(personas):
    rita = make_user("rita", ORGANISER)
    CollectionShare.objects.create(collection=personas.collection, user=rita, access="read")
    Collection.objects.create(name="Not hers", owner=personas.other_organiser)
    names = [c["name"] for c in client_for(rita).get("/api/collections/").json()]
    assert names == ["Tiny collection"]


def test_the_clip_list_searches_like_the_page(api, personas):
    response = api.get(f"/api/collections/{personas.collection.pk}/clips/?q=CLIP 2")
    assert [c["external_id"] for c in response.json()["results"]] == ["c2"]


def test_an_assessor_is_created_with_an_invitation_link_and_listed(api, personas):
    made = api.post("/api/people/create/", {"username": "bea"}, format="json").json()
    assert made["role"] == "assessor" and "/invitation/" in made["invitation"]["url"]
    people = {p["username"]: p for p in api.get("/api/people/").json()}
    assert people["bea"]["can_log_in"] is False and people["bea"]["invitation_expires_at"]
    refused = api.post(
        "/api/people/create/", {"username": "boss", "role": "organiser"}, format="json"
    )
    assert refused.status_code == 403


def test_a_relevance_campaign_is_created_changed_and_followed_through_the_api(api, personas):
    from tests.helpers.relevance_data import make_judging_collection

    collection = make_judging_collection(personas.organiser)
    bea = make_assessor("bea", owner=personas.organiser)
    created = api.post("/api/relevance-campaigns/create/",
                       {"collection": collection.pk, "name": "API study", "cutoff": 3,
                        "assessors": ["ada"]}, format="json")  # fmt: skip
    assert created.status_code == 201 and created.json()["assessors"] == ["ada"]
    pk = created.json()["id"]
    unknown = api.post("/api/relevance-campaigns/create/",
                       {"collection": collection.pk, "name": "x", "assessors": ["nobody"]}, format="json")  # fmt: skip
    assert (
        unknown.status_code == 400 and "No assessor is called nobody." in unknown.json()["detail"]
    )
    api.post(
        f"/api/relevance-campaigns/{pk}/assessors/add/", {"username": bea.username}, format="json"
    )
    changed = api.post(
        f"/api/relevance-campaigns/{pk}/settings/update/", {"assessors_per_query": 2}, format="json"
    )
    assert changed.json()["assessors_per_query"] == 2
    refused = api.post(
        f"/api/relevance-campaigns/{pk}/settings/update/", {"take_back_minutes": 0}, format="json"
    )
    assert refused.status_code == 400 and "Between 1 minute" in str(refused.json())
    closed = api.post(f"/api/relevance-campaigns/{pk}/open/", {"is_open": False}, format="json")
    assert closed.json()["is_open"] is False
    detail = api.get(f"/api/relevance-campaigns/{pk}/").json()
    assert sorted(r["assessor"] for r in detail["progress"]) == ["ada", "bea"]
    assert (
        detail["agreement"]["pairs"] == 0 and detail["agreement"]["alpha_fine"] is None
    )  # NaN → null
    removed = api.post(
        f"/api/relevance-campaigns/{pk}/assessors/remove/", {"username": "bea"}, format="json"
    )
    assert removed.json() == {"freed": 0, "reopened": 0}


def test_agreement_numbers_come_back_as_numbers(api, personas):
    from relevance.services.campaigns import judgment_save
    from tests.helpers.relevance_data import two_assessors_on_one_query

    campaign, ada_work, bea_work = two_assessors_on_one_query(
        personas, personas.assessor, make_assessor("bea")
    )
    for work, fines in ((ada_work, [90, 60, 10, 45]), (bea_work, [80, 40, 20, 70])):
        entries = campaign.pool.filter(query=work.query).order_by("clip__external_id")
        for entry, fine in zip(entries, fines, strict=True):
            judgment_save(
                assignment=work, assessor=work.assessor, pool_entry=entry, fine=fine, broad=1
            )
    agreement = api.get(f"/api/relevance-campaigns/{campaign.pk}/").json()["agreement"]
    assert agreement["pairs"] == 4 and math.isfinite(agreement["alpha_fine"])


def test_preference_settings_are_read_and_changed_with_the_pages_checks(api, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=1, quiz_length=1, trap_rate=0.1)
    settings = api.get(f"/api/campaigns/{campaign.pk}/settings/").json()
    assert settings["list_length"] == 5 and settings["quiz_length"] == 1
    changed = api.post(
        f"/api/campaigns/{campaign.pk}/settings/update/", {"trust_threshold": 0.9}, format="json"
    )
    assert changed.json()["trust_threshold"] == 0.9
    wrong = api.post(f"/api/campaigns/{campaign.pk}/settings/update/",
                     {"completion_code": "X1", "screen_out_code": "X1"}, format="json")  # fmt: skip
    assert wrong.status_code == 400 and "screen-out code must differ" in str(wrong.json())
    fixed = api.post(
        f"/api/campaigns/{campaign.pk}/settings/update/", {"list_length": 3}, format="json"
    )
    assert fixed.status_code == 200 and fixed.json()["list_length"] == 5  # not a setting: ignored


def test_the_generator_runs_as_a_job_followed_through_the_api(
    api, crowd_collection, handed_over, django_capture_on_commit_callbacks
):
    campaign = make_campaign(crowd_collection, traps=0)
    coverage = api.get(
        f"/api/campaigns/{campaign.pk}/generator/coverage/?measure={CG}&bin=0&bin=1"
    ).json()
    assert [c["status"] for c in coverage[0]["cells"]][2] == "not chosen"
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/campaigns/{campaign.pk}/generator/run/",
                           {"measures": [CG], "bins": [0, 1], "per_bin": 2}, format="json")  # fmt: skip
        again = api.post(
            f"/api/campaigns/{campaign.pk}/generator/run/", {"measures": [CG]}, format="json"
        )
    assert started.status_code == 202 and again.json()["id"] == started.json()["id"]
    assert len(handed_over) == 1
    bad = api.post(
        f"/api/campaigns/{campaign.pk}/generator/run/", {"measures": ["nDCG@5"]}, format="json"
    )
    assert bad.status_code == 400 and "user-oriented" in bad.json()["detail"]
    job_runners.job_run(job_id=started.json()["id"])
    job = api.get(f"/api/jobs/{started.json()['id']}/").json()
    assert job["state"] == "done" and job["result"]["added"] > 0 and job["fraction"] == 1.0
    assert api.post(f"/api/jobs/{job['id']}/cancel/").json()["state"] == "done"  # too late
    assert Job.objects.count() == 1


def test_results_settings_are_read_and_changed_through_the_api(api, crowd_collection, monkeypatch):
    from evaluation.services import recompute

    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: None)
    url = f"/api/collections/{crowd_collection.pk}/results/settings/"
    assert api.get(url).json()["test"] == "bootstrap"  # the defaults
    saved = api.post(
        url + "update/", {"measures": [CG], "adjustment": "bonferroni"}, format="json"
    ).json()
    assert (
        saved["changed"] == ["measures", "adjustment"] and saved["recompute"]["status"] == "pending"
    )
    # the words of before issue 30 for clients that read them, and work's own beside them
    assert (saved["recompute"]["state"], saved["recompute"]["progress"]) == ("queued", 0.0)
    assert ResultsConfig.objects.get().adjustment == "bonferroni"
    wrong = api.post(url + "update/", {"reliability_target": 1.5}, format="json")
    assert wrong.status_code == 400 and "above 0 and below 1" in str(wrong.json())
    campaign = make_campaign(crowd_collection, traps=0)
    mapping = api.post(
        f"/api/campaigns/{campaign.pk}/mapping/settings/update/", {"measures": [CG]}, format="json"
    )
    assert mapping.json()["changed"] is True and mapping.json()["measures"] == [CG]
