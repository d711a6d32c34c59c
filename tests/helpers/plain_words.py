"""What the plain-words check reads and what it refuses (issue 25, item 7; issue 31).

:func:`page_text` is the text a person reads on a page, as a browser lays it out: inline
elements (links, emphasis, ``<code>``, ``<time>``) run on with the words around them,
block elements start a new line; scripts, styles, templates, the ``<head>`` and
attribute values are not read. :func:`problems` lists what in that text is programmer
talk, each with the words around it, so a failure says where to look.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

INLINE = {
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "label",
    "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
    "wbr", "output", "meter", "progress", "br",
}  # fmt: skip
HIDDEN = {"script", "style", "template", "head", "noscript"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Text:
    """A page's readable text: ``plain`` (outside ``<code>``), ``code`` (each ``<code>``
    element's text), ``defined`` (the ``<code>`` names a definition list explains:
    ``<dt><code>list_a</code></dt><dd>…</dd>``) and ``run_together`` (links of several
    words with nothing but a space between them, which read as one: "Deleted collections
    Relevance campaigns")."""

    plain: str
    code: list[str] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)
    run_together: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.code: list[str] = []
        self.defined: set[str] = set()
        self.stack: list[str] = []
        self.hidden = 0
        self.current_code: list[str] | None = None
        self.pending: str | None = None
        self.run_together: list[str] = []
        self.link: list[str] | None = None  # the text of the link being read
        self.last_link: str | None = None  # a link just ended, and only spaces since
        self.last_link_button = False
        self.tabs = 0  # inside nav.tabs: links styled apart

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag in ("br", "hr", "img", "input"):
                self.parts.append(" " if tag == "br" else "\n")
            return
        self.stack.append(tag)
        classes = (dict(attrs).get("class") or "").split()
        if tag in HIDDEN:
            self.hidden += 1
        if tag not in INLINE:
            self.parts.append("\n")
            self.last_link = None
        if tag == "nav" and "tabs" in classes:
            self.tabs += 1
        if tag == "code":
            self.current_code = []
        if tag == "a":
            if self.last_link is not None and not self.last_link_button and not self.tabs:
                self.pending = self.last_link
            else:
                self.pending = None
            self.link, self.last_link_button = [], "button" in classes

    def handle_endtag(self, tag):
        if tag in VOID or tag not in self.stack:
            return
        while self.stack:
            top = self.stack.pop()
            if top in HIDDEN:
                self.hidden -= 1
            if top == "nav" and self.tabs:
                self.tabs -= 1
            if top == "a" and self.link is not None:
                text = " ".join("".join(self.link).split())
                if self.pending and (" " in text or " " in self.pending):
                    self.run_together.append(f"“{self.pending}” “{text}”")
                self.last_link, self.link, self.pending = text, None, None
            if top == "code" and self.current_code is not None:
                text = "".join(self.current_code)
                self.code.append(text)
                if "dt" in self.stack:
                    self.defined.add(text.strip())
                self.current_code = None
            if top == tag:
                break
        if tag not in INLINE:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.hidden:
            return
        if self.link is not None:
            self.link.append(data)
        elif data.strip():
            self.last_link = None
        if self.current_code is not None:
            self.current_code.append(data)
            self.parts.append("\x00")  # a code span: not read as words (see Text.code)
            return
        self.parts.append(data)


def page_text(html: str) -> Text:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    plain = re.sub(r"\x00+", "\x00", "".join(reader.parts))
    plain = "\n".join(re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in plain.split("\n"))
    plain = re.sub(r"\n{2,}", "\n", plain).strip()
    return Text(plain=plain, code=reader.code, defined=reader.defined,
                run_together=reader.run_together)  # fmt: skip


PLURAL_NOUNS = (
    "queries|answers|examples|workers|clips|systems|judgments|lists|pairs|assessors|"
    "questions|campaigns|files|lines|rows|seconds|minutes|hours|days|times|bins|members|"
    "codes|collections|measures|participants|candidates|people|sources|submissions|"
    "resamples|trials|tasks|entries|levels|jobs|traps|items|errors|changes"
)
RULES: dict[str, re.Pattern] = {
    "a command": re.compile(r"manage\.py|python -m|\bpip install\b"),
    "a flag": re.compile(r"(?<![\w-])--[a-z][a-z-]+"),
    "a file path": re.compile(
        r"\bdocs/|\.md\b|\bREADME\b|\bvar/|\.py\b|(?<![\w.])/(?:tmp|home|work|srv|usr|etc)/"
    ),
    "a field name": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "a machine timestamp": re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"),
    "a plural after 1": re.compile(rf"(?<![\d.,−-])\b1 (?:more |new |other )?(?:{PLURAL_NOUNS})\b"),
    "an empty value": re.compile(r"(?<=[\w)\]”%]) [.,;:](?=\s|$)|\(\s*\)|“\s*”|\bof\s+\.|:\s*\."),
    "a formula symbol": re.compile(
        r"[α-ωΑ-Ω][²³]?_[A-Za-z{]|\b[A-Z]_[a-z]{1,4}\b|\^\{|\\[a-z]{2,}\{?"
    ),
    "a Python value": re.compile(
        r"(?<=[^.!?\n] )None\b(?! of\b)|\bobject at 0x|<QuerySet|\{'|\['|\bDecimal\(|\bdatetime\.|\bnan\b|\bNaN\b"
    ),
}
"""What the check refuses in the text a person reads, by name."""

CODE_RULES = ("a command", "a flag", "a file path")
"""What is refused inside ``<code>`` too (a field name there is a column to type: it must be
explained on the page, :func:`problems`)."""


def _around(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 40) : end + 40].split()).replace("\x00", "…")


def problems(html: str) -> list[str]:
    """Every piece of programmer talk a person would read on the page ``html``."""
    text = page_text(html)
    found = []
    for what, pattern in RULES.items():
        for match in pattern.finditer(text.plain):
            found.append(f"{what} {match.group(0)!r} in “{_around(text.plain, *match.span())}”")
    found += [f"links run together {pair}" for pair in text.run_together]
    for code in text.code:
        for what in CODE_RULES:
            for match in RULES[what].finditer(code):
                found.append(f"{what} {match.group(0)!r} in code “{code[:80]}”")
        for match in RULES["a field name"].finditer(code):
            if match.group(0) not in text.defined and code.strip() not in text.defined:
                found.append(
                    f"a column name {match.group(0)!r} in code “{code[:80]}” that no "
                    "definition list on the page explains"
                )
    return found


def measure_result_pages(collection, measures) -> list[str]:
    """The results pages of each measure of ``measures`` in ``collection``: its leaderboard,
    significance, reliability, and its first system's page."""
    base = f"/collections/{collection.pk}/results"
    system = collection.systems.order_by("pk").first()
    pages = []
    for measure in measures:
        pages += [f"{base}/{page}/?measure={measure}" for page in ("leaderboard", "significance", "reliability")]  # fmt: skip
        pages.append(f"{base}/systems/{system.pk}/?measure={measure}")
    return pages


def assert_pages_speak_plainly(client, urls) -> None:
    """Each page of ``urls`` opens (200) and holds no programmer talk (:func:`problems`)."""
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert problems(response.content.decode()) == [], url
