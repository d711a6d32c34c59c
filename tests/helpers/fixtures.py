"""Fixtures shared by the Django-side tests: personas, a real Chromium, a real Celery worker.

Browser and worker fixtures start real processes. Outside CI a missing Chromium is a
loud skip; under ``CI=true`` it is a failure, so CI can never pass without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.helpers.personas import make_personas
from tests.helpers.processes import TEST_WORKER_NICENESS

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API + Django ORM

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--autoplay-policy=no-user-gesture-required", "--no-first-run",
                 "--disable-component-update", "--disable-sync", "--mute-audio"]  # fmt: skip
IN_CI = os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parents[2]


def missing(what: str) -> None:
    """Fail under CI, skip loudly elsewhere."""
    message = f"{what} — these tests did NOT run"
    if IN_CI:
        pytest.fail(message + " (CI=true requires them)", pytrace=False)
    sys.stderr.write(f"\n*** SKIPPED: {message} ***\n")
    pytest.skip(message)


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs ~0.3 s a user; tests need no protection against brute force."""
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture
def personas(db):
    return make_personas()


@pytest.fixture
def organiser(client, personas):
    """The test client, logged in as the personas' organiser."""
    client.force_login(personas.organiser)
    return client


@pytest.fixture
def enqueued(monkeypatch):
    """Recompute tasks that would go to the broker, as recompute ids (each counts as sent)."""
    from evaluation.services import recompute

    calls: list[int] = []
    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: calls.append(pk) or True)
    return calls


# --- Chromium through Playwright -------------------------------------------------------


BROWSER_WAIT_MS = 30_000
"""The longest a browser test waits for a page, an element or an assertion to come true."""


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # Waits only matter when something is wrong: generous ones keep a loaded CI machine
    # (two test passes side by side on two cores) from failing a correct page.
    expect.set_options(timeout=BROWSER_WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session", autouse=True)
def live_server_serves_as_make_run():
    """The tests' live server is Django's development server as ``make run`` starts it
    (:mod:`config.devserver`): it hands the audio views their connection, so that they
    count what the browser's TCP acknowledged (:mod:`listening.audio_delivery`)."""
    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread

    from config.devserver.server import connection_aware

    LiveServerThread.server_class = connection_aware(ThreadedWSGIServer)


@pytest.fixture
def page(chromium, live_server):
    context = chromium.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(BROWSER_WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Anything the Content-Security-Policy refused (an inline script, a foreign source)
    # is a console error naming the policy: a page that needs it is broken in production.
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and "Content Security Policy" in message.text
            and errors.append(message.text)
        ),
    )
    yield page
    context.close()
    assert not errors, f"JavaScript or Content-Security-Policy errors on the page: {errors}"


# --- A real Celery worker on the embedded Redis ----------------------------------------


def _worker_database_url() -> str:
    from django.conf import settings
    from django.db import connection

    db = settings.DATABASES["default"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgresql://{db['USER']}{password}@{host}:{port}/{db['NAME']}"


REDIS_DIR = Path(tempfile.mkdtemp(prefix="earshot-redis-"))
"""Where this test session's embedded Redis listens (``REDIS_DIR/redis.sock``)."""
WORKER_FILES = REDIS_DIR / "files"
"""Uploads and stored audio of the real-worker tests: the worker and the live server both
use ``WORKER_FILES/uploads`` and ``WORKER_FILES/media`` (set in the tests' settings too)."""


@pytest.fixture
def worker_files(settings):
    """The live server stores uploads and audio where the real worker reads them
    (:data:`WORKER_FILES`): for the journeys whose uploads or clips the worker handles."""
    settings.EARSHOT_UPLOAD_ROOT = WORKER_FILES / "uploads"
    settings.MEDIA_ROOT = WORKER_FILES / "media"


@pytest.fixture(scope="session", autouse=True)
def celery_uses_the_session_redis():
    """Point the Celery app at this session's Redis before any test can send a task.

    The server itself starts only for the tests that need it (:func:`embedded_redis`);
    a send before that fails, but connection pools made by it already point here, so
    the real-worker tests never talk to a stale URL.
    """
    from config.celery import app

    url = f"redis+socket://{REDIS_DIR / 'redis.sock'}"
    app.conf.broker_url = url
    yield
    shutil.rmtree(REDIS_DIR, ignore_errors=True)


@pytest.fixture
def redis_cache(embedded_redis, settings):
    """The project's cache on the session's Redis, emptied before and after (throttle counts)."""
    from django.core.cache import cache

    from config.env import redis_cache_location

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_cache_location(embedded_redis.url),
            "KEY_PREFIX": "earshot-test",
        }
    }
    cache.clear()
    yield embedded_redis
    cache.clear()


@pytest.fixture(scope="session")
def embedded_redis(celery_uses_the_session_redis):
    from embedded.redis import start_redis

    server = start_redis(REDIS_DIR, log=REDIS_DIR / "redis.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, embedded_redis):
    """``celery -A config worker`` as a child process, sharing the test database.

    Tests using it need ``@pytest.mark.django_db(transaction=True)`` so that what
    they write is committed where the worker can read it.
    """
    from config.celery import app
    from embedded.redis import stop_process

    with django_db_blocker.unblock():
        database_url = _worker_database_url()
    env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL=embedded_redis.url,
               EARSHOT_UPLOAD_ROOT=str(WORKER_FILES / "uploads"),
               MEDIA_ROOT=str(WORKER_FILES / "media"))  # fmt: skip
    # Recomputes the worker itself requests (after handed-over answers) wait as long as in
    # production (1 s): a test's burst of answers lands well inside it (28 answers in
    # 0.2 s, tests/journeys/test_results_pipeline.py), and the journeys that wait for
    # each recompute take 5-12 s less than with the 3 s of before.
    env.setdefault("EARSHOT_RECOMPUTE_DELAY_MS", "1000")
    # No debouncing in the tests' worker: a rerun follows at once, as the tests expect
    # (debouncing is tested without a worker in evaluation/tests/test_recompute.py).
    env.setdefault("EARSHOT_RECOMPUTE_MIN_INTERVAL_MS", "0")
    env.setdefault("EARSHOT_WORKER_NICENESS", str(TEST_WORKER_NICENESS))
    log = embedded_redis.socket.parent / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
               "--concurrency", "1", "--without-gossip", "--without-mingle", "--loglevel", "INFO",
               "--queues", "interactive,heavy"]  # fmt: skip  # both queues (work/queues.py)
    with open(log, "wb") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:  # whatever goes wrong, the worker process is stopped: none is left behind
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            if worker.poll() is not None:
                pytest.fail(f"the Celery worker exited: {log.read_text()[-2000:]}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(
                    f"the Celery worker did not answer: {log.read_text()[-2000:]}", pytrace=False
                )
        yield worker
    finally:
        stop_process(worker)


# --- Say which real services the run used ----------------------------------------------

DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences",
                     "django_db_serialized_rollback"}  # fmt: skip


def uses_the_database(item: pytest.Item) -> bool:
    """A test that asks for the database (its mark, or a fixture that needs it)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(DATABASE_FIXTURES & fixtures)


SECOND_PASS = ("evaluation/core/tests/",)
"""Tests that use no database and run in the PostgreSQL pass when ``make test`` runs both
(``EARSHOT_TWO_PASSES``): the numerical core's, about a minute of one core. The SQLite
pass, which also runs every Chromium test, was the longer one on a quiet machine (15.4
against 13.2 min at the stop of 28 November); with these moved the two passes that run
side by side on two cores end about together."""


def in_second_pass(item: pytest.Item) -> bool:
    return not uses_the_database(item) and item.nodeid.startswith(SECOND_PASS)


def in_the_other_pass(item: pytest.Item, vendor: str) -> bool:
    """A test marked ``one_pass(database)`` for the other database than ``vendor``."""
    marker = item.get_closest_marker("one_pass")
    return marker is not None and marker.args[0] != vendor


def pytest_collection_modifyitems(config, items):
    """Each test that uses no database runs once when ``make test`` runs both passes: it
    proves the same thing on either database. On PostgreSQL only those of
    :data:`SECOND_PASS` run (with every test that uses the database); on SQLite all the
    others (``make run``'s settings parsing, pure functions, the broker's deadlines …).
    So does a test marked ``one_pass("postgresql")`` or ``one_pass("sqlite")``: one that
    uses the database but whose point lies on one side (hostile values where
    PostgreSQL is the stricter; page words, audio bytes), named with its reason.
    A pass run alone (``pytest`` by hand, or no PostgreSQL on the machine) runs all."""
    from django.conf import settings

    on_postgresql = "postgresql" in settings.DATABASES["default"]["ENGINE"]
    two_passes = os.environ.get("EARSHOT_TWO_PASSES") == "1"
    if not two_passes and not on_postgresql:
        return
    vendor = "postgresql" if on_postgresql else "sqlite"

    def elsewhere(item: pytest.Item) -> bool:
        if on_postgresql and not uses_the_database(item) and not in_second_pass(item):
            return True
        if not on_postgresql and in_second_pass(item):
            return True
        return two_passes and in_the_other_pass(item, vendor)

    left_out = [i for i in items if elsewhere(i)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        gone = {id(i) for i in left_out}
        items[:] = [i for i in items if id(i) not in gone]


_REAL_PARTS = {"browser": "Chromium browser tests", "celery_worker": "real Celery worker tests"}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line per real part (Chromium, Celery worker) and the database, so a log shows them."""
    counts: dict[str, dict[str, int]] = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            if report.when != "call" and outcome != "skipped" and outcome != "error":
                continue
            for marker in _REAL_PARTS:
                if marker in report.keywords:
                    counts.setdefault(marker, {}).setdefault(outcome, 0)
                    counts[marker][outcome] += 1
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    terminalreporter.write_sep("-", "real parts used")
    terminalreporter.write_line(f"database: {engine}")
    for marker, label in _REAL_PARTS.items():
        found = counts.get(marker, {})
        text = ", ".join(f"{n} {outcome}" for outcome, n in sorted(found.items())) or "none run"
        terminalreporter.write_line(f"{label}: {text}")
    from tests.helpers.fuzzing import TALLY

    if TALLY:
        terminalreporter.write_sep("-", f"fuzz targets ({engine})")
        for target, outcomes in sorted(TALLY.items()):
            terminalreporter.write_line(
                f"{target}: {sum(outcomes.values())} cases, {outcomes['accepted']} accepted, "
                f"{outcomes['clean error']} clean errors, {outcomes['crash']} crashes"
            )
