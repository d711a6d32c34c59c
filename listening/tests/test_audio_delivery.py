"""Audio is counted by what reached the client, after it got there (issue 29, item 5).

The attack of issue 29: request a clip and close the connection right after the response
headers (about 1 KB received of 1.16 MB), wait, and answer — the record of what was sent
was written when the response was built, so the answer was accepted, and an assessor bot
doing the same with forged timings (``listened_seconds=86400, plays=100000``) saved every
judgment while the organiser's page showed 950,762 s of listening.

Replayed here with a raw socket (it reads the headers one byte at a time, so not a byte
of the body, and closes) against the two servers Earshot runs behind, as real processes
on the test database: Django's development server (``make run``'s ``manage.py
runserver``, which :mod:`config.devserver` makes hand the views their connection) and
gunicorn (the production recipe). Each serves one request at a time (``--nothreading``,
one sync worker), so the next request of a test returns only once the server finished
with the one before, its record included: what the test then reads is final.

The clips are 1.15 MB WAV files of 13 s (44.1 kHz, 16-bit mono; the demo's are 1.16 MB):
their listening window is the whole clip, and half of it must reach the browser
(``EARSHOT_LISTEN_COVERAGE``) for a clip to count as heard — 573,322 bytes.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from catalog.models import Clip, RelevanceJudgment
from crowd.models import Answer, PreferenceTask
from embedded.redis import stop_process
from listening.models import AudioServed
from relevance.models import JudgmentActivity
from relevance.services.campaigns import assignment_next
from tests.helpers.audio_files import sine_wav
from tests.helpers.crowd_fixtures import build_crowd_collection, make_campaign
from tests.helpers.fixtures import ROOT, _worker_database_url
from tests.helpers.processes import environment, free_port, wait_for_port
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = pytest.mark.django_db(transaction=True)

MEDIA = Path(tempfile.mkdtemp(prefix="earshot-delivery-"))
CLIP = sine_wav(13.0, rate=44_100)
CLIP_SECONDS = 13.0
SERVERS = {
    "runserver": ["manage.py", "runserver", "--noreload", "--nothreading", "127.0.0.1:{port}"],
    "gunicorn": ["-m", "gunicorn", "config.wsgi", "--bind", "127.0.0.1:{port}", "--workers", "1"],
}


@pytest.fixture(scope="module", params=list(SERVERS))
def server(request, django_db_setup, django_db_blocker, embedded_redis):
    """The base URL of a real server process of the kind ``request.param`` names."""
    with django_db_blocker.unblock():
        database_url = _worker_database_url()
    env = environment(database_url=database_url, redis_url=embedded_redis.url,
                      MEDIA_ROOT=str(MEDIA), LOG_LEVEL="WARNING")  # fmt: skip
    port = free_port()
    command = [sys.executable, *(part.format(port=port) for part in SERVERS[request.param])]
    log = MEDIA / f"{request.param}.log"
    with open(log, "ab") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(process)


@pytest.fixture(scope="module", autouse=True)
def media_folder():
    yield
    shutil.rmtree(MEDIA, ignore_errors=True)


def give_every_clip_the_file(collection) -> None:
    """Every clip of ``collection`` plays the 13 s clip (one file, stored once)."""
    path = MEDIA / "clips" / "delivery.wav"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(CLIP)
    Clip.objects.filter(collection=collection).update(
        audio="clips/delivery.wav", duration=CLIP_SECONDS
    )


class Visitor:
    """A browser's cookies over plain HTTP: redirects are not followed, cookies are kept."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def request(self, path: str, data: bytes | None = None, headers: dict | None = None):
        """``(status, body)``; the body read to its end."""
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, path: str, **headers) -> tuple[int, bytes]:
        return self.request(path, headers=headers)

    def post(self, path: str, form: dict) -> tuple[int, bytes]:
        return self.request(path, urllib.parse.urlencode(form).encode())

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hang_up_after_headers(
    base: str, path: str, cookies: str, *, range_: str = "", hold: float = 0.0
) -> bytes:
    """Ask for ``path`` on a raw socket, read the response's headers one byte at a time
    (not a byte of the body), keep the connection ``hold`` seconds without reading, and
    close it. The headers received."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", f"Cookie: {cookies}"]
    lines += [f"Range: bytes={range_}"] if range_ else []
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            byte = connection.recv(1)
            assert byte, f"the server closed before the headers ended: {head!r}"
            head += byte
        time.sleep(hold)
    return head


AUDIO_SRC = re.compile(r'<audio[^>]* src="([^"]+)"')
KEY = re.compile(r'name="key" value="([^"]+)"')


def heard_enough(served: AudioServed) -> bool:
    return served.window_bytes_sent >= served.window_bytes * django_settings.EARSHOT_LISTEN_COVERAGE


# --- a crowd worker --------------------------------------------------------------------------


def crowd_worker(server: str, campaign, worker_id: str) -> tuple[Visitor, str, dict[str, str]]:
    """A worker who arrived, consented and opened a task: ``(visitor, key, {slot: url})``."""
    token = campaign.token
    visitor = Visitor(server)
    assert visitor.get(f"/t/{token}/?worker={worker_id}")[0] == 302
    consent = visitor.get(f"/t/{token}/consent/")[1].decode()
    signed = re.search(r'name="token" value="([^"]+)"', consent).group(1)
    assert visitor.post(f"/t/{token}/consent/", {"agree": "on", "token": signed})[0] == 302
    status, page = visitor.get(f"/t/{token}/task/")
    assert status == 200
    urls = AUDIO_SRC.findall(page.decode())
    return visitor, KEY.search(page.decode()).group(1), {u.rsplit("/", 1)[1]: u for u in urls}


def test_a_worker_who_hangs_up_after_the_headers_has_nothing_heard(server, personas):
    collection = build_crowd_collection(personas.organiser)
    give_every_clip_the_file(collection)
    campaign = make_campaign(collection, traps=0, listening_check=True, min_seconds_on_task=5)
    worker, key, urls = crowd_worker(server, campaign, "hangs-up")
    heard_url = f"/t/{campaign.token}/heard/{key}/"

    for slot in ("query", "a1", "b1"):  # what the listening check asks for
        head = hang_up_after_headers(server, urls[slot], worker.cookie_header())
        assert head.startswith(b"HTTP/1.1 200") and b"Content-Length: 1146644" in head
    asked = json.loads(worker.get(heard_url)[1])  # the server is done with the hang-ups
    assert asked["heard"] == [] and asked["ready"] is False
    counted = list(AudioServed.objects.filter(task__key=key))
    assert not any(heard_enough(s) for s in counted)
    # Waiting changes nothing: as if 60 s had passed, the answer is still refused.
    PreferenceTask.objects.filter(key=key).update(served_at=timezone.now() - timedelta(seconds=60))
    AudioServed.objects.filter(task__key=key).update(
        first_sent_at=timezone.now() - timedelta(seconds=60)
    )
    refused = worker.post(f"/t/{campaign.token}/task/", {"key": key, "choice": "a_better"})
    assert refused[0] == 400 and not Answer.objects.exists()

    # A client that keeps the connection open without reading gets its receive buffer's
    # worth counted (those bytes did reach it): still not half the clip.
    hang_up_after_headers(server, urls["a2"], worker.cookie_header(), hold=1.0)
    assert json.loads(worker.get(heard_url)[1])["heard"] == []

    # The browser plays them: every byte reaches it, and each clip counts.
    for slot in ("query", "a1", "b1"):
        status, body = worker.get(urls[slot], Range="bytes=0-")
        assert status == 206 and len(body) == len(CLIP)
    marks = json.loads(worker.get(heard_url)[1])["heard"]
    assert {"query", "a1", "b1"} <= set(marks)
    task = PreferenceTask.objects.select_related("example__query").get(key=key)
    query = AudioServed.objects.get(task=task, clip_id=task.example.query.clip_id)
    assert query.bytes_sent == len(CLIP) and query.ranges == [[0, len(CLIP) - 1]]


def test_a_range_counts_what_was_read_of_it_and_a_hung_up_range_nothing(server, personas):
    collection = build_crowd_collection(personas.organiser)
    give_every_clip_the_file(collection)
    campaign = make_campaign(collection, traps=0, listening_check=True)
    worker, key, urls = crowd_worker(server, campaign, "ranges")
    task = PreferenceTask.objects.select_related("example__query").get(key=key)

    head = hang_up_after_headers(
        server, urls["query"], worker.cookie_header(), range_="600000-"
    )  # the second half of the clip, hung up at once
    assert (
        head.startswith(b"HTTP/1.1 206") and b"Content-Range: bytes 600000-1146643/1146644" in head
    )
    status, body = worker.get(urls["query"], Range="bytes=0-99999")
    assert status == 206 and len(body) == 100_000
    worker.get(f"/t/{campaign.token}/heard/{key}/")  # the server is done with both
    served = AudioServed.objects.get(task=task, clip=task.example.query.clip)
    assert served.ranges[0] == [0, 99_999]  # the range read, exactly
    hung_up = served.bytes_sent - 100_000  # what the hung-up range got counted
    assert hung_up < 573_322 - 100_000 and not heard_enough(served)


# --- an assessor bot -------------------------------------------------------------------------


def test_an_assessor_bot_that_hangs_up_saves_nothing_and_its_forged_figures_are_cut(
    server, personas
):
    campaign = make_relevance_campaign(personas, must_listen_seconds=2)
    give_every_clip_the_file(campaign.collection)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    session = Client()
    session.force_login(personas.assessor)
    bot = Visitor(server)
    bot.jar.set_cookie(_cookie("sessionid", session.cookies["sessionid"].value))
    status, page = bot.get(f"/judge/assignments/{work.pk}/")
    assert status == 200
    candidates = [int(n) for n in re.findall(r'data-candidate="(\d+)"', page.decode())]
    assert len(candidates) >= 4
    started = time.monotonic()
    for candidate in candidates:
        hang_up_after_headers(
            server, f"/judge/assignments/{work.pk}/audio/{candidate}", bot.cookie_header()
        )
    time.sleep(2.5)  # the must-listen time, and a little more

    token = bot.cookie("csrftoken")
    forged = {"broad": 2, "fine": 90, "listened_seconds": 86_400, "plays": 100_000}
    for candidate in candidates:
        status, body = bot.request(
            f"/judge/assignments/{work.pk}/judgments",
            json.dumps({"candidate": candidate, **forged}).encode(),
            {"Content-Type": "application/json", "X-CSRFToken": token},
        )
        assert status == 400 and "Listen to at least 2 s" in json.loads(body)["detail"]
    waited = time.monotonic() - started
    assert not RelevanceJudgment.objects.filter(source=campaign.source).exists()
    kept = list(JudgmentActivity.objects.filter(assignment=work))
    assert len(kept) == len(candidates) and all(a.timing_impossible for a in kept)
    # Observed: at most the time since the bot's first request (nothing may have been
    # delivered at all); the bounds are that plus 1 s, and one play plus two a second.
    assert all(a.listened_seconds <= waited + 1 for a in kept)
    assert all(a.plays <= 1 + 2 * waited for a in kept)

    organiser = Client()
    organiser.force_login(personas.organiser)
    shown = organiser.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    row = re.search(rf"<tr><td>{personas.assessor.username}</td>(.*?)</tr>", shown, re.S).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row, re.S)
    listened, plays, impossible = cells[4], cells[5], cells[6]
    assert float(listened.removesuffix(" s")) <= len(candidates) * (waited + 1)
    assert int(plays) <= len(candidates) * (1 + 2 * waited)
    assert impossible == f"<strong>{len(candidates)}</strong>"
    assert "86400" not in shown and "86,400" not in shown and "100000" not in shown


def _cookie(name: str, value: str) -> http.cookiejar.Cookie:
    return http.cookiejar.Cookie(
        0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None, True,
        None, None, {},
    )  # fmt: skip


def test_an_honest_assessor_who_plays_a_clip_keeps_what_the_page_reports(server, personas):
    campaign = make_relevance_campaign(personas, must_listen_seconds=1)
    give_every_clip_the_file(campaign.collection)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entry = campaign.pool.filter(query=work.query).first()
    session = Client()
    session.force_login(personas.assessor)
    assessor = Visitor(server)
    assessor.jar.set_cookie(_cookie("sessionid", session.cookies["sessionid"].value))
    assessor.get(f"/judge/assignments/{work.pk}/")
    status, body = assessor.get(f"/judge/assignments/{work.pk}/audio/{entry.pk}", Range="bytes=0-")
    assert status == 206 and len(body) == len(CLIP)
    time.sleep(1.5)
    status, body = assessor.request(
        f"/judge/assignments/{work.pk}/judgments",
        json.dumps(
            {"candidate": entry.pk, "broad": 1, "listened_seconds": 1.4, "plays": 1}
        ).encode(),
        {"Content-Type": "application/json", "X-CSRFToken": assessor.cookie("csrftoken")},
    )
    assert status == 200, body
    activity = JudgmentActivity.objects.get(assignment=work, pool_entry=entry)
    assert activity.listened_seconds == 1.4 and activity.plays == 1  # 1.5 s observed
    assert not activity.timing_impossible
