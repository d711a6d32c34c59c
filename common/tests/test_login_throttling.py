"""Password guessing meets a refusal on every password form (issue 20, item 2).

Before: ``/login/`` had no throttle (40 wrong passwords then the right one in 14 s), and
``/api/token/``'s per-address count was keyed on ``X-Forwarded-For`` as the client sent it
(``NUM_PROXIES`` 0 became ``None``, so DRF trusted the header): rotating it gave
unlimited tries. Counts are in the shared Redis cache (``redis_cache``).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from common.roles import ASSESSOR
from people.services import invitation_create
from tests.helpers.personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def login(client, username, password="wrong", address="10.0.0.1", **headers):
    return client.post(
        "/login/", {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def test_thirty_wrong_passwords_meet_a_refusal_and_then_even_the_right_one_is_not_checked(
    client, redis_cache, personas
):
    user = personas.organiser.username
    statuses = [login(client, user, address=f"10.0.2.{n}").status_code for n in range(30)]
    # EARSHOT_LOGIN_RATE_USER is 5 a minute: five forms re-shown (200), then 429s.
    assert statuses == [200] * 5 + [429] * 25
    refused = login(client, user, PASSWORD, address="10.0.2.99")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    page = refused.content.decode()
    assert (
        "Too many attempts" in page and "second" in page and "_auth_user_id" not in client.session
    )
    assert login(client, personas.other_organiser.username, PASSWORD).status_code == 302


def test_one_address_gets_twenty_login_attempts_a_minute_whatever_x_forwarded_for_says(
    client, redis_cache, personas
):
    got = [
        login(client, f"guess-{n}", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(21)
    ]
    assert got == [200] * 20 + [429]  # EARSHOT_LOGIN_RATE_IP: 20 a minute, header ignored
    assert login(client, "guess-21", address="10.0.0.2").status_code == 200


def test_rotating_x_forwarded_for_gains_nothing_at_the_token_endpoint(redis_cache, personas):
    api = APIClient()
    got = [
        api.post(
            "/api/token/", {"username": f"guess-{n}", "password": "x"},
            REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        ).status_code
        for n in range(11)
    ]  # fmt: skip
    assert got == [400] * 10 + [429]  # EARSHOT_TOKEN_RATE_IP: 10 a minute


def test_behind_one_proxy_the_address_it_adds_is_the_one_counted(redis_cache, personas, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api = APIClient()

    def token(forwarded: str) -> int:
        body = {"username": f"guess-{forwarded}", "password": "x"}
        return api.post("/api/token/", body, REMOTE_ADDR="10.9.9.9",
                        HTTP_X_FORWARDED_FOR=forwarded).status_code  # fmt: skip

    # The client wrote "1.2.3.{n}"; the proxy appended the real address 192.0.2.7.
    assert [token(f"1.2.3.{n}, 192.0.2.7") for n in range(10)] == [400] * 10
    assert token("1.2.3.99, 192.0.2.7") == 429
    assert token("192.0.2.8") == 400  # another client behind the same proxy


def test_the_admin_login_is_throttled_too(client, redis_cache, personas):
    got = [
        client.post("/admin/login/", {"username": "root", "password": "x"},
                    REMOTE_ADDR=f"10.0.3.{n}").status_code
        for n in range(6)
    ]  # fmt: skip
    assert got == [200] * 5 + [429]


def test_an_invitation_link_is_throttled_per_link(client, redis_cache, personas):
    new = invitation_create(
        user=make_user("bea", ASSESSOR, owner=personas.organiser), created_by=personas.organiser
    )
    short = {"password1": "short", "password2": "short"}
    got = [client.post(new.path, short, REMOTE_ADDR=f"10.0.4.{n}").status_code for n in range(6)]
    assert got == [200] * 5 + [429]
