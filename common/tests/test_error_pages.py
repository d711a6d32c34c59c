"""Pages people reach by mistake are styled and say what happened and what to do (DEBUG off)."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from catalog.models import CollectionShare
from common.roles import ORGANISER
from people.services import invitation_accept, invitation_create
from tests.helpers.personas import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def production(settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver"]


def styled(response) -> str:
    """The page's text; it is Earshot's own page (its header and style sheet) with advice."""
    text = html.unescape(response.content.decode())
    assert 'class="brand"' in text and "earshot/base.css" in text
    assert "What to do" in text and "Traceback" not in text
    return text


def test_an_unknown_address_is_a_styled_404_that_reveals_no_url_list(client):
    response = client.get("/no/such/page/")
    text = styled(response)
    assert response.status_code == 404 and "There is nothing here" in text
    assert "collections/&lt;int" not in text and "tried" not in text


def test_a_bare_task_link_and_an_unknown_one_speak_to_crowd_workers(client):
    bare = client.get("/t/")
    assert bare.status_code == 404 and "This study link is incomplete" in styled(bare)
    unknown = client.get("/t/not-a-study/?PROLIFIC_PID=abc")
    text = styled(unknown)
    assert unknown.status_code == 404 and "This study link does not work" in text
    assert "Prolific" in text and "nothing is lost" in text


def test_a_403_says_why_and_who_to_ask(client, personas):
    client.force_login(personas.assessor)
    response = client.get("/collections/")
    text = styled(response)
    assert response.status_code == 403 and "This page is for the organiser role." in text
    rita = make_user("rita", ORGANISER)
    CollectionShare.objects.create(collection=personas.collection, user=rita, access="read")
    client.force_login(rita)
    refused = client.get(f"/collections/{personas.collection.pk}/edit/")
    assert "read-only access to “Tiny collection”; ask its owner" in styled(refused)


def test_a_400_from_a_bad_host_is_styled(client):
    response = client.get("/login/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and "could not be understood" in styled(response)


def test_a_410_for_a_used_invitation(client, personas):
    new = invitation_create(user=personas.assessor, created_by=personas.organiser)
    invitation_accept(invitation=new.invitation, password="a long enough password")
    response = client.get(new.path)
    assert response.status_code == 410 and "no longer works" in styled(response)


def test_a_500_is_styled_and_shows_no_internals(settings):
    settings.ROOT_URLCONF = "tests.helpers.error_urls"
    response = Client(raise_request_exception=False).get("/boom/")
    text = styled(response)
    assert response.status_code == 500 and "Something went wrong on our side" in text
    assert "hunter2" not in text and "RuntimeError" not in text


def test_a_form_sent_without_its_csrf_token_gets_a_page_that_says_reload(personas):
    client = Client(enforce_csrf_checks=True)
    client.force_login(personas.organiser)
    response = client.post("/collections/new/", {"name": "Forged"})
    assert response.status_code == 403 and "Your form could not be sent" in styled(response)
    assert "reload the page" in response.content.decode()
