"""Reading a part of a stored JSON payload in the database, not the whole document.

A stored result's ``payload`` (a ``JSONField``: ``jsonb`` on PostgreSQL, JSON text on
SQLite) can hold a list that grows with the square of the systems (an estimated
leaderboard's ``differences``: 4,950 pairs for 100 systems). A page shows a page of it,
so it asks the database for the rest of the document without that list
(:class:`JSONWithout`), the list's length (:class:`JSONArrayLength`) and one slice of it
(:class:`JSONArraySlice`): the same three on SQLite and PostgreSQL, each one SQL
expression. ``key`` is always a name written in the code, never user input.
"""

from __future__ import annotations

from django.db import NotSupportedError
from django.db.models import F, Func, IntegerField, JSONField

__all__ = ["JSONArrayLength", "JSONArraySlice", "JSONWithout"]


def _key(key: str) -> str:
    if not key.isidentifier():
        raise ValueError(f"a payload key is a plain name, got {key!r}")
    return key


class _PayloadPart(Func):
    """A function of one JSON column and one of its top-level keys: ``sqlite`` and
    ``postgresql`` are its SQL, with ``{column}``, ``{key}`` and the instance's own
    attributes filled in."""

    sqlite = postgresql = ""

    def __init__(self, field: str, key: str, **extra) -> None:
        super().__init__(F(field), **extra)
        self.key = _key(key)

    def as_sql(self, compiler, connection, **extra):
        raise NotSupportedError(f"{type(self).__name__} is written for SQLite and PostgreSQL")

    def _vendor_sql(self, template: str, compiler) -> tuple[str, list]:
        column, params = compiler.compile(self.source_expressions[0])
        return template.format(column=column, **vars(self)), list(params)

    def as_sqlite(self, compiler, connection, **extra):
        return self._vendor_sql(self.sqlite, compiler)

    def as_postgresql(self, compiler, connection, **extra):
        return self._vendor_sql(self.postgresql, compiler)


class JSONWithout(_PayloadPart):
    """The document without its top-level ``key`` (decoded as a dict)."""

    output_field = JSONField()
    sqlite = "JSON_REMOVE({column}, '$.{key}')"
    postgresql = "({column} - '{key}')"


class JSONArrayLength(_PayloadPart):
    """How many items the list at top-level ``key`` holds (``None`` without one)."""

    output_field = IntegerField()
    sqlite = "JSON_ARRAY_LENGTH({column}, '$.{key}')"
    postgresql = "JSONB_ARRAY_LENGTH({column} -> '{key}')"


class JSONArraySlice(_PayloadPart):
    """Items ``start`` to ``stop`` (Python's slice, ``0 <= start <= stop``) of the list at
    top-level ``key``, as an object ``{"index": item}``: on SQLite an aggregate's order is
    not promised, so the caller orders by index (:func:`ordered_items`)."""

    output_field = JSONField()
    sqlite = (
        "(SELECT JSON_GROUP_OBJECT(item.key, JSON(item.value)) "
        "FROM JSON_EACH({column}, '$.{key}') AS item "
        "WHERE item.key >= {start} AND item.key < {stop})"
    )
    postgresql = (
        "(SELECT JSONB_OBJECT_AGG(item.i - 1, item.e) "
        "FROM JSONB_ARRAY_ELEMENTS({column} -> '{key}') WITH ORDINALITY AS item(e, i) "
        "WHERE item.i > {start} AND item.i <= {stop})"
    )

    def __init__(self, field: str, key: str, start: int, stop: int) -> None:
        super().__init__(field, key)
        self.start, self.stop = int(start), int(stop)
        if not 0 <= self.start <= self.stop:
            raise ValueError(f"expected 0 <= start <= stop, got {start}, {stop}")


def ordered_items(part: dict | None) -> list:
    """A :class:`JSONArraySlice`'s ``{"index": item}`` as the list of items in index order."""
    return [item for _, item in sorted((int(i), item) for i, item in (part or {}).items())]
