"""Clips' artist and genre from ``doc artist genre`` lines (MIREX's metadata.tsv)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.db import transaction

from catalog.models import Clip, Collection
from common.files.errors import ImportFailed
from common.files.inputs import Progress, check_line_count, no_progress, open_input
from common.files.rows import expect_fields, read_rows
from common.validation import column_length
from ingest.importers.index import BATCH_SIZE, check_field, check_id

METADATA_LAYOUT = "doc artist genre"
MAX_LINES = 2_000_000
"""Data lines of one metadata file: larger files are imported in parts."""
ARTIST_MAX_LENGTH = column_length(Clip, "artist")
GENRE_MAX_LENGTH = column_length(Clip, "genre")


@dataclass(frozen=True)
class MetadataImportSummary:
    """What a metadata import found and wrote."""

    lines: int
    clips_created: int
    clips_updated: int
    clips_present: int


def metadata_import(
    *,
    collection: Collection,
    path: str | Path | None = None,
    stream: BinaryIO | None = None,
    name: str | None = None,
    create_missing_clips: bool = False,
    progress: Progress = no_progress,
) -> MetadataImportSummary:
    """Set the artist and genre of the collection's clips from a file, all or nothing.

    The file is ``path`` or an open binary ``stream`` (``name`` is what messages call
    it), read a line at a time; at most :data:`MAX_LINES` data lines, 1 MiB a line.

    Each line is ``doc artist genre`` (tab-separated when a field holds spaces). A
    document that is not a clip of the collection stops the import unless
    ``create_missing_clips`` creates it (with that artist and genre); a document listed
    twice stops it too. Clips whose artist and genre already match are left untouched,
    so importing the same file twice changes nothing.
    """
    with (
        open_input(path=path, stream=stream, name=name, progress=progress) as data,
        transaction.atomic(),
    ):
        path, name = data.path, collection.name
        stored = {
            external_id: (pk, artist, genre)
            for pk, external_id, artist, genre in Clip.objects.filter(
                collection=collection
            ).values_list("pk", "external_id", "artist", "genre")
        }
        parsed: dict[str, tuple[int, str, str]] = {}
        for row in read_rows(data):
            check_line_count(path, row.line, len(parsed) + 1, MAX_LINES)
            expect_fields(path, row, 3, METADATA_LAYOUT)
            doc, artist, genre = row.fields
            check_id(path, row.line, "document id", doc)
            for what, value, limit in (
                ("artist", artist, ARTIST_MAX_LENGTH),
                ("genre", genre, GENRE_MAX_LENGTH),
            ):
                if value:
                    check_field(path, row.line, what, value, kind="name", max_length=limit)
            if doc not in stored and not create_missing_clips:
                raise ImportFailed(
                    path, row.line, f"unknown document '{doc}': not a clip of collection '{name}'"
                )
            if doc in parsed:
                raise ImportFailed(
                    path,
                    row.line,
                    f"duplicate document '{doc}' (first on line {parsed[doc][0]})",
                )
            parsed[sys.intern(doc)] = (row.line, sys.intern(artist), sys.intern(genre))

        created: list[Clip] = []
        updated: list[Clip] = []
        present = 0
        for doc, (_, artist, genre) in parsed.items():
            before = stored.get(doc)
            if before is None:
                created.append(
                    Clip(collection=collection, external_id=doc, artist=artist, genre=genre)
                )
            elif before[1:] == (artist, genre):
                present += 1
            else:
                updated.append(Clip(pk=before[0], artist=artist, genre=genre))
        Clip.objects.bulk_create(created, batch_size=BATCH_SIZE)
        Clip.objects.bulk_update(updated, ["artist", "genre"], batch_size=BATCH_SIZE)

    return MetadataImportSummary(
        lines=len(parsed),
        clips_created=len(created),
        clips_updated=len(updated),
        clips_present=present,
    )
