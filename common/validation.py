"""What a name, an id or a text may hold: checked once, before any write, on every database.

SQLite stores anything; PostgreSQL refuses a NUL byte and a string longer than its
``varchar`` column with a ``DataError`` — after the work is done, as a traceback. Every
importer, form, serializer and the crowd worker's arrival therefore checks its input
here first, so both databases accept and refuse exactly the same values and the
message names the field (and the importers add the file and line).

Three kinds of value:

``identifier``
    clip and query ids: what TREC files, qrels downloads and answer lists write
    between spaces, so no whitespace at all (``d00042``, ``a1b2/c3.wav``);
``name``
    one line of text: system, collection, campaign and source names, worker ids,
    titles, artists, genres (spaces allowed, no tab or line break);
``text``
    free text over several lines: descriptions, comments, instructions (tab and line
    breaks allowed).

None of them may hold a NUL or another control character (Unicode category Cc), a
lone surrogate (which no UTF-8 database can store), or a bidirectional override or
isolate (U+202A–U+202E, U+2066–U+2069, which make a name display as another: the
"Trojan source" trick). Lengths are counted in characters, as PostgreSQL's
``varchar(n)`` counts them, and come from the model's column (:func:`column_length`).
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.deconstruct import deconstructible

Kind = Literal["identifier", "name", "text"]
KINDS: tuple[str, ...] = ("identifier", "name", "text")

TEXT_MAX_LENGTH = 10_000
"""Free text without a column limit (a ``TextField``) is still bounded: 10,000 characters."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
MULTILINE_ALLOWED = frozenset("\t\n\r")


def column_length(model: type[models.Model], field: str) -> int:
    """The ``max_length`` of a model's character column (``TEXT_MAX_LENGTH`` for a TextField)."""
    return model._meta.get_field(field).max_length or TEXT_MAX_LENGTH


def _character_problem(character: str, kind: Kind) -> str | None:
    code = ord(character)
    if code == 0:
        return "contains a NUL character"
    if 0xD800 <= code <= 0xDFFF:
        return f"contains an invalid character (a lone surrogate, U+{code:04X})"
    if character in BIDI_CONTROLS:
        return f"contains a bidirectional control character (U+{code:04X})"
    if unicodedata.category(character) == "Cc":
        if kind == "text" and character in MULTILINE_ALLOWED:
            return None
        if character in MULTILINE_ALLOWED:
            return f"contains a tab or line break (U+{code:04X})"
        return f"contains a control character (U+{code:04X})"
    if kind == "identifier" and character.isspace():
        return f"contains whitespace (U+{code:04X}); ids are written between spaces in TREC files"
    return None


def text_problem(
    value: object, *, kind: Kind = "name", max_length: int | None = None, required: bool = True
) -> str | None:
    """What is wrong with ``value`` as a ``kind`` of at most ``max_length`` characters, or None.

    >>> text_problem("GoodEar v2"), text_problem("a\\x00b")
    (None, 'contains a NUL character')
    >>> text_problem("d 1", kind="identifier")
    'contains whitespace (U+0020); ids are written between spaces in TREC files'
    >>> text_problem("x" * 201, max_length=200)
    'is longer than 200 characters (201)'
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if not isinstance(value, str):
        return "is not text"
    if required and not value.strip():
        return "is empty"
    limit = max_length if max_length is not None else TEXT_MAX_LENGTH
    if len(value) > limit:
        return f"is longer than {limit:,} characters ({len(value):,})"
    if value.isascii() and value.isprintable() and (kind != "identifier" or " " not in value):
        return None  # the common case, without a look at each character
    for character in value:
        problem = _character_problem(character, kind)
        if problem:
            return problem
    return None


def shown(value: str, limit: int = 40) -> str:
    """``value`` fit for an error message: quoted with escapes, cut to ``limit`` characters."""
    text = repr(value[:limit])
    return text + "…" if len(value) > limit else text


def check_text(
    value: object,
    *,
    what: str,
    kind: Kind = "name",
    max_length: int | None = None,
    required: bool = True,
) -> str:
    """``value`` unchanged if it is fine, else a ``ValidationError`` naming ``what``.

    >>> check_text("S/1", what="system name", max_length=200)
    'S/1'
    """
    problem = text_problem(value, kind=kind, max_length=max_length, required=required)
    if problem:
        if isinstance(value, str) and value:
            raise ValidationError(f"{what} {shown(value)} {problem}")
        raise ValidationError(f"{what} {problem}")
    return value  # type: ignore[return-value]


@deconstructible
class TextValidator:
    """The same rules as a Django/DRF field validator (forms and serializers use it)."""

    def __init__(self, kind: Kind = "name", max_length: int | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        self.kind = kind
        self.max_length = max_length

    def __call__(self, value) -> None:
        if value in (None, ""):
            return  # required-ness is the field's business
        problem = text_problem(value, kind=self.kind, max_length=self.max_length)
        if problem:
            raise ValidationError(f"This value {problem}.", code="invalid_text")

    def __eq__(self, other) -> bool:
        return isinstance(other, TextValidator) and (self.kind, self.max_length) == (
            other.kind,
            other.max_length,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.max_length))


def identifier_validator(max_length: int | None = None) -> TextValidator:
    return TextValidator("identifier", max_length)


SPREADSHEET_FORMULA_STARTS = ("=", "+", "-", "@")
"""How a cell a spreadsheet would run as a formula begins (OWASP, "CSV Injection")."""


def check_platform_code(value) -> None:
    """A completion, screen-out or no-consent code may not begin like a spreadsheet formula.

    Organisers paste these codes into Prolific or MTurk and match them against the
    approvals export; a code beginning with ``=``, ``+``, ``-`` or ``@`` would have to be
    written there with a leading apostrophe (``common.csv_export.spreadsheet_safe``) and would
    no longer match what the worker typed.

    >>> check_platform_code("C1A2B3C4")
    >>> check_platform_code("-C1A2")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['A code may not begin with “-”: spreadsheets read it as a formula.']
    """
    if isinstance(value, str) and value.startswith(SPREADSHEET_FORMULA_STARTS):
        raise ValidationError(
            f"A code may not begin with “{value[0]}”: spreadsheets read it as a formula.",
            code="formula_start",
        )


def name_validator(max_length: int | None = None) -> TextValidator:
    return TextValidator("name", max_length)


def text_validator(max_length: int | None = None) -> TextValidator:
    return TextValidator("text", max_length)


# Ids in URLs, query strings and form choices: ASCII digits within a ``bigint`` (what every
# primary key is on both databases). ``str.isdigit`` is not the rule: it accepts "²" and
# "١", which ``int()`` then refuses, and a number past 2**63 - 1 makes SQLite raise
# OverflowError and PostgreSQL a DataError — both a 500 before this rule.
ID_MAX = 2**63 - 1
ID_PATTERN = "[0-9]{1,19}"


def parse_id(value) -> int | None:
    """``value`` as a row id (a positive ``bigint`` written in ASCII digits), else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 0 < value <= ID_MAX else None
    if not isinstance(value, str) or not (0 < len(value) <= 19) or not value.isascii():
        return None
    if not value.isdigit():
        return None
    number = int(value)
    return number if 0 < number <= ID_MAX else None


class IdConverter:
    """The URL converter ``<id:name>``: :func:`parse_id`'s rule, so a path with a number out
    of range matches no pattern (a 404) instead of reaching a query."""

    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(f"{value!r} is not an id")  # Django: this pattern does not match
        return number

    def to_url(self, value) -> str:
        return str(int(value))
