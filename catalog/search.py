"""Prefix search that an index answers, the same on SQLite and PostgreSQL.

A search box on a collection of 100,000 clips must not scan them. A word typed is
matched against the *beginning* of a clip's id, title or artist (case-insensitive),
as a range of the index key ``LOWER(field)``::

    key >= "amb"  AND  key < "amc"          (every key that starts with "amb")

The range is exact when keys compare byte by byte, which :class:`SearchKey` makes so
on both databases (SQLite compares text with BINARY by default; on PostgreSQL the key
carries ``COLLATE "C"``), and the indexes of :class:`~catalog.models.Clip` are built
on the very same expression, ``(collection_id, key)``. The scope (``collection_id = ?``)
is repeated inside each alternative of the OR, so that every alternative matches one
index whole: SQLite then reads each index's range (a "MULTI-INDEX OR") even before
``ANALYZE`` has given it statistics, instead of scanning the collection's rows and
lowering every title (measured in ``docs/benchmarks.md``).

On SQLite ``LOWER`` folds A–Z only: there, letters outside A–Z match in the case typed.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import CharField, Func, Q, QuerySet

MAX_SEARCH_LENGTH = 100
"""Longer search text is cut to this many characters (a key beyond it is never needed)."""


class SearchKey(Func):
    """``LOWER(field)``, compared byte by byte (``COLLATE "C"`` on PostgreSQL)."""

    function = "LOWER"
    arity = 1
    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = self.as_sql(compiler, connection, **extra_context)
        return f'({sql} COLLATE "C")', params


def search_key(text: str) -> str:
    """What the database's ``LOWER`` makes of ``text`` (see the module's note on SQLite)."""
    text = text.strip()[:MAX_SEARCH_LENGTH]
    if connection.vendor == "sqlite":
        return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)
    return text.lower()


def _successor(key: str) -> str | None:
    """The smallest string above every string that starts with ``key`` (None: no bound)."""
    while key:
        code = ord(key[-1]) + 1
        if 0xD800 <= code <= 0xDFFF:  # surrogates are not characters
            code = 0xE000
        if code <= 0x10FFFF:
            return key[:-1] + chr(code)
        key = key[:-1]
    return None


def prefix_search(
    queryset: QuerySet, text: str, *, fields: tuple[str, ...], scope: dict
) -> QuerySet:
    """Rows within ``scope`` where one of ``fields`` starts with ``text`` (case-insensitive).

    ``scope`` is the filter that the indexes lead with (``{"collection": c}``); blank
    ``text`` gives every row within it.
    """
    key = search_key(text)
    if not key:
        return queryset.filter(**scope)
    upper = _successor(key)
    aliases = {f"_key_{i}": SearchKey(field) for i, field in enumerate(fields)}
    condition = Q()
    for alias in aliases:
        bounds = {**scope, f"{alias}__gte": key}
        if upper is not None:
            bounds[f"{alias}__lt"] = upper
        condition |= Q(**bounds)
    return queryset.alias(**aliases).filter(condition)
