"""Under ``DEBUG`` (``make run``) a wrong address shows the styled 404, not Django's list
of URL patterns (issue 31, item 10; ``config/not_found.py``); a superuser still gets
Django's technical page, and the server's log says what was not found."""

from __future__ import annotations

import html
import logging

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

TECHNICAL = ("Django tried these URL patterns", "Using the URLconf defined in", "Raised by:")


@pytest.fixture(autouse=True)
def make_run(settings):
    settings.DEBUG = True  # what make run serves


def _text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("who", ["anonymous", "organiser", "assessor"])
def test_a_typed_wrong_address_shows_the_styled_page_to_every_person(client, personas, who):
    if who != "anonymous":
        client.force_login(getattr(personas, who))
    response = client.get("/colections/")
    text = _text(response)
    assert response.status_code == 404 and "There is nothing here" in text
    assert not any(words in text for words in TECHNICAL)
    assert "collections/&lt;" not in response.content.decode()


def test_a_view_that_finds_nothing_shows_its_message_on_the_styled_page(client, personas):
    client.force_login(personas.organiser)
    response = client.get("/collections/99999/")
    text = _text(response)
    assert response.status_code == 404 and "There is nothing here" in text
    assert "No such collection." in text and not any(words in text for words in TECHNICAL)


def test_a_superuser_developer_still_gets_djangos_technical_page(client):
    admin = get_user_model().objects.create_superuser("dev", "dev@example.org", "x")
    client.force_login(admin)
    response = client.get("/colections/")
    assert response.status_code == 404 and "Django tried these URL patterns" in _text(response)


def test_the_log_says_what_was_not_found(client, caplog):
    with caplog.at_level(logging.WARNING, logger="config.not_found"):
        client.get("/colections/")
    assert "/colections/ matches no address" in caplog.text


def test_a_missing_slash_is_still_redirected_and_a_task_link_keeps_its_own_page(client):
    assert client.get("/collections")["Location"] == "/collections/"
    response = client.get("/t/no-such-study/")
    assert response.status_code == 404 and "This study link does not work" in _text(response)


def test_the_api_keeps_its_json_answer(client, personas):
    client.force_login(personas.organiser)
    response = client.get("/api/collections/99999/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
