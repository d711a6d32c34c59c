"""Plain SQL for the crowd's hot path: a few helpers around Django's database cursor.

Why: a crowd answer cycle (the answer, its double post, the next task) makes about 25
statements. Through the ORM each costs about 0.6–1.1 ms of the web process's CPU
(building and compiling the query, then the model instances), through a cursor
0.15–0.25 ms (measured on PostgreSQL in-process, issue 14; ``docs/benchmarks.md``).
At 80 answers/s on two cores that difference is most of the budget, so the crowd's
task link (:mod:`crowd.worker_session`, :mod:`crowd.services`) writes its
statements by hand. Everything else uses the ORM.

The statements are portable between SQLite (3.35+, for ``RETURNING``) and PostgreSQL;
``%s`` placeholders, as Django's cursor expects on both. Values go in through
:func:`param` (datetimes as each backend stores them) and rows come out as model
instances through :func:`instance`, with the same conversions the ORM applies, so the
rest of the code cannot tell the difference.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import connection
from django.db.models import Model


@cache
def _fields(model: type[Model]) -> tuple:
    return tuple(model._meta.concrete_fields)


@cache
def columns(model: type[Model], alias: str) -> str:
    """Every stored column of ``model`` as ``alias."column"``, in field order."""
    return ", ".join(f'{alias}."{field.column}"' for field in _fields(model))


@cache
def _converters(model: type[Model], vendor: str) -> tuple:
    """Per field, the database → Python conversions the ORM would apply (booleans and
    datetimes on SQLite, JSON, …)."""
    result = []
    for field in _fields(model):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        result.append(tuple((convert, column) for convert in found))
    return tuple(result)


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in _fields(model))


def instance(model: type[Model], values) -> Model:
    """A ``model`` instance from the values of :func:`columns`, as the ORM makes it."""
    converted = []
    for value, converters in zip(values, _converters(model, connection.vendor), strict=True):
        for convert, column in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, _attnames(model), converted)


def instances(row, *models: type[Model]) -> tuple[list[Model | None], tuple]:
    """Split a row that selected :func:`columns` of each of ``models`` in turn (then
    anything else): their instances — None for a model whose key is NULL, as a LEFT JOIN
    that found nothing gives — and the values after them."""
    found: list[Model | None] = []
    start = 0
    for model in models:
        end = start + len(_fields(model))
        values = row[start:end]
        key = values[_fields(model).index(model._meta.pk)]
        found.append(instance(model, values) if key is not None else None)
        start = end
    return found, tuple(row[start:])


def param(value: datetime) -> object:
    """A datetime as the backend stores it (UTC text on SQLite, itself on PostgreSQL)."""
    return connection.ops.adapt_datetimefield_value(value)


def datetime_of(value) -> datetime | None:
    """A datetime column read by a raw cursor, as the ORM gives it (aware, UTC): SQLite
    returns text, PostgreSQL a datetime."""
    if value is None or isinstance(value, datetime):
        return value
    return connection.ops.convert_datetimefield_value(value, None, connection)


def one(sql: str, params=()) -> tuple | None:
    """The first row of ``sql``, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def rows(sql: str, params=()) -> list[tuple]:
    """Every row of ``sql``."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def run(sql: str, params=()) -> int:
    """Execute ``sql``; the number of rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def insert(obj: Model) -> Model:
    """Store a new ``obj`` (every field but its automatic key) and give it its key.

    As ``obj.save()`` does for a new row, without model signals (none are used) and
    without the ORM's query building. The caller's transaction, if any, holds it.
    """
    model = type(obj)
    statement, fields = _insert(model)
    row = one(statement, [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])
    obj.pk = row[0]
    obj._state.adding, obj._state.db = False, connection.alias
    return obj


def save(obj: Model, fields: list[str]) -> int:
    """Store ``fields`` of an existing ``obj`` (as ``obj.save(update_fields=fields)``)."""
    model = type(obj)
    chosen = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f'"{f.column}" = %s' for f in chosen)
    values = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in chosen]
    return run(
        f'UPDATE {model._meta.db_table} SET {assignments} WHERE "{model._meta.pk.column}" = %s',
        [*values, obj.pk],
    )


@cache
def _insert(model: type[Model]) -> tuple[str, tuple]:
    fields = tuple(f for f in _fields(model) if not f.primary_key)
    names = ", ".join(f'"{f.column}"' for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    statement = (
        f"INSERT INTO {model._meta.db_table} ({names}) VALUES ({marks}) "
        f'RETURNING "{model._meta.pk.column}"'
    )
    return statement, fields
