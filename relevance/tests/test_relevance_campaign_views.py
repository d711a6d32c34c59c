"""Organiser pages of relevance campaigns: who sees what, creating, exporting."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from listening.services.audio_served import audio_served_record
from relevance.models import RelevanceCampaign
from relevance.services.campaigns import assignment_next, judgment_save
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_campaign, make_judging_collection

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(personas):
    return make_campaign(personas)


def as_(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def test_the_owner_sees_the_campaign_page(client, personas, campaign):
    response = as_(client, personas.organiser).get(f"/relevance-campaigns/{campaign.pk}/")
    assert response.status_code == 200
    assert (
        b"Progress per query" in response.content and b"Progress per assessor" in response.content
    )


def test_another_organiser_gets_not_found(client, personas, campaign):
    assert (
        as_(client, personas.other_organiser)
        .get(f"/relevance-campaigns/{campaign.pk}/")
        .status_code
        == 404
    )


def test_another_organiser_cannot_download_its_qrels(client, personas, campaign):
    url = f"/relevance-campaigns/{campaign.pk}/qrels?scale=fine&policy=mean"
    assert as_(client, personas.other_organiser).get(url).status_code == 404


def test_another_organiser_cannot_download_its_csv(client, personas, campaign):
    url = f"/relevance-campaigns/{campaign.pk}/judgments.csv"
    assert as_(client, personas.other_organiser).get(url).status_code == 404


def test_an_assessor_cannot_see_the_organiser_page(client, personas, campaign):
    assert (
        as_(client, personas.assessor).get(f"/relevance-campaigns/{campaign.pk}/").status_code
        == 403
    )


def test_anonymous_visitors_are_sent_to_log_in(client, campaign):
    response = client.get(f"/relevance-campaigns/{campaign.pk}/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_list_shows_only_the_organisers_own_campaigns(client, personas, campaign):
    assert (
        b"Similarity 2025" in as_(client, personas.organiser).get("/relevance-campaigns/").content
    )
    client.logout()
    assert (
        b"Similarity 2025"
        not in as_(client, personas.other_organiser).get("/relevance-campaigns/").content
    )


def test_an_organiser_creates_a_campaign_with_the_form(client, personas):
    collection = make_judging_collection(personas.organiser, name="Form set")
    response = as_(client, personas.organiser).post(
        "/relevance-campaigns/new/",
        {
            "collection": collection.pk,
            "name": "By form",
            "cutoff": 3,
            "assessors_per_query": 1,
            "must_listen_seconds": 5,
            "take_back_minutes": 60,
            "assessors": [personas.assessor.pk],
        },
    )
    campaign = RelevanceCampaign.objects.get(name="By form")
    assert (
        response.status_code == 302
        and response["Location"] == f"/relevance-campaigns/{campaign.pk}/"
    )
    assert campaign.pool.count() == 9  # POOL_AT_3 without same-artist exclusion: 4 + 5
    assert list(campaign.assessors.all()) == [personas.assessor]


def test_an_organiser_cannot_create_a_campaign_on_someone_elses_collection(client, personas):
    collection = make_judging_collection(personas.organiser, name="Not yours")
    response = as_(client, personas.other_organiser).post(
        "/relevance-campaigns/new/",
        {"collection": collection.pk, "name": "Theft", "cutoff": 5, "assessors_per_query": 1,
         "must_listen_seconds": 5, "take_back_minutes": 60},
    )  # fmt: skip
    assert response.status_code == 200  # the form again, with an error on collection
    assert "collection" in response.context["form"].errors
    assert not RelevanceCampaign.objects.filter(name="Theft").exists()


def judged(personas, campaign):
    """Two candidates judged, each reported heard 7.5 s in 2 plays: their audio reached the
    assessor 10 s before (what the server observed bounds what the page reports)."""
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    for fine, entry in zip((80, 20), campaign.pool.filter(query=work.query), strict=False):
        audio_served_record(
            clip=entry.clip, size=1000, byte_range=None, assignment=work,
            now=timezone.now() - timedelta(seconds=10),
        )  # fmt: skip
        judgment_save(
            assignment=work, assessor=personas.assessor, pool_entry=entry,
            broad=2 if fine > 50 else 0, fine=fine, listened_seconds=7.5, judging_seconds=30, plays=2,
        )  # fmt: skip
    return work


def test_qrels_download_as_a_trec_file(client, personas, campaign):
    work = judged(personas, campaign)
    response = as_(client, personas.organiser).get(
        f"/relevance-campaigns/{campaign.pk}/qrels?scale=broad&policy=first"
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="campaign-{campaign.pk}-broad-first.qrels"'
    )
    lines = response.content.decode().splitlines()
    assert len(lines) == 2
    assert all(line.split()[:2] == [work.query.external_id, "0"] for line in lines)
    assert sorted(line.split()[3] for line in lines) == ["0", "2"]


def test_qrels_need_a_known_scale_and_policy(client, personas, campaign):
    url = f"/relevance-campaigns/{campaign.pk}/qrels?scale=loud&policy=mean"
    assert as_(client, personas.organiser).get(url).status_code == 400


def test_the_csv_has_every_recorded_field(client, personas, campaign):
    judged(personas, campaign)
    response = as_(client, personas.organiser).get(
        f"/relevance-campaigns/{campaign.pk}/judgments.csv"
    )
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 2
    row = next(r for r in rows if r["fine"] == "80")
    assert row["assessor"] == personas.assessor.username
    assert (row["broad"], row["broad_label"]) == ("2", "Very similar")
    assert (row["listened_seconds"], row["judging_seconds"], row["plays"]) == ("7.5", "30.0", "2")
    assert row["timing_impossible"] == "0"  # 7.5 s and 2 plays fit in the 10 s observed
    assert row["source"] == campaign.source.name == campaign.name
    assert row["created_at"] and row["updated_at"]


def test_the_campaign_page_shows_progress_and_time_spent(client, personas, campaign):
    judged(personas, campaign)
    page = (
        as_(client, personas.organiser).get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    )
    assert "60 s" in page  # two judgments × 30 s judging time
    assert personas.assessor.username in page
