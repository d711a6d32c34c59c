"""Expert-ranking campaigns through their pages: the organiser creates one, experts rank
through the ranking page's JSON endpoint, the campaign page shows rankings, groups and
Kendall's W; and the attacks on those pages."""

import pytest
from django.test import Client

from catalog.models import OrderedGroupEntry
from relevance.models import RankedCandidate, RelevanceCampaign
from relevance.services.campaigns import assignment_next, relevance_campaign_create
from tests.helpers.clients import as_, post_json
from tests.helpers.ordered_groups import groups_collection
from tests.helpers.rankings import (
    make_ranking_campaign,
    next_ranking,
    order_by_clip,
    study_orders,
)
from tests.helpers.relevance_data import make_assessor, make_judging_collection

pytestmark = pytest.mark.django_db


def groups_in(source, query) -> list[list[str]]:
    groups: list[list[str]] = []
    rows = OrderedGroupEntry.objects.filter(source=source, query=query).order_by(
        "group", "clip__external_id"
    )
    for clip, group in rows.values_list("clip__external_id", "group"):
        if len(groups) < group:
            groups.append([])
        groups[group - 1].append(clip)
    return groups


def test_an_organiser_creates_a_campaign_from_its_new_page(client, personas):
    collection = make_judging_collection(personas.organiser)
    qa1 = collection.queries.get(clip__external_id="qa1")
    page = as_(client, personas.organiser).get("/ranking-campaigns/new/").content.decode()
    assert "Typke et al. 2005" in page and "Urbano et al. 2010" in page
    response = client.post(
        "/ranking-campaigns/new/",
        {
            "collection": collection.pk, "name": "Experts", "cutoff": 3,
            "assessors_per_query": 2, "must_listen_seconds": 5, "take_back_minutes": 60,
            "assessors": [personas.assessor.pk], "grouping_rule": "prev",
            "grouping_alpha": 0.1, "queries": "qa1", "groups_source": "expert groups",
            "groups_status": "official",
        },
    )  # fmt: skip
    campaign = RelevanceCampaign.objects.get(name="Experts")
    assert (
        response.status_code == 302
        and response["Location"] == f"/relevance-campaigns/{campaign.pk}/"
    )
    assert (campaign.mode, campaign.grouping_rule, campaign.grouping_alpha) == (
        "ranking",
        "prev",
        0.1,
    )
    assert (campaign.source.name, campaign.source.status, campaign.source.kind) == (
        "expert groups",
        "official",
        "groups",
    )
    assert set(campaign.assignments.values_list("query", flat=True)) == {qa1.pk}
    page = client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    assert "Rankings and groups per query" in page and "0 of 2" in page
    assert "the candidate just above it" in page


def test_the_new_page_names_unknown_queries_and_a_source_name_in_use(client, personas):
    collection = make_judging_collection(personas.organiser)
    values = {
        "collection": collection.pk, "name": "Experts", "cutoff": 3, "assessors_per_query": 1,
        "must_listen_seconds": 5, "take_back_minutes": 60, "grouping_rule": "all",
        "grouping_alpha": 0.25, "groups_status": "pilot",
    }  # fmt: skip
    page = as_(client, personas.organiser).post(
        "/ranking-campaigns/new/", {**values, "queries": "qa1 nope, qz9"}
    )
    assert "has no query nope, qz9" in page.content.decode()
    client.post("/ranking-campaigns/new/", values)
    again = client.post("/ranking-campaigns/new/", {**values, "name": "Experts"})
    assert "already has judgments called “Experts”" in again.content.decode()
    assert RelevanceCampaign.objects.count() == 1
    # α outside (0.001, 0.5) is refused by the form
    wild = client.post("/ranking-campaigns/new/", {**values, "name": "x", "grouping_alpha": 2})
    assert wild.status_code == 200 and RelevanceCampaign.objects.count() == 1


def test_another_organisers_campaign_and_collection_are_out_of_reach(client, personas):
    campaign = make_ranking_campaign(personas)
    other = as_(client, personas.other_organiser)
    assert other.get(f"/relevance-campaigns/{campaign.pk}/").status_code == 404
    response = other.post(
        "/ranking-campaigns/new/",
        {"collection": campaign.collection.pk, "name": "Mine now", "cutoff": 3,
         "assessors_per_query": 1, "must_listen_seconds": 0, "take_back_minutes": 60,
         "grouping_rule": "all", "grouping_alpha": 0.25, "groups_status": "official"},
    )  # fmt: skip
    assert response.status_code == 200 and RelevanceCampaign.objects.count() == 1


def test_the_ranking_page_shows_numbered_candidates_with_players_and_move_buttons(client, personas):
    campaign = make_ranking_campaign(personas, must_listen_seconds=5)
    assignment, _ = next_ranking(campaign, personas.assessor)
    page = as_(client, personas.assessor).get(f"/judge/assignments/{assignment.pk}/")
    text = page.content.decode()
    assert "Put the candidates in order" in text
    for number in range(1, 5):
        assert f'aria-label="Move up: candidate {number}"' in text
        assert f'aria-label="Candidate {number} clip"' in text
    assert "Broad" not in text  # no scales here
    for clip in ("c1", "a2", "b1", "c3"):  # nothing names the clips
        assert f">{clip}<" not in text


def test_the_page_saves_then_submits_and_a_replay_changes_nothing(client, personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    url = f"/judge/assignments/{assignment.pk}/ranking"
    as_(client, personas.assessor)
    saved = post_json(client, url, {"order": order[::-1]})
    assert saved.status_code == 200 and saved.json() == {"saved": True, "submitted": False}
    submitted = post_json(client, url, {"order": order[::-1], "submit": True})
    assert submitted.json() == {"saved": True, "submitted": True, "rankings": 1, "groups": 1}
    rows = list(RankedCandidate.objects.values_list("pk", "position", "submitted_position"))
    assert post_json(client, url, {"order": order[::-1], "submit": True}).json() == (
        submitted.json()
    )
    assert list(RankedCandidate.objects.values_list("pk", "position", "submitted_position")) == rows


@pytest.mark.parametrize(
    "body",
    [
        {"order": "1,2,3"},
        {"order": [1.5, 2]},
        {"order": [True]},
        {"order": [-1]},
        {"order": [2**63]},
        {"order": list(range(1, 1002))},
        ["not", "an", "object"],
    ],
)
def test_a_malformed_order_is_a_400_with_a_message(client, personas, body):
    campaign = make_ranking_campaign(personas)
    assignment, _ = next_ranking(campaign, personas.assessor)
    response = post_json(
        as_(client, personas.assessor), f"/judge/assignments/{assignment.pk}/ranking", body
    )
    assert response.status_code == 400 and "list of candidates" in response.json()["detail"]


def test_a_ranking_naming_a_clip_of_another_query_is_a_400(client, personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    stranger = campaign.pool.exclude(query=assignment.query).first()
    response = post_json(
        as_(client, personas.assessor), f"/judge/assignments/{assignment.pk}/ranking",
        {"order": [*order[:-1], stranger.pk], "submit": True},
    )  # fmt: skip
    assert response.status_code == 400 and "not a candidate" in response.json()["detail"]
    assert not RankedCandidate.objects.exists()


def test_an_assessor_not_invited_reaches_no_ranking(client, personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    otto = make_assessor("otto")
    as_(client, otto)
    assert client.post(f"/judge/campaigns/{campaign.pk}/next/").status_code == 404
    assert client.get(f"/judge/assignments/{assignment.pk}/").status_code == 404
    response = post_json(
        client, f"/judge/assignments/{assignment.pk}/ranking", {"order": order, "submit": True}
    )
    assert response.status_code == 409
    assert not RankedCandidate.objects.exists()


def test_a_submission_needs_the_csrf_token(personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    client = as_(Client(enforce_csrf_checks=True), personas.assessor)
    response = post_json(client, f"/judge/assignments/{assignment.pk}/ranking", {"order": order})
    assert response.status_code == 403 and not RankedCandidate.objects.exists()


def test_the_judging_endpoint_takes_no_scores_into_the_groups_source(client, personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    response = post_json(
        as_(client, personas.assessor), f"/judge/assignments/{assignment.pk}/judgments",
        {"candidate": order[0], "broad": 2, "fine": 90},
    )  # fmt: skip
    assert response.status_code == 400 and "takes no scores" in response.json()["detail"]


@pytest.mark.parametrize(
    ("alpha", "expected"),
    [
        (0.05, [["d1"], ["d2", "d3"], ["d4", "d5"]]),
        (0.25, [["d1"], ["d2"], ["d3"], ["d4", "d5"]]),
    ],
)
def test_31_experts_ranking_through_the_page_give_the_groups_worked_out_from_scipy(
    client, personas, alpha, expected
):
    # tests/helpers/rankings.py: STUDY_31 with scipy's p-values and the groups by hand
    collection = groups_collection(owner_name=personas.organiser.username)
    q1 = collection.queries.get(clip__external_id="q1")
    experts = [make_assessor(f"expert{n}", owner=personas.organiser) for n in range(31)]
    campaign = relevance_campaign_create(
        collection=collection, name="31 experts", mode=RelevanceCampaign.RANKING, cutoff=3,
        exclude_same_artist=False, must_listen_seconds=0, assessors_per_query=31,
        assessors=experts, queries=[q1.pk], grouping_alpha=alpha,
    )  # fmt: skip
    for expert, clips in zip(experts, study_orders(), strict=True):
        assignment = assignment_next(campaign=campaign, assessor=expert)
        client.force_login(expert)
        response = post_json(
            client, f"/judge/assignments/{assignment.pk}/ranking",
            {"order": order_by_clip(assignment, clips), "submit": True},
        )  # fmt: skip
        assert response.status_code == 200, response.content
    assert response.json()["rankings"] == 31
    assert groups_in(campaign.source, q1) == expected
    client.force_login(personas.organiser)
    page = client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    assert "31 of 31" in page


def test_the_campaign_page_shows_kendalls_w_of_two_experts(client, personas):
    # Two experts on qa1's four candidates: c1 a2 b1 c3 and a2 c1 b1 c3. Rank sums
    # c1 3, a2 3, b1 6, c3 8; mean m(n+1)/2 = 5; S = 4 + 4 + 1 + 9 = 18;
    # W = 12·18 / (2²·(4³ − 4)) = 216/240 = 0.90
    bea = make_assessor("bea", owner=personas.organiser)
    campaign = make_ranking_campaign(
        personas, assessors=[personas.assessor, bea], assessors_per_query=2, query_names=["qa1"]
    )
    for assessor, clips in (
        (personas.assessor, ["c1", "a2", "b1", "c3"]),
        (bea, ["a2", "c1", "b1", "c3"]),
    ):
        assignment = assignment_next(campaign=campaign, assessor=assessor)
        assert assignment.query.external_id == "qa1"
        client.force_login(assessor)
        post_json(
            client, f"/judge/assignments/{assignment.pk}/ranking",
            {"order": order_by_clip(assignment, clips), "submit": True},
        )  # fmt: skip
    client.force_login(personas.organiser)
    page = client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    assert "0.90" in page and "2 of 2" in page


def test_the_api_creates_a_ranking_campaign_with_its_rule_and_source(personas):
    from tests.helpers.clients import client_for

    collection = make_judging_collection(personas.organiser)
    response = client_for(personas.organiser).post(
        "/api/relevance-campaigns/create/",
        {"collection": collection.pk, "name": "By API", "mode": "ranking", "cutoff": 3,
         "grouping_rule": "any", "grouping_alpha": 0.1, "groups_source": "api experts"},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    campaign = RelevanceCampaign.objects.get(name="By API")
    assert (campaign.mode, campaign.grouping_rule, campaign.source.name) == (
        "ranking",
        "any",
        "api experts",
    )
    assert campaign.source.status == "pilot"
    refused = client_for(personas.other_organiser).post(
        "/api/relevance-campaigns/create/",
        {"collection": collection.pk, "name": "Not mine", "mode": "ranking"},
        format="json",
    )
    assert refused.status_code == 404


def test_the_pages_of_a_ranking_campaign_speak_plain_words(client, personas):
    from tests.helpers.plain_words import problems

    campaign = make_ranking_campaign(personas, query_names=["qa1"])
    assignment, order = next_ranking(campaign, personas.assessor)
    as_(client, personas.assessor)
    ranking_url = f"/judge/assignments/{assignment.pk}/"
    before = client.get(ranking_url).content.decode()
    post_json(client, f"{ranking_url}ranking", {"order": order, "submit": True})
    after = client.get(ranking_url).content.decode()
    assert "Your ranking of this query is submitted." in after
    client.force_login(personas.organiser)
    pages = {
        "new": client.get("/ranking-campaigns/new/").content.decode(),
        "campaign": client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode(),
        "query": client.get(
            f"/collections/{campaign.collection_id}/queries/{assignment.query_id}/"
        ).content.decode(),
        "ranking": before,
        "ranking submitted": after,
    }
    assert "Built from the rankings of the experts" in pages["query"]
    assert {name: problems(html) for name, html in pages.items()} == {key: [] for key in pages}
