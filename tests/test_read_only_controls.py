"""A read-only co-organiser is offered no control they may not use.

Every page of the permission matrix (:mod:`tests.helpers.pages`) that a
read-only co-organiser may open is requested as them (rita), as the owner (olivia) and
as a full co-organiser (fiona). Each page's controls are read from its HTML: every
``<form action>`` (a form without one posts to the page itself), every ``formaction``
of a button, every link. A control whose URL name and method need write or share
access in the matrix is a write control: rita's pages must show none, and the owner's
and fiona's must show the ones the campaign and collection pages are there for
(Forgive, Exclude, Reinstate, Add examples, Count/Leave out a source, Recompute, Stop,
Cancel, Try again). The server refusing such a post is tested by the matrix itself.
"""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from work.jobs import NOT_SENT
from work.models import Job

pytestmark = pytest.mark.django_db

SHOWN_TO_WRITERS = {
    ("POST", "crowd:preference_trap_contest"),  # Forgive / Count again
    ("POST", "crowd:preference_worker_exclude"),
    ("POST", "crowd:preference_worker_reinstate"),
    ("POST", "crowd:preference_worker_browser_reset"),
    ("POST", "crowd:preference_examples_from_systems"),  # Add examples
    ("POST", "crowd:preference_examples_from_csv"),
    ("POST", "catalog:judgment_source_status"),
    ("POST", "relevance:relevance_campaign_open"),  # Stop the campaign
    ("POST", "catalog:job_cancel"),
    ("POST", "catalog:job_retry"),  # Try again
    ("POST", "evaluation:results_recompute"),
    ("POST", "evaluation:mapping_recompute"),
    ("GET", "crowd:preference_campaign_settings"),
    ("GET", "crowd:preference_example_trap"),
    ("GET", "relevance:relevance_campaign_settings"),
    ("GET", "catalog:collection_edit"),
    ("GET", "evaluation:results_settings"),
}


class Controls(HTMLParser):
    """``(method, path)`` of every form, button ``formaction`` and link of a page."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page, self.found, self._form_method = page, set(), "GET"

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form":
            self._form_method = (a.get("method") or "get").upper()
            self._add(self._form_method, a.get("action") or self.page)
        elif tag in ("button", "input") and "formaction" in a:
            self._add((a.get("formmethod") or self._form_method).upper(), a["formaction"])
        elif tag == "a" and a.get("href"):
            self._add("GET", a["href"])

    def _add(self, method: str, target: str) -> None:
        self.found.add((method, urlsplit(urljoin(self.page, target)).path))


def write_controls(client: Client, path: str, writes: set) -> set[tuple[str, str]]:
    response = client.get(path)
    assert response.status_code == 200, path
    parser = Controls(urlsplit(path).path)
    parser.feed(response.content.decode())
    named = set()
    for method, target in parser.found:
        try:
            named.add((method, resolve(target).view_name))
        except Resolver404:
            continue  # static files, the task link shown as text, …
    return named & writes


def read_pages(world) -> list[str]:
    """Every HTML page a read-only co-organiser may open, plus the low-cost campaign's page
    (its Stop button) and the result of a job that can be tried again."""
    pages = [
        u.path for u in world.urls
        if u.method == "GET" and u.need == "read" and not u.api
        and not any(part in u.path for part in (".csv", ".json", "/qrels", "fragment=1"))
    ]  # fmt: skip
    job = Job.objects.filter(state="running").first()
    low = job.collection.relevance_campaigns.get(mode="lowcost")
    failed = Job.objects.create(kind="generate_examples", owner=job.owner, collection=job.collection,
                                state="failed", error=NOT_SENT, params=job.params)  # fmt: skip
    return [*pages, f"/relevance-campaigns/{low.pk}/", f"/jobs/{failed.pk}/result/"]


def test_a_read_only_co_organiser_sees_no_write_control_and_writers_see_them(world):
    writes = {(u.method, u.name) for u in world.urls if u.need in ("write", "share")}
    assert writes >= SHOWN_TO_WRITERS  # the names above are the matrix's
    pages = read_pages(world)
    seen = {}
    for persona in ("read", "owner", "full"):
        client = Client()
        client.force_login(world.users[persona])
        seen[persona] = {page: write_controls(client, page, writes) for page in pages}
    shown_to_reader = {page: found for page, found in seen["read"].items() if found}
    assert shown_to_reader == {}
    for persona in ("owner", "full"):
        shown = set().union(*seen[persona].values())
        assert shown >= SHOWN_TO_WRITERS, (persona, SHOWN_TO_WRITERS - shown)
