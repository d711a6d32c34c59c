"""Find every HTML form a person can reach, by crawling pages as a browser would.

``tests/test_form_fuzz.py`` fuzzes every field of every form this finds. The forms are
never listed by hand: a crawl from a few entry pages follows every link of this site in
the HTML (``<a href>``), reads every ``<form>`` with its fields as the browser would
send them (text, hidden, number, checked boxes and radios, the selected option, text
areas, the first named submit button, files), and keeps one form of each *shape* — its
method, its action with every id written as ``N``, and its field names — so a table of
50 workers' "Exclude" forms is fuzzed once. A new page or form is found the day it is
linked from a page.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urljoin, urlsplit

from django.urls import Resolver404, resolve

NUMBER = re.compile(r"(?<=/)\d+(?=/|$)")


@dataclass
class Field:
    name: str
    kind: str
    """``text`` (any typed value, hidden too), ``choice`` (select, radio), ``check``,
    ``file``, ``submit``."""
    value: str = ""
    options: list[str] = field(default_factory=list)


@dataclass
class Form:
    page: str
    action: str
    method: str
    multipart: bool
    fields: list[Field] = field(default_factory=list)

    @property
    def shape(self) -> tuple:
        """The view the form is sent to (by its URL's name, so that the forms deleting a
        system, a campaign or a whole collection, one view, are one) and its fields."""
        path = urlsplit(self.action).path
        try:
            view = resolve(path).view_name
        except Resolver404:
            view = NUMBER.sub("N", path)
        return (self.method, view, tuple(sorted({f.name for f in self.fields})))

    def defaults(self) -> list[tuple[str, str]]:
        """What a browser sends when the form is submitted as the page shows it."""
        sent: list[tuple[str, str]] = []
        for f in self.fields:
            if f.kind in ("text", "choice", "check", "submit"):
                sent.append((f.name, f.value))
        return sent


class _Parser(HTMLParser):
    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Field | None = None
        self._select_chosen = False
        self._textarea: Field | None = None
        self._submitted = False

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(urljoin(self.page, a["href"]))
        elif tag == "form":
            self._form = Form(
                page=self.page,
                action=urljoin(self.page, a.get("action") or self.page),
                method=(a.get("method") or "get").upper(),
                multipart="multipart" in a.get("enctype", ""),
            )
            self._submitted = False
        elif self._form is None:
            return
        elif tag == "input" and a.get("name") and "disabled" not in a:
            kind = a.get("type", "text").lower()
            name, value = a["name"], a.get("value", "")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._form.fields.append(Field(name, "check", value or "on"))
                else:
                    self._form.fields.append(Field(name, "unchecked", value or "on"))
            elif kind in ("submit", "image"):
                if not self._submitted:
                    self._form.fields.append(Field(name, "submit", value))
                    self._submitted = True
            elif kind == "file":
                self._form.fields.append(Field(name, "file"))
            elif kind not in ("button", "reset"):
                self._form.fields.append(Field(name, "text", value))
        elif tag == "button" and a.get("name") and a.get("type", "submit") == "submit":
            if not self._submitted:
                self._form.fields.append(Field(a["name"], "submit", a.get("value", "")))
                self._submitted = True
        elif tag == "select" and a.get("name") and "disabled" not in a:
            self._select = Field(a["name"], "choice")
            self._select_chosen = False
            self._form.fields.append(self._select)
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select.options.append(value)
            if "selected" in a:
                self._select.value, self._select_chosen = value, True
            elif not self._select_chosen and len(self._select.options) == 1:
                self._select.value = value  # a browser sends the first option
        elif tag == "textarea" and a.get("name"):
            self._textarea = Field(a["name"], "text")
            self._form.fields.append(self._textarea)

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag):
        if tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def page_parts(path: str, html: str) -> tuple[list[str], list[Form]]:
    """The links (absolute, of this site or not) and forms of the page at ``path``."""
    parser = _Parser(urljoin("http://testserver", path))
    parser.feed(html)
    parser.close()
    return parser.links, parser.forms


def local(url: str) -> str | None:
    """``url`` as a path with its query, if it is a page of this site."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.netloc != "testserver":
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def link_shape(path: str) -> tuple:
    """Links that differ only in their ids, or in the values of their query, are one page."""
    parts = urlsplit(path)
    return NUMBER.sub("N", parts.path), tuple(sorted(k for k, _ in parse_qsl(parts.query)))


@dataclass
class Crawl:
    pages: int = 0
    forms: dict[tuple, Form] = field(default_factory=dict)


def crawl(
    get: Callable[[str], object],
    seeds: Iterable[str],
    *,
    skip: Callable[[str], bool],
    on_form: Callable[[Form], None],
    max_pages: int = 400,
) -> Crawl:
    """Visit, breadth first, the seeds and every page of this site they link to (one page
    of each :func:`link_shape`), calling ``on_form`` on each form of a new shape as soon
    as it is found (so it is tried in the state of the site it was found in)."""
    found = Crawl()
    queue, seen = deque(seeds), set()
    while queue and found.pages < max_pages:
        path = queue.popleft()
        shape = link_shape(path)
        if shape in seen or skip(path):
            continue
        seen.add(shape)
        response = get(path)
        if response.status_code in (301, 302, 303, 307, 308):  # where a person is sent next
            target = local(urljoin(f"http://testserver{path}", response["Location"]))
            if target is not None:
                queue.appendleft(target)
            continue
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        found.pages += 1
        links, forms = page_parts(path, response.content.decode("utf-8", "replace"))
        for form in forms:
            action = local(form.action)  # a form to another site (MTurk's) is not ours
            if action is not None and form.shape not in found.forms and not skip(action):
                found.forms[form.shape] = form
                on_form(form)
        queue.extend(p for p in map(local, links) if p is not None)
    return found
