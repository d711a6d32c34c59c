"""The command line's words for a collection (and any named row): its id, or its name when
unique, with a message naming what was not found (``import_*``, ``recompute``)."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.db.models import QuerySet

from catalog.models import Collection
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
