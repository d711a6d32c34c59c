"""Pages of low-cost campaigns: creating one, its live estimates, stopping it, the assessor's
pages, and the estimated leaderboards on the results side."""

import pytest

from catalog.models import RelevanceJudgment
from evaluation.services.estimates import campaign_estimate_compute
from evaluation.services.results import collection_results_compute
from relevance.models import Assignment, RelevanceCampaign
from relevance.services.campaigns import assignment_next
from tests.helpers.clients import client_for
from tests.helpers.lowcost_campaign_data import (
    CONFIDENT_AFTER,
    assessors_campaign,
    import_judgment,
    judge,
    organisers_collection,
)
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_campaign

pytestmark = pytest.mark.django_db


collection = pytest.fixture(name="collection")(organisers_collection)
campaign = pytest.fixture(name="campaign")(assessors_campaign)


def as_(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def estimates_url(campaign, fragment=True):
    return f"/relevance-campaigns/{campaign.pk}/estimates/" + ("?fragment=1" if fragment else "")


FORM = {
    "name": "By form",
    "cutoff": 2,
    "assessors_per_query": 1,
    "must_listen_seconds": 5,
    "take_back_minutes": 60,
    "mode": "lowcost",
    "lowcost_measure": "nDCG@2",
    "lowcost_target": "relative",
    "lowcost_stop_at": 0.9,
}


def test_an_organiser_creates_a_lowcost_campaign_with_the_form(client, personas, collection):
    data = {**FORM, "collection": collection.pk, "assessors": [personas.assessor.pk]}
    response = as_(client, personas.organiser).post("/relevance-campaigns/new/", data)
    campaign = RelevanceCampaign.objects.get(name="By form")
    assert response.status_code == 302 and response["Location"] == campaign.get_absolute_url()
    assert (campaign.mode, campaign.lowcost_measure, campaign.lowcost_stop_at) == (
        "lowcost",
        "nDCG(scale=fine)@2",  # the scale named, as the leaderboards name measures
        0.9,
    )
    assert Assignment.objects.filter(campaign=campaign, pool_entry__isnull=False).count() == 12


def test_the_form_names_the_field_of_a_careless_setting_and_keeps_what_was_typed(
    client, personas, collection
):
    data = {**FORM, "collection": collection.pk, "lowcost_measure": "P@2", "name": "Typed"}
    response = as_(client, personas.organiser).post("/relevance-campaigns/new/", data)
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["lowcost_measure"]
    assert "defines CG, DCG, nDCG, RBP" in form.errors["lowcost_measure"][0]
    assert b'value="Typed"' in response.content
    assert not RelevanceCampaign.objects.exists()


def test_markup_typed_as_a_measure_comes_back_as_text(client, personas, collection):
    hostile = "<script>alert(1)</script>@2"
    data = {**FORM, "collection": collection.pk, "lowcost_measure": hostile}
    text = as_(client, personas.organiser).post("/relevance-campaigns/new/", data).content
    assert b"<script>alert(1)" not in text and b"&lt;script&gt;alert(1)" in text
    assert not RelevanceCampaign.objects.exists()


def test_the_form_without_the_lowcost_fields_makes_a_pooled_campaign(client, personas, collection):
    data = {key: value for key, value in FORM.items() if not key.startswith(("mode", "lowcost"))}
    as_(client, personas.organiser).post(
        "/relevance-campaigns/new/", {**data, "collection": collection.pk}
    )
    assert RelevanceCampaign.objects.get().mode == "pooled"  # fmt: skip


def test_on_a_broad_only_collection_the_form_offers_a_broad_measure_and_says_why(
    client, personas, collection
):
    """Issue 31, item 6: a collection of TREC qrels (Broad only) would be estimated on Fine,
    where none of its judgments count."""
    for clip_id in ("g1", "p1"):
        import_judgment(collection, "q1", clip_id, fine=100 if clip_id == "g1" else 0)
    RelevanceJudgment.objects.filter(query__collection=collection).update(fine=None)
    organiser = as_(client, personas.organiser)
    page = organiser.get(f"/relevance-campaigns/new/?collection={collection.pk}").content.decode()
    assert 'value="CG(scale=broad)@5"' in page
    assert "are on the Broad scale only: on it they count from the first estimate" in page
    data = {k: v for k, v in FORM.items() if k != "lowcost_measure"}
    response = organiser.post("/relevance-campaigns/new/", {**data, "collection": collection.pk})
    assert response.status_code == 302, response.context["form"].errors
    campaign = RelevanceCampaign.objects.get(name="By form")
    assert campaign.lowcost_measure == "CG(scale=broad)@2"  # at the form's cut-off, 2
    campaign_estimate_compute(target_id=campaign.pk)
    text = organiser.get(estimates_url(campaign)).content.decode()
    # The two imported Broad judgments count (12 pairs in the pool: 3 queries × g, s, m, p).
    assert "Estimated from 2 judged pairs of 12" in text, text
    assert "No judgments yet." not in text


def test_the_campaign_page_embeds_the_live_estimates_and_a_stop_button(client, personas, campaign):
    response = as_(client, personas.organiser).get(campaign.get_absolute_url())
    text = response.content.decode()
    assert f'data-url="{estimates_url(campaign)}"' in text
    assert "Stop the campaign" in text and "Low-cost campaign" in text
    assert "lowcost_campaign.js" in text


def test_a_pooled_campaign_page_has_no_estimates(client, personas):
    pooled = make_campaign(personas)
    text = as_(client, personas.organiser).get(pooled.get_absolute_url()).content.decode()
    assert "Stop the campaign" not in text and "estimates" not in text
    assert as_(client, personas.organiser).get(estimates_url(pooled)).status_code == 404


def test_the_estimates_go_from_none_to_not_yet_to_confident(client, personas, campaign):
    organiser = as_(client, personas.organiser)
    assert b"No estimates yet" in organiser.get(estimates_url(campaign)).content
    campaign_estimate_compute(target_id=campaign.pk)
    text = organiser.get(estimates_url(campaign)).content.decode()
    # Issue 31: with no judgment the model's expectations are no result ("MidFi better than
    # GoodEar, confidence 0.948"): said so, and folded away.
    assert "No judgments yet." in text and "Judgments made: <strong>0</strong> of 12" in text
    assert "Not confident yet." not in text and "Confident." not in text
    assert "What the relevance model expects before anyone has listened" in text
    judge(assignment_next(campaign=campaign, assessor=personas.assessor), personas.assessor)
    campaign_estimate_compute(target_id=campaign.pk)
    text = organiser.get(estimates_url(campaign)).content.decode()
    assert "Not confident yet." in text and "Judgments made: <strong>1</strong> of 12" in text
    assert "GoodEar" in text and "Confidence per pair of systems" in text
    for _ in range(CONFIDENT_AFTER - 1):
        judge(assignment_next(campaign=campaign, assessor=personas.assessor), personas.assessor)
    text = organiser.get(estimates_url(campaign)).content.decode()
    assert "4 newer judgments not in them yet (updating)" in text  # stale, and says so
    campaign_estimate_compute(target_id=campaign.pk)
    text = organiser.get(estimates_url(campaign)).content.decode()
    assert "Confident." in text and "you can stop the campaign" in text
    assert "newer judgment" not in text
    full = organiser.get(estimates_url(campaign, fragment=False))
    assert full.status_code == 200 and b"<h1>Estimates of Low-cost 2025</h1>" in full.content


def test_no_judgment_never_reads_as_confident_even_when_the_model_alone_meets_the_rule(
    client, personas, campaign
):
    from evaluation.models import CampaignEstimate

    campaign_estimate_compute(target_id=campaign.pk)
    estimate = CampaignEstimate.objects.get(campaign=campaign)
    assert estimate.judged == 0
    stopping = {**estimate.payload["stopping"], "value": 0.99, "stop": True}
    estimate.payload = {**estimate.payload, "stopping": stopping}
    estimate.save(update_fields=["payload"])
    text = as_(client, personas.organiser).get(estimates_url(campaign)).content.decode()
    assert "No judgments yet." in text and "Confident." not in text
    assert "you can stop the campaign" not in text


@pytest.mark.parametrize("who", ["other_organiser", "assessor"])
def test_only_the_organiser_sees_the_estimates(client, personas, campaign, who):
    campaign_estimate_compute(target_id=campaign.pk)
    status = as_(client, getattr(personas, who)).get(estimates_url(campaign)).status_code
    assert status == (404 if who == "other_organiser" else 403)


def test_the_organiser_stops_the_campaign_from_its_page(client, personas, campaign):
    organiser = as_(client, personas.organiser)
    page = organiser.get(campaign.get_absolute_url()).content.decode()
    stop = f'action="/relevance-campaigns/{campaign.pk}/open/"'
    assert stop in page and 'name="is_open" value="0"' in page
    response = organiser.post(
        f"/relevance-campaigns/{campaign.pk}/open/", {"is_open": "0"}, follow=True
    )
    campaign.refresh_from_db()
    assert not campaign.is_open
    assert "is closed" in response.content.decode()
    assert "Stop the campaign" not in organiser.get(campaign.get_absolute_url()).content.decode()


def test_only_a_lowcost_campaigns_settings_page_offers_its_measure_and_stop(
    client, personas, campaign
):
    organiser = as_(client, personas.organiser)
    page = organiser.get(f"/relevance-campaigns/{campaign.pk}/settings/").content.decode()
    assert 'name="lowcost_measure"' in page and 'name="lowcost_stop_at"' in page
    pooled = make_campaign(personas)
    page = organiser.get(f"/relevance-campaigns/{pooled.pk}/settings/").content.decode()
    assert 'name="lowcost_measure"' not in page and 'name="take_back_minutes"' in page


def test_another_organiser_cannot_stop_it(client, personas, campaign):
    url = f"/relevance-campaigns/{campaign.pk}/open/"
    assert as_(client, personas.other_organiser).post(url, {"is_open": "0"}).status_code == 404
    campaign.refresh_from_db()
    assert campaign.is_open


def test_the_assessor_gets_single_pairs(client, personas, campaign):
    assessor = as_(client, personas.assessor)
    home = assessor.get("/").content.decode()
    # before the first pair: how to start (it said "Pairs done 0 of 0 assigned": issue 25)
    assert "Get next pair" in home and "ask for your first pair" in home
    response = assessor.post(f"/judge/campaigns/{campaign.pk}/next/")
    work = Assignment.objects.get(assessor=personas.assessor)
    assert response["Location"] == work.get_absolute_url()
    page = assessor.get(work.get_absolute_url()).content.decode()
    assert page.count('<section class="candidate') == 1 and "Candidates done <strong" in page
    assert "Get next pair" in page and "Pairs done" in page


# --- The results side ----------------------------------------------------------------------


def test_results_list_the_estimated_leaderboards_clearly_labelled(client, personas, collection):
    import_judgment(collection, "q1", "g1", 100)
    import_judgment(collection, "q2", "p2", 0)
    collection_results_compute(target_id=collection.pk)
    organiser = as_(client, personas.organiser)
    overview = organiser.get(f"/collections/{collection.pk}/results/").content.decode()
    assert "Estimated leaderboard of CG(scale=fine)@5" in overview
    page = organiser.get(
        f"/collections/{collection.pk}/results/estimated/?measure=CG%28scale%3Dfine%29%405"
    )
    text = page.content.decode()
    assert "<h1>Estimated leaderboard: CG(scale=fine)@5</h1>" in text
    assert "These are estimates." in text and "12 ranked pairs, 2 of them judged" in text
    assert "ordinary leaderboard" in text
    missing = f"/collections/{collection.pk}/results/estimated/?measure=P%405"
    assert organiser.get(missing).status_code == 404
    other = as_(client, personas.other_organiser)
    assert (
        other.get(f"/collections/{collection.pk}/results/estimated/?measure=x").status_code == 404
    )


# --- The REST API ------------------------------------------------------------------------


def test_the_api_creates_a_lowcost_campaign_and_changes_its_stop(personas, collection):
    api = client_for(personas.organiser)
    body = {"collection": collection.pk, "name": "API low-cost", "cutoff": 2,
            "mode": "lowcost", "lowcost_measure": "DCG@2", "assessors": ["ada"]}  # fmt: skip
    created = api.post("/api/relevance-campaigns/create/", body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert (data["mode"], data["lowcost_measure"], data["lowcost_stop_at"]) == (
        "lowcost",
        "DCG(scale=fine)@2",
        0.95,
    )
    deeper = api.post("/api/relevance-campaigns/create/",
                      {**body, "name": "Too deep", "lowcost_measure": "DCG@3"}, format="json")  # fmt: skip
    assert deeper.status_code == 400 and "top 3 but the pool holds" in str(deeper.json())
    url = f"/api/relevance-campaigns/{data['id']}/settings/update/"
    changed = api.post(url, {"lowcost_stop_at": 0.9}, format="json")
    assert changed.status_code == 200 and changed.json()["lowcost_stop_at"] == 0.9
    refused = api.post(url, {"assessors_per_query": 2}, format="json")
    assert refused.status_code == 400 and "judges each pair once" in str(refused.json())
