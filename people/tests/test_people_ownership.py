"""People belong to organisers (issue 20): the cross-tenant assessor takeover, replayed.

Before, ``GET /api/people/`` listed every assessor of the installation to every organiser,
and any organiser (even a read-only co-organiser of someone else's collection) could
``POST /api/people/<id>/invitation/``: the link resets the assessor's password, so the
attacker logged in as them and judged into the other organiser's official source. Each
test below is one attacker; each gains nothing (404, no invitation, password unchanged).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from catalog.models import CollectionShare
from common.roles import ORGANISER
from people.models import Invitation, Person
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.migrating import migrate, migrate_to_latest, migration_test
from tests.helpers.personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def olivias_study(personas):
    """Olivia's collection with a campaign in which her assessor ada judges."""
    relevance_campaign_create(
        collection=personas.collection, name="Similarity", cutoff=5,
        assessors=[personas.assessor], must_listen_seconds=0,
    )  # fmt: skip
    return personas


def api_as(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def nothing_changed(ada) -> bool:
    ada.refresh_from_db()
    return not Invitation.objects.filter(user=ada).exists() and ada.check_password(PASSWORD)


def test_another_organiser_neither_lists_nor_invites_an_assessor_who_is_not_theirs(
    client, olivias_study
):
    oscar, ada = olivias_study.other_organiser, olivias_study.assessor
    listed = api_as(oscar).get("/api/people/").json()
    assert "ada" not in [row["username"] for row in listed]
    assert api_as(oscar).post(f"/api/people/{ada.pk}/invitation/").status_code == 404
    client.force_login(oscar)
    assert client.post(f"/people/{ada.pk}/invitation/").status_code == 404
    assert "ada" not in client.get("/people/").content.decode()
    assert nothing_changed(ada)


def test_a_read_only_co_organiser_can_do_nothing_to_the_people_of_a_shared_collection(
    client, olivias_study
):
    rita = make_user("rita", ORGANISER)
    CollectionShare.objects.create(collection=olivias_study.collection, user=rita, access="read")
    ada = olivias_study.assessor
    assert "ada" not in [r["username"] for r in api_as(rita).get("/api/people/").json()]
    assert api_as(rita).post(f"/api/people/{ada.pk}/invitation/").status_code == 404
    client.force_login(rita)
    assert client.post(f"/people/{ada.pk}/invitation/").status_code == 404
    assert nothing_changed(ada)


def test_a_full_co_organiser_sees_a_shared_assessor_but_only_her_owner_resets_her(olivias_study):
    fiona = make_user("fiona", ORGANISER)
    CollectionShare.objects.create(collection=olivias_study.collection, user=fiona, access="full")
    ada = olivias_study.assessor
    rows = {r["username"]: r for r in api_as(fiona).get("/api/people/").json()}
    assert rows["ada"]["can_invite"] is False
    refused = api_as(fiona).post(f"/api/people/{ada.pk}/invitation/")
    assert refused.status_code == 403 and "made ada's account" in refused.json()["detail"]
    assert nothing_changed(ada)
    own = {r["username"]: r for r in api_as(olivias_study.organiser).get("/api/people/").json()}
    assert own["ada"]["can_invite"] is True
    assert (
        api_as(olivias_study.organiser).post(f"/api/people/{ada.pk}/invitation/").status_code == 201
    )


def test_an_organiser_cannot_enlist_another_organisers_assessor_to_reach_her(olivias_study):
    """Adding ada to one's own campaign would make her one's person: refused at the door."""
    oscar, ada = olivias_study.other_organiser, olivias_study.assessor
    mine = olivias_study.collection.__class__.objects.create(name="Oscar's", owner=oscar)
    created = api_as(oscar).post(
        "/api/relevance-campaigns/create/",
        {"collection": mine.pk, "name": "Grab", "assessors": ["ada"]}, format="json",
    )  # fmt: skip
    assert created.status_code == 400 and "No assessor is called ada" in created.json()["detail"]
    assert not ada.relevance_campaigns.filter(collection=mine).exists()


def test_an_assessor_made_by_an_organiser_is_theirs(olivias_study):
    api = api_as(olivias_study.other_organiser)
    made = api.post("/api/people/create/", {"username": "otto"}, format="json")
    assert made.status_code == 201
    assert Person.objects.get(user__username="otto").created_by == olivias_study.other_organiser
    assert api.post(f"/api/people/{made.json()['id']}/invitation/").status_code == 201
    olivia = api_as(olivias_study.organiser)
    assert olivia.post(f"/api/people/{made.json()['id']}/invitation/").status_code == 404


@migration_test
def test_the_migration_gives_existing_assessors_to_the_organiser_who_invited_or_employs_them():
    apps = migrate([("judging", "0016_job_runs")])
    User_, Group = apps.get_model("auth", "User"), apps.get_model("auth", "Group")
    assessor_group = Group.objects.create(name="assessor")
    olivia = User_.objects.create(username="olivia")
    oscar = User_.objects.create(username="oscar")
    invited, employed, orphan = (User_.objects.create(username=n) for n in ("i", "e", "o"))
    for person in (invited, employed, orphan):
        person.groups.add(assessor_group)
    apps.get_model("judging", "Invitation").objects.create(
        user=invited, token_hash="a" * 64, created_by=oscar, expires_at="2030-01-01T00:00Z"
    )
    collection = apps.get_model("judging", "Collection").objects.create(owner=olivia, name="C")
    campaign = apps.get_model("judging", "RelevanceCampaign").objects.create(
        collection=collection, name="R"
    )
    campaign.assessors.add(employed, invited)  # an invitation says more than a campaign
    migrate_to_latest()
    owners = dict(Person.objects.values_list("user__username", "created_by__username"))
    assert owners == {"i": "oscar", "e": "olivia", "o": None}
