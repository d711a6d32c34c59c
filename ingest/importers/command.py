"""What the ``import_*`` management commands share: finding the collection they name,
turning :class:`ImportFailed` into a ``CommandError`` (message on stderr, exit status 1),
and printing counts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management.base import CommandError, CommandParser
from django.db.models import QuerySet

from catalog.models import Collection
from common.files.errors import ImportFailed
from common.validation import parse_id


def add_collection_argument(parser: CommandParser) -> None:
    parser.add_argument("collection", help="the collection's id, or its name when unique")


def named_from_argument(queryset: QuerySet, value: str, *, what: str):
    """The row of ``queryset`` with id ``value``, or else the one row named ``value``;
    ``what`` names the kind of row in the message ("collection", "preference campaign")."""
    if parse_id(value) is not None:
        row = queryset.filter(pk=parse_id(value)).first()
        if row is not None:
            return row
    matches = list(queryset.filter(name=value).order_by("pk"))
    if not matches:
        raise CommandError(f"no {what} with id or name '{value}'")
    if len(matches) > 1:
        ids = ", ".join(str(row.pk) for row in matches)
        raise CommandError(f"several {what}s are named '{value}' (ids {ids}): give the id")
    return matches[0]


def collection_from_argument(value: str) -> Collection:
    """The collection with id ``value``, or else the one collection named ``value``."""
    return named_from_argument(Collection.objects.all(), value, what="collection")


@contextmanager
def import_failures_as_command_errors() -> Iterator[None]:
    try:
        yield
    except ImportFailed as error:
        raise CommandError(str(error)) from error


def count_lines(rows: list[tuple[str, int, int]]) -> list[str]:
    """A small table of ``(what, created, already present)`` counts, e.g. ``9,000``."""
    lines = [f"  {'':<14}{'created':>10}{'already present':>18}"]
    lines.extend(f"  {what:<14}{created:>10,}{present:>18,}" for what, created, present in rows)
    return lines
