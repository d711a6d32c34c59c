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
    """A function of one JSON column and one of its top-level keys."""

    def __init__(self, field: str, key: str, **extra) -> None:
        super().__init__(F(field), **extra)
        self.key = _key(key)

    def as_sql(self, compiler, connection, **extra):
        raise NotSupportedError(f"{type(self).__name__} is written for SQLite and PostgreSQL")

    def _column(self, compiler, connection) -> tuple[str, list]:
        sql, params = compiler.compile(self.source_expressions[0])
        return sql, list(params)


class JSONWithout(_PayloadPart):
    """The document without its top-level ``key`` (decoded as a dict)."""

    output_field = JSONField()

    def as_sqlite(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        return f"JSON_REMOVE({column}, '$.{self.key}')", params

    def as_postgresql(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        return f"({column} - '{self.key}')", params


class JSONArrayLength(_PayloadPart):
    """How many items the list at top-level ``key`` holds (``None`` without one)."""

    output_field = IntegerField()

    def as_sqlite(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        return f"JSON_ARRAY_LENGTH({column}, '$.{self.key}')", params

    def as_postgresql(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        return f"JSONB_ARRAY_LENGTH({column} -> '{self.key}')", params


class JSONArraySlice(_PayloadPart):
    """Items ``start`` to ``stop`` (Python's slice, ``0 <= start <= stop``) of the list at
    top-level ``key``, as an object ``{"index": item}``: on SQLite an aggregate's order is
    not promised, so the caller orders by index (:func:`ordered_items`)."""

    output_field = JSONField()

    def __init__(self, field: str, key: str, start: int, stop: int) -> None:
        super().__init__(field, key)
        self.start, self.stop = int(start), int(stop)
        if not 0 <= self.start <= self.stop:
            raise ValueError(f"expected 0 <= start <= stop, got {start}, {stop}")

    def as_sqlite(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        sql = (
            f"(SELECT JSON_GROUP_OBJECT(item.key, JSON(item.value)) "
            f"FROM JSON_EACH({column}, '$.{self.key}') AS item "
            f"WHERE item.key >= {self.start} AND item.key < {self.stop})"
        )
        return sql, params

    def as_postgresql(self, compiler, connection, **extra):
        column, params = self._column(compiler, connection)
        sql = (
            f"(SELECT JSONB_OBJECT_AGG(item.i - 1, item.e) "
            f"FROM JSONB_ARRAY_ELEMENTS({column} -> '{self.key}') WITH ORDINALITY AS item(e, i) "
            f"WHERE item.i > {self.start} AND item.i <= {self.stop})"
        )
        return sql, params


def ordered_items(part: dict | None) -> list:
    """A :class:`JSONArraySlice`'s ``{"index": item}`` as the list of items in index order."""
    return [item for _, item in sorted((int(i), item) for i, item in (part or {}).items())]
