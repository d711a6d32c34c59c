"""``POST /api/token/`` is throttled in the shared Redis cache, per address and per account.

Issue 11: the anonymous token endpoint had no throttling, so a password could be guessed
at full speed. The counts live in Redis (``CACHES``), so they hold across processes: the
last test sends its attempts alternately to two separate gunicorn servers.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import redis
from rest_framework.test import APIClient

from embedded.redis import stop_process
from tests.helpers.fixtures import ROOT, _worker_database_url
from tests.helpers.personas import PASSWORD


def attempt(client, username, password="wrong", address="10.0.0.1"):
    return client.post(
        "/api/token/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


@pytest.mark.django_db
def test_the_sixth_attempt_on_one_account_in_a_minute_is_refused_even_with_the_password(
    redis_cache, personas
):
    client = APIClient()
    user = personas.organiser.username
    # Five a minute per account (EARSHOT_TOKEN_RATE_USER), from five different addresses.
    for n in range(5):
        assert attempt(client, user, address=f"10.0.1.{n}").status_code == 400
    refused = attempt(client, user, password=PASSWORD, address="10.0.1.99")
    assert refused.status_code == 429
    assert "throttled" in refused.json()["detail"].lower()
    assert int(refused["Retry-After"]) > 0
    # Another account is not held up by it.
    assert attempt(client, personas.other_organiser.username, PASSWORD).status_code == 200


@pytest.mark.django_db
def test_one_address_gets_ten_attempts_a_minute_whatever_the_accounts(redis_cache, personas):
    client = APIClient()
    for n in range(10):
        assert attempt(client, f"guess-{n}").status_code == 400
    assert attempt(client, "guess-10").status_code == 429
    assert attempt(client, "guess-11", address="10.0.0.2").status_code == 400


@pytest.mark.django_db
def test_without_a_reachable_cache_the_endpoint_still_answers(personas, settings, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "unix:///nonexistent/redis.sock",
        }
    }
    response = attempt(APIClient(), personas.organiser.username, PASSWORD)
    assert response.status_code == 200
    assert "token throttling skipped" in caplog.text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(port: int, username: str, password: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/token/",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        # A gunicorn worker's first request on a busy machine (both test passes on two
        # cores) has taken over 30 s: the worker loads Django, then hashes the password.
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.django_db(transaction=True)
def test_two_server_processes_count_attempts_together(embedded_redis, personas):
    client = redis.Redis(unix_socket_path=str(embedded_redis.socket))
    for key in client.scan_iter("earshot:*throttle*"):  # counts of an earlier run
        client.delete(key)
    env = dict(os.environ, DATABASE_URL=_worker_database_url(), REDIS_URL=embedded_redis.url,
               LOG_LEVEL="WARNING")  # fmt: skip
    ports = [_free_port(), _free_port()]
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for port, server in zip(ports, servers, strict=True):
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None, "gunicorn exited"
                    assert time.monotonic() < deadline, "gunicorn did not start"
                    time.sleep(0.2)
        user = personas.organiser.username
        statuses = [_post(ports[n % 2], user, "wrong") for n in range(5)]
        assert statuses == [400] * 5  # three on one process, two on the other
        assert _post(ports[1], user, PASSWORD) == 429
        assert _post(ports[0], user, PASSWORD) == 429
    finally:
        for server in servers:
            stop_process(server)
