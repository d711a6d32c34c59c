"""Every count per client address counts an IPv6 client as its /64 (issue 28, item 2).

Before: buckets used the full address, so three addresses of one /64 — which one IPv6
machine picks from at will — were three clients for login throttling, for the crowd's
new ids per address and hour, and for the stopped-device rule. Each is replayed here
from addresses of one /64; ``EARSHOT_IPV6_PREFIX`` sets the network's size.
"""

from __future__ import annotations

import doctest

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

import common.client_address
from common.client_address import address_counted, client_address
from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import prolific_id

pytestmark = pytest.mark.django_db

NETWORK = "2001:db8:28:1"
"""One /64: a machine may use any address in it."""


def in_network(n: int, network: str = NETWORK) -> str:
    return f"{network}:{n:x}:{3 * n + 1:x}:a{n:x}:{n * 7 + 2:x}"


def test_addresses_of_one_network_are_one_client_and_the_module_examples_hold(settings):
    assert {address_counted(in_network(n)) for n in range(50)} == {f"{NETWORK}::/64"}
    assert address_counted("2001:db8:28:2::1") != address_counted(in_network(1))
    assert address_counted("fe80::1%eth0") == "fe80::/64"  # a zone id counts for nothing
    assert address_counted("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_counted("not an address") == "not an address"
    assert doctest.testmod(common.client_address).failed == 0
    settings.EARSHOT_IPV6_PREFIX = 128
    request = RequestFactory().get("/", REMOTE_ADDR=in_network(1))
    assert client_address(request) == f"{in_network(1)}/128"


def test_behind_a_proxy_the_forwarded_ipv6_address_counts_as_its_network(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"1.2.3.4, {in_network(5)}"
    )
    assert client_address(request) == f"{NETWORK}::/64"


def test_rotating_addresses_of_one_network_gains_no_login_attempts(client, redis_cache, personas):
    got = [
        client.post("/login/", {"username": f"guess-{n}", "password": "x"},
                    REMOTE_ADDR=in_network(n)).status_code
        for n in range(21)
    ]  # fmt: skip
    assert got == [200] * 20 + [429]  # EARSHOT_LOGIN_RATE_IP: 20 a minute for the /64
    other = client.post(
        "/login/", {"username": "guess-x", "password": "x"}, REMOTE_ADDR="2001:db8:28:2::1"
    )
    assert other.status_code == 200  # the next network is another client


def test_rotating_addresses_of_one_network_gains_no_token_attempts(redis_cache, personas):
    api = APIClient()
    got = [
        api.post("/api/token/", {"username": f"guess-{n}", "password": "x"},
                 REMOTE_ADDR=in_network(n)).status_code
        for n in range(11)
    ]  # fmt: skip
    assert got == [400] * 10 + [429]  # EARSHOT_TOKEN_RATE_IP: 10 a minute


def test_with_a_prefix_of_128_each_ipv6_address_is_its_own_client(client, redis_cache, settings):
    settings.EARSHOT_IPV6_PREFIX = 128
    got = [
        client.post("/login/", {"username": f"guess-{n}", "password": "x"},
                    REMOTE_ADDR=in_network(n % 2)).status_code
        for n in range(22)
    ]  # fmt: skip
    assert got == [200] * 22  # two clients, eleven attempts each


def test_new_crowd_ids_from_one_network_meet_the_per_address_cap(crowd_collection, settings):
    settings.EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR = 3
    campaign = make_campaign(crowd_collection, traps=0)
    arrivals = [
        Browser(campaign, address=in_network(n)).arrive(
            f"PROLIFIC_PID={prolific_id(f'v6-{n}')}&STUDY_ID=S"
        )
        for n in range(4)
    ]
    assert [a.status_code for a in arrivals] == [302, 302, 302, 429]
    assert "Too many new participants from your network" in arrivals[3].content.decode()
    assert not Worker.objects.filter(platform_id=prolific_id("v6-3")).exists()
    elsewhere = Browser(campaign, address="2001:db8:28:2::9").arrive(
        f"PROLIFIC_PID={prolific_id('v6-x')}"
    )
    assert elsewhere.status_code == 302


def test_a_stopped_workers_device_cannot_start_again_from_another_address_of_its_network(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0)
    first = Browser(campaign, address=in_network(1), user_agent="Firefox/140")
    assert first.arrive(f"PROLIFIC_PID={prolific_id('stopped')}&STUDY_ID=S").status_code == 302
    Worker.objects.filter(platform_id=prolific_id("stopped")).update(
        status=Worker.STOPPED, stop_reason=Worker.LOW_TRUST
    )
    again = Browser(campaign, address=in_network(2), user_agent="Firefox/140")
    refused = again.arrive(f"PROLIFIC_PID={prolific_id('fresh')}&STUDY_ID=S")
    assert refused.status_code == 409 and "already taken part" in refused.content.decode()
    assert not Worker.objects.filter(platform_id=prolific_id("fresh")).exists()
