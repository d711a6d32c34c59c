"""No page a person sees talks like a programmer (issue 25, item 7; issue 31).

Organisers, co-organisers, assessors, crowd workers and people who meet an error page
read no command (``manage.py``), flag (``--replace``), file path (``docs/…``), column
name left unexplained (``list_a``), machine timestamp (``2026-11-28T06:49:14``), "1
queries", empty value in a sentence ("the binned P(Sat) ."), raw formula
(``σ²_s``) or Python value (``None``): the rules are :data:`tests.helpers.plain_words.RULES`.

Two sets of pages are read: every organiser page of the permission matrix (its world
holds jobs, uploads waiting for their columns and deleted things), and every page each
person reaches on the demo with a Broad-only collection beside it (``tests/helpers/page_walks.py``:
the crawl of each person's links, the crowd workers' walks, the error pages) — with
the test settings and again with ``DEBUG`` on, as ``make run`` serves them. That second
test reads about 150 pages twice and takes tens of seconds (on a quiet machine; a minute
or more on a busy one): it is the one check of every page there is.
"""

from __future__ import annotations

import pytest

from tests.helpers.page_walks import (
    assessor_pages,
    crawl,
    demo_world,
    error_pages,
    logged_in,
    worker_pages,
)
from tests.helpers.plain_words import page_text, problems

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.one_pass("sqlite", why="the words of a page do not depend on the database"),
]


def _findings(pages) -> list[str]:
    return sorted({f"{what}: {problem}" for what, html in pages for problem in problems(html)})


def test_no_organiser_page_of_the_permission_matrix_speaks_programmer_talk(client, world):
    client.force_login(world.users["owner"])
    pages = []
    for url in world.urls:
        if url.method != "GET" or url.api:
            continue
        response = client.get(url.path)
        if response.status_code == 200 and "text/html" in response["Content-Type"]:
            pages.append((url.path, response.content.decode()))
    assert len(pages) > 30
    found = _findings(pages)
    assert not found, "\n".join(found)


def test_no_page_of_any_person_speaks_programmer_talk_with_debug_off_or_on(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    demo = demo_world(settings.MEDIA_ROOT)
    found = []
    for debug in (False, True):  # the test settings, then make run's
        settings.DEBUG = debug
        pages = []
        for who in ("organiser", "read-only co-organiser"):
            pages += crawl(logged_in(*demo.logins[who]), who)
        pages += assessor_pages(demo) + worker_pages(demo, tag="-debug" * debug)
        pages += error_pages(demo)
        assert len(pages) > 120
        seen = {what.split(" /")[0].split(" (")[0] for what, _ in pages}
        assert {"worker done", "failing worker done", "MTurk preview", "MTurk worker done",
                "worker declining", "assessor headphone screen", "CSRF failure"} <= seen  # fmt: skip
        found += [f"DEBUG {'on' if debug else 'off'}: {f}" for f in _findings(pages)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("html", "what"),
    [
        ("<p>Run <code>manage.py import_runs</code>.</p>", "a command"),
        ("<p>Import with --replace.</p>", "a flag"),
        ("<p>See docs/uploads.md.</p>", "a file path"),
        ("<p>Stored in /tmp/earshot/x.wav.</p>", "a file path"),
        ("<p>Set min_clips_per_list.</p>", "a field name"),
        ("<p>Computed at 2026-11-28T06:49:14 UTC.</p>", "a machine timestamp"),
        ("<p>1 queries reach Eρ² = 0.95.</p>", "a plural after 1"),
        ("<p>RMS difference of the binned P(Sat) <strong></strong>.</p>", "an empty value"),
        ("<p>systems (σ²_s)</p>", "a formula symbol"),
        ("<p>Trust: None</p>", "a Python value"),
        ("<p>Columns <code>list_a, list_b</code>.</p>", "a column name"),
        (
            '<nav><a href="/t/">Deleted collections</a>\n<a href="/r/">Relevance campaigns</a></nav>',
            "links run together",
        ),
    ],
)
def test_the_check_finds_each_kind_of_programmer_talk(html, what):
    assert any(found.startswith(what) for found in problems(html)), problems(html)


@pytest.mark.parametrize(
    "html",
    [
        "<p>11 queries reach Eρ² = 0.95; 1 query does; 0.1 queries is nothing.</p>",
        "<p>Computed at <time datetime='2026-11-28T06:49:14'>2026-11-28 06:49</time> UTC.</p>",
        "<p>The mapping of <a href='x'>CG@5</a>. Show <a href='y'>them</a>.</p>",
        "<p>σ<sup>2</sup><sub>s</sub>, the systems' variance</p>",
        "<dl><dt><code>list_a</code></dt><dd>the first list</dd></dl><pre><code>list_a</code></pre>",
        "<script>const a_b = None;</script><p>None of the workers answered.</p>",
        '<nav><a href="/a/">Deleted collections</a> · <a href="/b/">People</a></nav>',
        '<nav class="tabs"><a href="?a">All clips</a><a href="?b">Queries</a></nav>',
        '<p><a class="button" href="/n/">New collection</a> <a href="/r/">Relevance campaigns</a></p>',
    ],
)
def test_the_check_leaves_plain_words_alone(html):
    assert problems(html) == [], problems(html)


def test_the_text_is_read_as_a_browser_lays_it_out():
    text = page_text("<p>Show <a href='/x'>them</a>.</p><p>Next<br>line</p><script>x_y</script>")
    assert text.plain == "Show them.\nNext line"
