"""No organiser page talks shell (issue 25, item 7): a crawl of every page of the
permission matrix (every organiser page there is) finds, in the text a person reads, no
command (``manage.py``), flag (``--replace``), file path (``docs/…``, ``README``) or field
name (``min_clips_per_list``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.test_permission_matrix import world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

SHELL_TALK = {
    "a command": re.compile(r"manage\.py|python -m|\bpip install\b"),
    "a flag": re.compile(r"(?<![\w-])--[a-z][a-z-]+"),
    "a file path": re.compile(r"\bdocs/|\.md\b|\bREADME\b|\bvar/|\.py\b"),
    "a field name": re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),
}


class VisibleText(HTMLParser):
    """The text a person reads: no tags, scripts, styles, JSON data or attribute values."""

    HIDDEN = {"script", "style", "template", "head"}

    def __init__(self):
        super().__init__()
        self.parts, self.code, self.hidden, self.in_code = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in self.HIDDEN
        self.in_code += tag == "code"

    def handle_endtag(self, tag):
        self.hidden -= tag in self.HIDDEN and self.hidden > 0
        self.in_code -= tag == "code" and self.in_code > 0

    def handle_data(self, data):
        if not self.hidden:
            (self.code if self.in_code else self.parts).append(data)


def visible_text(html: str, *, with_code: bool = False) -> str:
    """The text of ``html`` a person reads; ``<code>`` (a file format's column names, the
    literal text to type) only ``with_code``."""
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts + (parser.code if with_code else []))


def test_no_organiser_page_mentions_a_command_a_flag_a_path_or_a_field_name(client, world):  # noqa: F811
    client.force_login(world.users["owner"])
    found, pages = [], 0
    for url in world.urls:
        if url.method != "GET" or url.api:
            continue
        response = client.get(url.path)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        pages += 1
        html = response.content.decode()
        for what, pattern in SHELL_TALK.items():  # a column to type may be shown as code
            text = visible_text(html, with_code=what != "a field name")
            found += [f"{url.path}: {what} {m.group(0)!r}" for m in pattern.finditer(text)]
    assert pages > 30
    assert not found, "\n".join(sorted(set(found)))
