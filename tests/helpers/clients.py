"""Logged-in clients: an API client with an organiser's token (:func:`client_for`), a
page client logged in as someone (:func:`as_`), a JSON POST as the judging page sends it
(:func:`post_json`)."""

from __future__ import annotations

import json

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.helpers.personas import PASSWORD


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def as_(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def post_json(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)
