"""Every field of every HTML form, fuzzed: no 500 and no redirect off the site (issue 28, item 4).

The forms are found by crawling the pages (:mod:`tests.helpers.form_crawler`), as an organiser,
an assessor, two crowd workers (one before and one after consent, one of them in a
campaign with the headphone screen) and an anonymous visitor, in the world of the
permission matrix (``tests/helpers/pages.py``: a shared collection with every
kind of campaign, job, worker, trash item and upload). Each form is sent as the page
shows it, then once per field with that field left out and once per field and hostile
value (:data:`VALUES`: empty, a digit that is no ASCII digit, 3,000 nines, NUL and a byte
sequence that is no UTF-8, another site's URL, a ``javascript:`` link).

Each answer must be below 500; a redirect must stay on this site, and no answer may put
a hostile link into a page's ``href``, ``src`` or ``action``. Every request runs in a
savepoint that is rolled back and the browser's cookies are put back after it, so each
case meets the same site. The tally (cases, accepted, 4xx, 5xx) is printed at the end
of the run as ``form fields``. Before this test: the results settings with a
non-numeric ``campaign`` (a 500 in 576 of the issue's cases), a worker control's
``next`` as a bare word (``NoReverseMatch``), a trash restore's ``back`` as a bare word
(500) or another site (a redirect there).
"""

from __future__ import annotations

import re
from copy import deepcopy
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from crowd.models import PreferenceCampaign
from crowd.services.campaigns import preference_campaign_create
from people.models import Invitation
from people.services import invitation_create
from relevance.services.campaigns import assignment_next, relevance_campaign_create
from tests.helpers.crowd_http import Browser
from tests.helpers.form_crawler import Form, crawl
from tests.helpers.fuzzing import rolled_back, tally
from tests.helpers.platform_links import prolific_id

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.one_pass(
        "postgresql",
        why="hostile values (NUL, numbers past bigint) are refused by PostgreSQL, not SQLite",
    ),
]

EVIL = "https://evil.example/phish"
VALUES: list[str | bytes] = [
    "", "²", "9" * 3000, b"a\x00\xed\xa0\x80", EVIL, "javascript:alert(1)",
]  # fmt: skip
"""Hostile values: empty; a digit that is no ASCII digit (``int()`` refuses it, ``isdigit``
does not); 3,000 nines (past ``bigint`` as a number, past every column as a text); NUL and
a lone surrogate's UTF-8, which no decoder accepts (raw bytes; in a multipart body, a
letter and NUL); another site's URL; a ``javascript:`` link (a bare word to Django's ``redirect``)."""
NOT_FUZZED = {"csrfmiddlewaretoken"}
HOSTILE_LINK = re.compile(
    r"""(?:href|src|action)\s*=\s*["']?\s*(?:javascript:|https?://evil|//evil)"""
)


def skipped(path: str) -> bool:
    """Django's admin and the API (fuzzed by ``tests/test_fuzz.py``) are not pages of ours
    to crawl; logging out would end the crawl's session."""
    return path.startswith(("/admin/", "/api/", "/logout/", "/static/", "/media/"))


class Fuzzer:
    def __init__(self, client: Client, who: str, tmp_path):
        self.client, self.who, self.tmp_path = client, who, tmp_path
        self.failures: list[str] = []
        self.cases = 0

    def get(self, path: str):
        return self.client.get(path)

    def send(self, form: Form, pairs: list[tuple[str, str | bytes]], files: dict) -> None:
        cookies = deepcopy(self.client.cookies)
        path = form.action.removeprefix("http://testserver")
        try:
            with rolled_back():
                if form.method == "GET":
                    response = self.client.get(path.split("?")[0] + "?" + urlencode(pairs))
                elif form.multipart:
                    data: dict[str, list] = {}
                    for name, value in pairs:
                        if isinstance(value, str):
                            data.setdefault(name, []).append(value)
                    response = self.client.post(path, {**data, **files})
                else:
                    response = self.client.post(
                        path, urlencode(pairs), content_type="application/x-www-form-urlencoded"
                    )
        finally:
            self.client.cookies = cookies
        self.cases += 1
        status = response.status_code
        tally(
            "form fields",
            "crash" if status >= 500 else "clean error" if status >= 400 else "accepted",
        )
        what = f"{self.who} {form.method} {path} {[(n, v if len(v) < 40 else v[:20] + '…') for n, v in pairs]}"
        if status >= 500:
            self.failures.append(f"{status}: {what}")
        elif 300 <= status < 400:
            location = response["Location"].removeprefix("http://testserver")
            if not location.startswith("/") or location.startswith(("//", "/\\")):
                self.failures.append(f"redirect to {location}: {what}")
        elif "html" in response.get("Content-Type", "") and HOSTILE_LINK.search(
            response.content.decode("utf-8", "replace")
        ):
            self.failures.append(f"a hostile link in the page: {what}")

    def fuzz(self, form: Form) -> None:
        defaults = form.defaults()
        files = {
            f.name: SimpleUploadedFile("tiny.txt", b"q1\td1\t50\n")
            for f in form.fields
            if f.kind == "file"
        }
        self.send(form, defaults, files)
        names = list(dict.fromkeys(f.name for f in form.fields if f.name not in NOT_FUZZED))
        for name in names:
            kept = [(n, v) for n, v in defaults if n != name]
            if name in files:
                self.send(form, kept, {k: v for k, v in files.items() if k != name})
                hostile = SimpleUploadedFile(
                    "../\x00evil.wav", b"RIFF\x00\x00\x00\x00WAVE" + b"\xff" * 64
                )
                self.send(form, kept, {**files, name: hostile})
                continue
            self.send(form, kept, files)
            for value in VALUES:
                if isinstance(value, bytes) and form.multipart:
                    value = "a\x00"  # a multipart body carries text fields as text
                self.send(form, [*kept, (name, value)], files)


def run(client: Client, who: str, seeds: list[str], tmp_path, found: dict) -> list[str]:
    fuzzer = Fuzzer(client, who, tmp_path)
    result = crawl(fuzzer.get, seeds, skip=skipped, on_form=fuzzer.fuzz)
    for shape in result.forms:
        found.setdefault(shape, who)
    return fuzzer.failures


def test_no_field_of_any_form_gives_a_500_or_a_redirect_off_the_site(
    world,
    personas,
    redis_cache,
    settings,
    tmp_path,
):
    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    settings.MEDIA_ROOT = tmp_path / "media"
    owner = world.users["owner"]
    campaign = PreferenceCampaign.objects.filter(collection__owner=owner).order_by("pk").first()
    collection = campaign.collection
    screened = preference_campaign_create(  # (make_campaign's name is the world's campaign's)
        collection=collection, name="Screened study", headphone_check=True, trap_rate=0.0,
        listening_check=False,
    )  # fmt: skip
    relevance = relevance_campaign_create(
        collection=collection, name="Screened", cutoff=5, assessors=[personas.assessor],
        must_listen_seconds=0, headphone_check=True,
    )  # fmt: skip
    assigned = assignment_next(
        campaign=collection.relevance_campaigns.get(name="Similarity"), assessor=personas.assessor
    )
    found: dict[tuple, str] = {}
    failures: list[str] = []

    organiser = Client(REMOTE_ADDR="10.28.9.1")
    organiser.force_login(owner)
    pages = ["/", *(u.path for u in world.urls if u.method == "GET" and not skipped(u.path))]
    failures += run(organiser, "organiser", pages, tmp_path, found)

    assessor = Client(REMOTE_ADDR="10.28.9.2")
    assessor.force_login(personas.assessor)
    failures += run(assessor, "assessor", ["/", f"/judge/assignments/{assigned.pk}/",
                    f"/judge/campaigns/{relevance.pk}/headphones/"], tmp_path, found)  # fmt: skip

    arrived = Browser(campaign)
    arrived.arrive(f"PROLIFIC_PID={prolific_id('fuzz-a')}&STUDY_ID=S&SESSION_ID=a")
    token = campaign.token
    failures += run(arrived.client, "worker", [f"/t/{token}/consent/"], tmp_path, found)
    working = Browser(campaign)
    working.start(f"PROLIFIC_PID={prolific_id('fuzz-b')}&STUDY_ID=S&SESSION_ID=b")
    failures += run(
        working.client, "worker", [f"/t/{token}/task/", f"/t/{token}/end/"], tmp_path, found
    )
    listener = Browser(screened)
    listener.arrive(f"PROLIFIC_PID={prolific_id('fuzz-c')}&STUDY_ID=S&SESSION_ID=c")
    listener.consent()
    failures += run(listener.client, "worker", [f"/t/{screened.token}/task/"], tmp_path, found)

    invitation = invitation_create(user=personas.assessor, created_by=personas.organiser)
    assert Invitation.objects.filter(user=personas.assessor).exists()
    failures += run(Client(), "anonymous", ["/login/", invitation.path], tmp_path, found)

    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:60])
    views = {view for _, view, _ in found}
    # the forms of the 500s and open redirects were among those found and fuzzed
    assert {"evaluation:results_settings", "crowd:preference_worker_exclude",
            "catalog:trash_restore", "catalog:delete", "login", "crowd:task_consent",
            "crowd:task", "people:people", "crowd:task_headphone_trial",
            "relevance:assessor_headphone_trial"} <= views, views  # fmt: skip
    print(
        f"\n{len(found)} forms fuzzed:",
        *sorted(f"{w} {m} {a}" for (m, a, _), w in found.items()),
        sep="\n  ",
    )
