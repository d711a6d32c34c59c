"""Assessor pages: their own work only, saves through a CSRF-protected JSON endpoint."""

import re

import pytest
from django.core.files.base import ContentFile
from django.test import Client

from catalog.models import RelevanceJudgment
from relevance import selectors
from relevance.models import Assignment
from relevance.services.campaigns import assignment_next
from tests.helpers.audio_files import sine_wav
from tests.helpers.clients import as_, post_json
from tests.helpers.relevance_data import make_assessor, make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(personas):
    return make_campaign(personas)


@pytest.fixture
def work(personas, campaign):
    return assignment_next(campaign=campaign, assessor=personas.assessor)


def test_the_assessor_home_offers_to_get_the_next_query(client, personas, campaign):
    page = as_(client, personas.assessor).get("/").content.decode()
    assert "Similarity 2025" in page and "Get next query" in page


def test_getting_the_next_query_opens_its_judging_page(client, personas, campaign):
    response = as_(client, personas.assessor).post(f"/judge/campaigns/{campaign.pk}/next/")
    work = Assignment.objects.get(assessor=personas.assessor)
    assert response.status_code == 302 and response["Location"] == f"/judge/assignments/{work.pk}/"


def test_an_assessor_outside_the_campaign_gets_no_work(client, campaign):
    outsider = make_assessor("otto")
    assert as_(client, outsider).post(f"/judge/campaigns/{campaign.pk}/next/").status_code == 404


def test_getting_work_needs_a_post(client, personas, campaign):
    assert (
        as_(client, personas.assessor).get(f"/judge/campaigns/{campaign.pk}/next/").status_code
        == 405
    )


def test_the_judging_page_shows_no_system_names_ranks_or_scores(client, personas, work):
    page = as_(client, personas.assessor).get(f"/judge/assignments/{work.pk}/").content.decode()
    assert "Candidate 1" in page
    # Random audio tokens and the CSRF token could spell anything: leave them out.
    without_urls = re.sub(r'src="[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    for system_name in ("sysAlpha", "sysBeta", "sysGamma"):  # the systems of RUNS
        assert system_name not in without_urls
    assert "rank" not in without_urls.lower()
    for label in ("Not similar", "Somewhat similar", "Very similar", 'aria-label="Fine score"'):
        assert label in page


def test_candidates_come_in_a_different_order_for_each_assessor(personas):
    # Seeded per assignment and assessor. Eight assessors spread over the queries (the
    # least-judged query first), so each query gets several; that all of a query's
    # assessors hear its candidates in one order has probability (1/n!)^(m-1), which for
    # the 4 candidates and ≥ 3 assessors here is below 1/500 (and fixed by the seeds).
    assessors = [make_assessor(f"a{i}") for i in range(8)]
    campaign = make_campaign(personas, assessors=assessors, assessors_per_query=8)

    orders: dict[str, set[tuple[str, ...]]] = {}
    for assessor in assessors:
        work = assignment_next(campaign=campaign, assessor=assessor)
        order = tuple(c.clip.external_id for c in selectors.assignment_candidates(assignment=work))
        orders.setdefault(work.query.external_id, set()).add(order)
    assert any(len(found) > 1 for found in orders.values())


def test_another_assessors_judging_page_is_not_found(client, work):
    assert (
        as_(client, make_assessor("bea")).get(f"/judge/assignments/{work.pk}/").status_code == 404
    )


def test_an_organiser_cannot_open_the_judging_page(client, personas, work):
    assert as_(client, personas.organiser).get(f"/judge/assignments/{work.pk}/").status_code == 403


def test_a_save_returns_the_progress(client, personas, work):
    entry = work.campaign.pool.filter(query=work.query).first()
    response = post_json(
        as_(client, personas.assessor),
        f"/judge/assignments/{work.pk}/judgments",
        {"candidate": entry.pk, "broad": 1, "fine": 55, "listened_seconds": 3.5, "plays": 1},
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["broad"], data["fine"], data["candidates_done"]) == (1, 55, 1)
    judgment = RelevanceJudgment.objects.get()
    assert (judgment.assessor, judgment.source) == (
        personas.assessor,
        work.campaign.source,
    )


def test_a_save_without_the_csrf_token_is_forbidden(personas, work):
    client = Client(enforce_csrf_checks=True)
    entry = work.campaign.pool.filter(query=work.query).first()
    response = post_json(
        as_(client, personas.assessor),
        f"/judge/assignments/{work.pk}/judgments",
        {"candidate": entry.pk, "broad": 1},
    )
    assert response.status_code == 403
    assert not RelevanceJudgment.objects.exists()


def test_a_save_with_the_csrf_token_is_accepted(personas, work):
    client = as_(Client(enforce_csrf_checks=True), personas.assessor)
    client.get(f"/judge/assignments/{work.pk}/")  # sets the csrftoken cookie
    entry = work.campaign.pool.filter(query=work.query).first()
    response = post_json(
        client, f"/judge/assignments/{work.pk}/judgments", {"candidate": entry.pk, "broad": 1},
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )  # fmt: skip
    assert response.status_code == 200


def test_a_save_to_someone_elses_assignment_is_a_conflict(client, work):
    entry = work.campaign.pool.filter(query=work.query).first()
    response = post_json(
        as_(client, make_assessor("bea")),
        f"/judge/assignments/{work.pk}/judgments",
        {"candidate": entry.pk, "broad": 1},
    )
    assert response.status_code == 409
    assert not RelevanceJudgment.objects.exists()


def test_a_save_with_bad_values_is_refused(client, personas, work):
    entry = work.campaign.pool.filter(query=work.query).first()
    url = f"/judge/assignments/{work.pk}/judgments"
    client = as_(client, personas.assessor)
    assert post_json(client, url, {"candidate": entry.pk, "fine": 150}).status_code == 400
    assert post_json(client, url, {"candidate": entry.pk, "broad": 7}).status_code == 400
    assert client.post(url, "not json", content_type="application/json").status_code == 400


def test_a_candidate_of_another_query_is_refused(client, personas, work):
    other = work.campaign.pool.exclude(query=work.query).first()
    response = post_json(
        as_(client, personas.assessor),
        f"/judge/assignments/{work.pk}/judgments",
        {"candidate": other.pk, "broad": 1},
    )
    assert response.status_code == 400


def test_a_score_before_the_must_listen_time_is_refused_with_a_message(client, personas):
    campaign = make_campaign(personas, must_listen_seconds=5)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entry = campaign.pool.filter(query=work.query).first()
    response = post_json(
        as_(client, personas.assessor), f"/judge/assignments/{work.pk}/judgments",
        {"candidate": entry.pk, "broad": 1, "listened_seconds": 1},
    )  # fmt: skip
    assert response.status_code == 400
    assert "Listen to at least 5 s" in response.json()["detail"]


# --- Audio: an assessor hears only the clips of their own assignments --------------------


@pytest.fixture
def with_audio(settings, tmp_path, campaign):
    settings.MEDIA_ROOT = tmp_path
    for clip in campaign.collection.clips.all():
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(sine_wav(0.5)))
    return campaign


def test_an_assessor_hears_the_query_and_candidates_of_their_assignment(
    client, personas, with_audio, work
):
    client = as_(client, personas.assessor)
    assert client.get(work.query.clip.audio_url()).status_code == 200
    for entry in with_audio.pool.filter(query=work.query).select_related("clip"):
        assert client.get(entry.clip.audio_url()).status_code == 200


def test_an_assessor_cannot_hear_clips_outside_their_assignments(
    client, personas, with_audio, work
):
    mine = {
        work.query.clip_id,
        *with_audio.pool.filter(query=work.query).values_list("clip", flat=True),
    }
    outside = with_audio.collection.clips.exclude(pk__in=mine).first()
    assert as_(client, personas.assessor).get(outside.audio_url()).status_code == 404


def test_an_assessor_without_work_hears_nothing(client, with_audio):
    clip = with_audio.collection.clips.first()
    assert as_(client, make_assessor("idle")).get(clip.audio_url()).status_code == 404


def test_an_assessor_who_has_not_started_is_told_how_to_start_not_0_of_0(
    client, personas, campaign
):
    """Issue 25: the home page said "0 of 0 assigned" before the first query."""
    page = as_(client, personas.assessor).get("/").content.decode()
    assert "0 of 0" not in page and "You have not started yet: ask for your first query" in page
