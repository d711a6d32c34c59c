"""Sharing a collection with co-organisers, and the one access rule's needs (read, write, share)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.test import RequestFactory

from catalog.access import clip_audible_by
from catalog.models import CollectionShare
from catalog.selectors import collection_for_organiser, organiser_collections, organises
from catalog.services.sharing import collection_share, collection_unshare
from common.roles import ASSESSOR, ORGANISER
from tests.helpers.personas import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def rita(personas):
    return make_user("rita", ORGANISER)


def test_sharing_twice_changes_the_access_and_unsharing_takes_it_back(personas, rita):
    c = personas.collection
    assert collection_share(collection=c, username="RITA", access="read").access == "read"
    assert collection_share(collection=c, username="rita", access="full").access == "full"
    assert CollectionShare.objects.filter(collection=c).count() == 1
    assert organises(user=rita, collection=c, need="write")
    assert collection_unshare(collection=c, username="rita") is True
    assert collection_unshare(collection=c, username="rita") is False
    assert not organises(user=rita, collection=c, need="read")


@pytest.mark.parametrize(
    ("username", "access", "message"),
    [
        ("nobody-here", "read", "No organiser is called 'nobody-here'."),
        ("ada", "read", "ada is not an organiser: only organisers can be co-organisers."),
        ("olivia", "full", "olivia owns this collection already."),
        ("rita", "admin", "Access is read (read-only) or full."),
    ],
)
def test_only_other_organisers_get_read_or_full_access(personas, rita, username, access, message):
    with pytest.raises(ValidationError) as error:
        collection_share(collection=personas.collection, username=username, access=access)
    assert error.value.messages == [message]
    assert not CollectionShare.objects.exists()


def test_each_need_reaches_exactly_whom_it_should(personas, rita):
    c = personas.collection
    fiona = make_user("fiona", ORGANISER)
    collection_share(collection=c, username="rita", access="read")
    collection_share(collection=c, username="fiona", access="full")
    root = User.objects.create_superuser("root", "root@example.org", "x" * 12)
    reach = {
        need: {u.username for u in (personas.organiser, fiona, rita, personas.other_organiser, root)
               if organiser_collections(user=u, need=need).filter(pk=c.pk).exists()}
        for need in ("read", "write", "share")
    }  # fmt: skip
    assert reach == {
        "read": {"olivia", "fiona", "rita", "root"},
        "write": {"olivia", "fiona", "root"},
        "share": {"olivia", "root"},
    }


def test_asking_for_more_than_one_has_is_a_403_that_says_so_and_nothing_is_a_404(personas, rita):
    c = personas.collection
    collection_share(collection=c, username="rita", access="read")
    assert collection_for_organiser(user=rita, collection_id=c.pk, need="read") == c
    with pytest.raises(PermissionDenied, match="read-only access to “Tiny collection”"):
        collection_for_organiser(user=rita, collection_id=c.pk)  # the default need: write
    with pytest.raises(PermissionDenied, match="Only the owner"):
        collection_for_organiser(user=rita, collection_id=c.pk, need="share")
    with pytest.raises(Http404):
        collection_for_organiser(user=personas.other_organiser, collection_id=c.pk, need="read")
    with pytest.raises(ValueError, match="need must be one of"):
        collection_for_organiser(user=rita, collection_id=c.pk, need="admin")


def test_a_share_stops_working_when_taken_back_or_the_role_is_lost(client, personas, rita):
    c = personas.collection
    collection_share(collection=c, username="rita", access="full")
    client.force_login(rita)
    assert client.get(f"/collections/{c.pk}/").status_code == 200
    rita.groups.clear()  # no longer an organiser: every organiser page refuses her
    assert client.get(f"/collections/{c.pk}/").status_code == 403
    rita.groups.add(*User.objects.get(username="olivia").groups.all())
    collection_unshare(collection=c, username="rita")
    assert client.get(f"/collections/{c.pk}/").status_code == 404


def test_a_read_only_co_organiser_hears_the_clips_and_a_stranger_does_not(personas, rita):
    clip = personas.collection.clips.first()
    collection_share(collection=personas.collection, username="rita", access="read")
    request = RequestFactory().get("/")
    request.user, request.COOKIES = rita, {}
    assert clip_audible_by(request, clip)
    request.user = make_user("eve", ASSESSOR)
    assert not clip_audible_by(request, clip)


def test_only_the_owner_sees_and_changes_the_sharing_page(client, personas, rita):
    c = personas.collection
    fiona = make_user("fiona", ORGANISER)
    collection_share(collection=c, username="fiona", access="full")
    client.force_login(fiona)
    refused = client.post(f"/collections/{c.pk}/sharing/", {"username": "fiona", "access": "full"})
    assert refused.status_code == 403 and b"Only the owner" in refused.content
    client.force_login(personas.organiser)
    page = client.post(
        f"/collections/{c.pk}/sharing/", {"username": "rita", "access": "read"}, follow=True
    )
    assert "Shared with rita (read-only)." in page.content.decode()
    mistake = client.post(f"/collections/{c.pk}/sharing/", {"username": "ada", "access": "read"})
    assert "ada is not an organiser" in mistake.content.decode()
    client.post(f"/collections/{c.pk}/sharing/remove/", {"username": "rita"})
    assert not CollectionShare.objects.filter(user=rita).exists()
