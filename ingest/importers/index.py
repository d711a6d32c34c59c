"""What a collection already holds, read once per import: external ids → primary keys."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from catalog.models import Clip, Collection, Query, System
from common.files.errors import ImportFailed
from common.validation import Kind, column_length, shown, text_problem

BATCH_SIZE = 1000
"""Rows per INSERT/UPDATE statement in bulk writes (well under SQLite's variable limit)."""

ID_MAX_LENGTH = column_length(Clip, "external_id")
SYSTEM_NAME_MAX_LENGTH = column_length(System, "name")


def check_field(
    path: Path, line: int | None, what: str, value: str, *, kind: Kind, max_length: int
) -> None:
    """Stop, naming file and line, unless ``value`` is a fine ``kind`` for its column
    (:mod:`common.validation`: length, NUL, control characters, whitespace in ids)."""
    problem = text_problem(value, kind=kind, max_length=max_length)
    if problem:
        raise ImportFailed(path, line, f"{what} {shown(value)} {problem}")


def check_id(path: Path, line: int | None, what: str, value: str) -> None:
    """A clip or query id (:data:`ID_MAX_LENGTH` characters, no whitespace)."""
    check_field(path, line, what, value, kind="identifier", max_length=ID_MAX_LENGTH)


class CollectionIndex:
    """Clips and queries of one collection by external id (a query is named by its clip)."""

    def __init__(self, collection: Collection) -> None:
        self.collection = collection
        self.clips: dict[str, int] = {}
        self.queries: dict[str, int] = {}
        self.refresh_clips()
        self.refresh_queries()

    def refresh_clips(self) -> None:
        self.clips = dict(
            Clip.objects.filter(collection=self.collection)
            .order_by()
            .values_list("external_id", "pk")
        )

    def refresh_queries(self) -> None:
        self.queries = dict(
            Query.objects.filter(collection=self.collection)
            .order_by()
            .values_list("clip__external_id", "pk")
        )

    def clips_create(self, external_ids: Iterable[str]) -> int:
        """Create a bare clip (no audio, no metadata) for each id not yet in the collection."""
        missing = sorted(set(external_ids) - self.clips.keys())
        if missing:
            Clip.objects.bulk_create(
                [Clip(collection=self.collection, external_id=eid) for eid in missing],
                batch_size=BATCH_SIZE,
            )
            self.refresh_clips()
        return len(missing)

    def queries_create(self, external_ids: Iterable[str]) -> int:
        """Make each named clip (which must exist) a query of the collection."""
        missing = sorted(set(external_ids) - self.queries.keys())
        if missing:
            Query.objects.bulk_create(
                [Query(collection=self.collection, clip_id=self.clips[eid]) for eid in missing],
                batch_size=BATCH_SIZE,
            )
            self.refresh_queries()
        return len(missing)
