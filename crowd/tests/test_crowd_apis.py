"""The REST API of the crowd organiser's controls (crowd/apis.py): what the campaign
pages do, by token, on the organiser's own campaigns only."""

import pytest

from crowd.models import Answer, PreferenceCampaign, PreferenceTask, TrapQuestion, Worker
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import arrive, assert_consistent, make_campaign, work

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, trust_threshold=0.75)
    # The careless one first: each quiz question goes to one worker (issue 29), and the
    # pool's two go to them.
    careless, careful = arrive(campaign, "careless"), arrive(campaign, "careful")
    work(careless, miss_traps=True)
    work(careful, miss_traps=False)
    return campaign


def test_workers_are_listed_with_their_figures_and_paginated(personas, campaign):
    api = client_for(personas.organiser)
    page = api.get(f"/api/campaigns/{campaign.pk}/workers/?limit=1").json()
    assert page["count"] == 2 and page["next"] and len(page["results"]) == 1
    everyone = api.get(f"/api/campaigns/{campaign.pk}/workers/").json()["results"]
    careless = next(w for w in everyone if w["platform_id"] == "careless")
    assert (careless["status"], careless["stop_reason"]) == ("stopped", "low_trust")
    assert careless["trap_missed"] == careless["trap_answered"] - round(
        careless["trust"] * careless["trap_answered"]
    )
    assert careless["fast_answers"] == careless["answers"]  # answered in milliseconds
    assert careless["browser_bound"] is True
    stopped = api.get(f"/api/campaigns/{campaign.pk}/workers/?status=stopped").json()
    assert [w["platform_id"] for w in stopped["results"]] == ["careless"]


def test_exclude_reinstate_and_reset_a_worker(personas, campaign):
    api = client_for(personas.organiser)
    careful = Worker.objects.get(platform_id="careful")
    base = f"/api/campaigns/{campaign.pk}/workers/{careful.pk}"
    assert api.post(f"{base}/exclude/", {"reason": ""}, format="json").status_code == 400
    excluded = api.post(f"{base}/exclude/", {"reason": "bot"}, format="json").json()
    assert (excluded["status"], excluded["stop_reason"], excluded["stop_note"]) == (
        "stopped", "organiser", "bot",
    )  # fmt: skip
    assert not Answer.objects.filter(worker=careful, accepted_at__isnull=False).exists()
    again = api.post(f"{base}/reinstate/").json()
    assert again["status"] != "stopped" and again["trusted_by_organiser"] is True
    assert api.post(f"{base}/reinstate/").status_code == 400  # not stopped any more
    assert api.post(f"{base}/reset-browser/").json()["browser_bound"] is False
    assert_consistent(campaign)


def test_trap_questions_are_listed_marked_and_forgiven(personas, campaign):
    api = client_for(personas.organiser)
    traps = api.get(f"/api/campaigns/{campaign.pk}/traps/").json()
    assert len(traps) == 4 and {t["pool"] for t in traps} == {"quiz", "work"}
    most_missed = traps[0]
    assert most_missed["missed"] >= 1
    response = api.post(
        f"/api/campaigns/{campaign.pk}/traps/{most_missed['id']}/contest/",
        {"contested": True},
        format="json",
    )
    assert response.json()["workers_recomputed"] >= 1
    assert TrapQuestion.objects.get(pk=most_missed["id"]).contested
    example = campaign.examples.filter(trap__isnull=True).first()
    marked = api.post(
        f"/api/campaigns/{campaign.pk}/examples/{example.pk}/trap/",
        {"accepted_answers": ["both_bad"], "explanation": "Nothing alike.", "pool": "quiz"},
        format="json",
    )
    assert marked.status_code == 201 and marked.json()["pool"] == "quiz"
    bad = api.post(
        f"/api/campaigns/{campaign.pk}/examples/{example.pk}/trap/",
        {"accepted_answers": ["c_better"]},
        format="json",
    )
    assert bad.status_code == 400
    assert_consistent(campaign)


def test_a_campaign_is_created_given_examples_closed_and_reopened(personas, crowd_collection):
    api = client_for(personas.organiser)
    created = api.post(
        f"/api/collections/{crowd_collection.pk}/campaigns/create/",
        {"name": "Pilot", "quiz_length": 0, "min_seconds_on_task": 8, "listening_check": True},
        format="json",
    )
    assert created.status_code == 201, created.json()
    campaign = PreferenceCampaign.objects.get(name="Pilot")
    assert (campaign.min_seconds_on_task, campaign.fast_answer_seconds) == (8, 10)
    s1, s2 = crowd_collection.systems.order_by("name")[:2]
    added = api.post(
        f"/api/campaigns/{campaign.pk}/examples/from-systems/",
        {"system_a": s1.pk, "system_b": s2.pk},
        format="json",
    )
    assert added.json() == {"created": 4}
    csv = "query,list_a,list_b,accepted_answers,explanation,pool\nq1,d01 d02 d03 d04 d05,d20 d21 d22 d23 d24,a_better,Obvious.,quiz\n"
    assert api.post(
        f"/api/campaigns/{campaign.pk}/examples/from-csv/", {"csv": csv}, format="json"
    ).json() == {"created": 1}
    broken = api.post(
        f"/api/campaigns/{campaign.pk}/examples/from-csv/", {"csv": csv.replace("d05", "zz")},
        format="json",
    )  # fmt: skip
    assert broken.status_code == 400 and "line 2" in broken.json()["detail"]
    closed = api.post(f"/api/campaigns/{campaign.pk}/open/", {"is_open": False}, format="json")
    assert closed.json()["is_open"] is False
    campaign.refresh_from_db()
    assert not campaign.is_open
    # 4 ordinary examples at the default trap rate 0.1 need ceil(4 * 0.1 / 0.9) = 1 work
    # trap question (campaign_pool_needs) and the pool has none: not reopened.
    refused = api.post(f"/api/campaigns/{campaign.pk}/open/", {"is_open": True}, format="json")
    assert refused.status_code == 400
    assert "has 0 trap questions and needs 1" in refused.json()["detail"]
    campaign.refresh_from_db()
    assert not campaign.is_open
    example = campaign.examples.filter(trap__isnull=True).order_by("pk").first()
    marked = api.post(
        f"/api/campaigns/{campaign.pk}/examples/{example.pk}/trap/",
        {"accepted_answers": ["a_better"]},
        format="json",
    )
    assert marked.status_code in (200, 201), marked.json()
    api.post(f"/api/campaigns/{campaign.pk}/open/", {"is_open": True}, format="json")
    campaign.refresh_from_db()
    assert campaign.is_open


def test_answers_say_whether_they_were_fast_and_how_many_clips_were_heard(personas, campaign):
    api = client_for(personas.organiser)
    careful = Worker.objects.get(platform_id="careful")
    answers = api.get(f"/api/campaigns/{campaign.pk}/answers/?worker={careful.pk}").json()
    assert answers["count"] == careful.answers.count() > 0
    assert all(a["fast"] and a["clips_heard"] == 0 and a["worker"] == "careful"
               for a in answers["results"])  # fmt: skip


@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "workers/"),
        ("post", "workers/{w}/exclude/"),
        ("post", "workers/{w}/reinstate/"),
        ("post", "workers/{w}/reset-browser/"),
        ("get", "traps/"),
        ("post", "traps/{t}/contest/"),
        ("post", "examples/{e}/trap/"),
        ("post", "examples/from-systems/"),
        ("post", "examples/from-csv/"),
        ("post", "open/"),
    ],
)
def test_another_organisers_campaign_is_not_found(personas, campaign, method, path):
    worker = Worker.objects.filter(campaign=campaign).first()
    trap = TrapQuestion.objects.filter(example__campaign=campaign).first()
    url = f"/api/campaigns/{campaign.pk}/" + path.format(w=worker.pk, t=trap.pk, e=trap.example_id)
    api = client_for(personas.other_organiser)
    body = {"reason": "x", "contested": True, "is_open": False, "accepted_answers": ["a_better"],
            "csv": "query,list_a,list_b\n", "system_a": 1, "system_b": 2}  # fmt: skip
    response = getattr(api, method)(url, body, format="json") if method == "post" else api.get(url)
    assert response.status_code == 404
    assert (
        client_for(personas.assessor).get(f"/api/campaigns/{campaign.pk}/workers/").status_code
        == 403
    )
    worker.refresh_from_db()
    assert worker.browser_key and PreferenceTask.objects.exists()
