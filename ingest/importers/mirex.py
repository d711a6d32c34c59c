"""A MIREX Audio Music Similarity folder (runs.tsv, judgments.tsv, metadata.tsv) as one
collection."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from catalog.models import Clip, Collection
from common.files.errors import ImportFailed
from common.files.inputs import Progress, no_progress
from common.validation import column_length
from ingest.importers.index import check_field
from ingest.importers.judgments import judgments_import
from ingest.importers.metadata import metadata_import
from ingest.importers.runs import runs_import

MIREX_FILES: tuple[str, ...] = ("runs.tsv", "judgments.tsv", "metadata.tsv")


def _stage(progress: Progress, stage: int) -> Progress:
    """Progress of one of the three files (read in turn) as progress of the whole import."""
    name = ("metadata.tsv", "runs.tsv", "judgments.tsv")[stage]

    def report(fraction: float | None, message: str) -> None:
        progress(None if fraction is None else (stage + fraction) / 3, f"{name}: {message}")

    return report


@dataclass(frozen=True)
class ImportSummary:
    """Counts of a MIREX import: what it created and what was already present."""

    collection_id: int
    collection_name: str
    collection_created: bool
    runs_format: str
    judgments_format: str
    clips_created: int
    clips_present: int
    clips_with_artist_and_genre: int
    queries_created: int
    queries_present: int
    systems_created: int
    systems_present: int
    run_entries_created: int
    run_entries_present: int
    judgments_created: int
    judgments_updated: int
    judgments_present: int
    metadata_updated: int

    @property
    def created_anything(self) -> bool:
        return bool(
            self.collection_created
            or self.clips_created
            or self.queries_created
            or self.systems_created
            or self.run_entries_created
            or self.judgments_created
            or self.judgments_updated
            or self.metadata_updated
        )


def mirex_import(
    *,
    owner: AbstractBaseUser | None = None,
    folder: str | Path,
    name: str | None = None,
    collection: Collection | None = None,
    progress: Progress = no_progress,
    uploaded: bool = False,
) -> ImportSummary:
    """Import a MIREX AMS folder as the collection ``name`` of ``owner``, all or nothing.

    ``name`` defaults to the folder's name; an existing collection of that owner and name
    is completed rather than duplicated, so importing the same folder twice changes
    nothing. ``collection`` (an upload into an existing collection) replaces ``owner``
    and ``name``. ``progress`` hears how far the three files have been read, in turn.
    ``uploaded``: the folder is an upload's, on the server, so the judgment source's
    origin names the file alone (a folder given on the command line is the organiser's).
    In one transaction:

    1. ``metadata.tsv`` (``doc artist genre``) creates a clip for every document of the
       collection, with its artist and genre;
    2. ``runs.tsv`` (ranked-list format ``system query doc``) creates the systems, the
       queries (its distinct query ids), the run entries, and a bare clip for any
       retrieved document that ``metadata.tsv`` does not list;
    3. ``judgments.tsv`` (``query doc fine``) creates Fine judgments with source
       ``import:judgments.tsv`` (and a bare clip for a document seen nowhere else).

    Raises :class:`ImportFailed` naming the file and line on bad input.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ImportFailed(folder, None, "no such folder")
    for file_name in MIREX_FILES:
        if not (folder / file_name).is_file():
            raise ImportFailed(folder / file_name, None, f"no such file in {folder.name or folder}")
    if collection is None:
        name = name or folder.resolve().name
        check_field(
            folder, None, "the collection name", name, kind="name",
            max_length=column_length(Collection, "name"),
        )  # fmt: skip
    with transaction.atomic():
        if collection is None:
            collection, collection_created = Collection.objects.get_or_create(
                owner=owner, name=name
            )
        else:
            collection_created = False
        clips_before = collection.clips.count()
        metadata = metadata_import(
            collection=collection, path=folder / "metadata.tsv", create_missing_clips=True,
            progress=_stage(progress, 0),
        )  # fmt: skip
        runs = runs_import(
            collection=collection,
            path=folder / "runs.tsv",
            format="ranked",
            create_missing_clips=True,
            create_missing_queries=True,
            progress=_stage(progress, 1),
        )
        judgments = judgments_import(
            collection=collection,
            path=folder / "judgments.tsv",
            name="judgments.tsv" if uploaded else None,
            format="fine",
            scale="fine",
            create_missing_clips=True,
            progress=_stage(progress, 2),
        )
        clips_created = metadata.clips_created + runs.clips_created + judgments.clips_created
        queries_total = collection.queries.count()
        clips_with_metadata = (
            Clip.objects.filter(collection=collection).exclude(artist="").exclude(genre="").count()
        )

    return ImportSummary(
        collection_id=collection.pk,
        collection_name=collection.name,
        collection_created=collection_created,
        runs_format=runs.format,
        judgments_format=judgments.format,
        clips_created=clips_created,
        clips_present=clips_before,
        clips_with_artist_and_genre=clips_with_metadata,
        queries_created=runs.queries_created,
        queries_present=queries_total - runs.queries_created,
        systems_created=runs.systems_created,
        systems_present=runs.systems_present,
        run_entries_created=runs.run_entries_created,
        run_entries_present=runs.run_entries_present,
        judgments_created=judgments.judgments_created,
        judgments_updated=judgments.judgments_updated,
        judgments_present=judgments.judgments_present,
        metadata_updated=metadata.clips_updated,
    )
