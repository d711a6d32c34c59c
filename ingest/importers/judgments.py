"""Relevance judgments: TREC qrels and the ``query doc fine [broad]`` format of MIREX."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Clip, Collection, JudgmentSource, RelevanceJudgment
from catalog.models.collection import BROAD_LABELS, FINE_MAX
from catalog.services.sources import (
    SourceConflict,
    judgment_source_for_writing,
    source_judgments_write,
)
from common.files.errors import ImportFailed
from common.files.inputs import Input, Progress, check_line_count, no_progress, open_input
from common.files.looks_like import not_this_kind
from common.files.rows import Row, read_rows
from common.planner_statistics import planner_statistics_refresh
from ingest.importers.index import CollectionIndex, check_id

JudgmentFormat = Literal["auto", "qrels", "fine"]
JUDGMENT_FORMATS: tuple[str, ...] = ("auto", "qrels", "fine")
Scale = Literal["fine", "broad"]
SCALES: tuple[str, ...] = ("fine", "broad")
SCALE_MAX = {"fine": FINE_MAX, "broad": max(BROAD_LABELS)}
SCALE_TITLE = {"fine": "Fine", "broad": "Broad"}

QRELS_LAYOUT = "qid iter docno rel"
FINE_LAYOUT = "query doc fine [broad]"
SOURCE_MAX_LENGTH = RelevanceJudgment._meta.get_field("source").max_length


MAX_LINES = 2_000_000
"""Data lines of one judgments file (a pair takes ~0.3 KB while the file is checked;
``docs/benchmarks.md``): larger files are imported in parts."""


@dataclass(frozen=True)
class JudgmentsImportSummary:
    """What a judgment import found and wrote (or, with ``dry_run``, would write)."""

    format: str
    scale: str
    source: str
    lines: int
    clips_created: int
    judgments_created: int
    judgments_updated: int
    judgments_present: int
    judgments_kept: int = 0
    queries_created: int = 0
    source_created: bool = False
    dry_run: bool = False
    changes: tuple[str, ...] = ()


def detect_judgment_format(path: Path, row: Row) -> str:
    """The first data line decides: 3 fields → ``fine``; 4 fields → ``qrels`` when the
    second is ``0`` or ``Q0`` (TREC's iteration column), else ``fine`` with a Broad column."""
    if len(row.fields) == 3:
        return "fine"
    if len(row.fields) == 4:
        return "qrels" if row.fields[1] in ("0", "Q0") else "fine"
    raise ImportFailed(
        path,
        row.line,
        f"not judgments: {not_this_kind(row.fields, expected='judgments')}. Judgments' lines "
        f"are {QRELS_LAYOUT} (TREC qrels) or {FINE_LAYOUT}",
    )


def parse_grade(path: Path, line: int, text: str, scale: str) -> int:
    """A relevance value on ``scale``: an integer from 0 to the scale's maximum
    (``45`` and ``45.0`` are accepted, ``45.5`` is not)."""
    title, top = SCALE_TITLE[scale], SCALE_MAX[scale]
    try:
        value = float(text)
    except ValueError:
        raise ImportFailed(path, line, f"{title} score '{text}' is not a number") from None
    if not value.is_integer() or not 0 <= value <= top:
        raise ImportFailed(
            path,
            line,
            f"{title} score '{text}' is out of range: expected an integer from 0 to {top}",
        )
    return int(value)


def _parse(
    data: Input,
    *,
    format: str,
    scale: str | None,
    index: CollectionIndex,
    create_missing_clips: bool,
    create_missing_queries: bool,
) -> tuple[str, str, dict[tuple[str, str], tuple[int, int | None, int | None]]]:
    """Check every line (no database writes): format, scale, {(query, doc): (line, broad, fine)}."""
    path, name = data.path, index.collection.name
    detected = None if format == "auto" else format
    single_scale = scale
    parsed: dict[tuple[str, str], tuple[int, int | None, int | None]] = {}
    for row in read_rows(data):
        check_line_count(path, row.line, len(parsed) + 1, MAX_LINES)
        if detected is None:
            detected = detect_judgment_format(path, row)
        if single_scale is None:
            single_scale = "broad" if detected == "qrels" else "fine"
        fields = row.fields
        if detected == "qrels":
            if len(fields) != 4:
                raise ImportFailed(
                    path, row.line, f"expected 4 fields ({QRELS_LAYOUT}), found {len(fields)}"
                )
            query, _iteration, doc, value = fields
            values = [(single_scale, value)]
        else:
            if len(fields) not in (3, 4):
                raise ImportFailed(
                    path, row.line, f"expected 3 or 4 fields ({FINE_LAYOUT}), found {len(fields)}"
                )
            query, doc = fields[:2]
            if len(fields) == 3:
                values = [(single_scale, fields[2])]
            else:
                values = [("fine", fields[2]), ("broad", fields[3])]
        check_id(path, row.line, "query id", query)
        check_id(path, row.line, "document id", doc)
        grades: dict[str, int | None] = {"broad": None, "fine": None}
        for grade_scale, text in values:
            grades[grade_scale] = parse_grade(path, row.line, text, grade_scale)
        if query not in index.queries:
            if not create_missing_queries:
                raise ImportFailed(
                    path, row.line,
                    f"unknown query '{query}': not a query of collection '{name}' (query ids "
                    "become queries when runs that rank them are imported — so runs come "
                    "first — or when you choose to make query ids into queries)",
                )  # fmt: skip
            if query not in index.clips and not create_missing_clips:
                raise ImportFailed(
                    path, row.line,
                    f"unknown query '{query}': not a clip of collection '{name}' (upload its "
                    "audio first, or choose to create clips for unknown ids)",
                )  # fmt: skip
        if doc not in index.clips and not create_missing_clips:
            raise ImportFailed(
                path, row.line, f"unknown document '{doc}': not a clip of collection '{name}'"
            )
        key = (sys.intern(query), sys.intern(doc))
        if key in parsed:
            raise ImportFailed(
                path,
                row.line,
                f"duplicate judgment of document '{doc}' for query '{query}' "
                f"(first on line {parsed[key][0]})",
            )
        parsed[key] = (row.line, grades["broad"], grades["fine"])
    return detected, single_scale, parsed


def judgments_import(
    *,
    collection: Collection,
    path: str | Path | None = None,
    stream: BinaryIO | None = None,
    name: str | None = None,
    format: JudgmentFormat = "auto",
    scale: Scale | None = None,
    source: str | None = None,
    create_missing_clips: bool = False,
    create_missing_queries: bool = False,
    replace: bool = False,
    dry_run: bool = False,
    progress: Progress = no_progress,
    new_source_status: str | None = None,
) -> JudgmentsImportSummary:
    """Import relevance judgments from a file into ``collection``, all or nothing.

    The file is ``path`` or an open binary ``stream`` (``name`` is what messages call
    it), read a line at a time; at most :data:`MAX_LINES` data lines, 1 MiB a line.
    ``progress`` hears how far it has got (:mod:`common.files.inputs`).

    Formats (``format="auto"`` decides from the first data line, see
    :func:`detect_judgment_format`):

    - ``qrels``: TREC ``qid iter docno rel``; ``iter`` is ignored.
    - ``fine``: ``query doc fine`` or ``query doc fine broad`` (MIREX's judgments.tsv).

    Scales. Fine runs from 0 to 100 and Broad from 0 to 2, integers only; a value out of
    range stops the import. ``scale`` names the scale of the one relevance column of a
    qrels line or of a 3-field ``fine`` line; it defaults to ``"broad"`` for qrels (TREC
    grades are small integers) and ``"fine"`` for the 3-field format. A 4-field ``fine``
    line always carries Fine then Broad. The scale a line does not carry is empty.
    The rule is explicit rather than guessed from the values, so that one file's values
    never change the meaning of another's.

    Sources. The judgments go into the collection's judgment source named ``source``
    (default: the file's name), created if needed (:mod:`catalog.services.sources`); no
    other source is touched. Pairs the source does not have are added, identical ones
    left alone (so the same file twice changes nothing), pairs of the source missing
    from the file kept. A judgment the source holds with another value — or with a scale
    the file does not carry, which the import would erase — stops the import, naming
    the first changes, unless ``replace`` is true. ``dry_run`` checks everything and
    reports what would happen without writing anything.

    A pair judged twice in one file stops the import. Query ids must name queries of
    the collection — the runs make them, so runs come first — unless
    ``create_missing_queries`` makes them queries (a query is a clip: it must be one, or
    ``create_missing_clips`` creates it); document ids must name clips unless
    ``create_missing_clips`` creates them.
    """
    if format not in JUDGMENT_FORMATS:
        raise ValueError(f"format must be one of {JUDGMENT_FORMATS}, not {format!r}")
    if scale is not None and scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES} or None, not {scale!r}")
    with open_input(path=path, stream=stream, name=name, progress=progress) as data:
        source_name = source or data.path.name
        # Read and check the file before the transaction (on SQLite it holds the one write
        # lock from its start); the index is read again inside it.
        detected, single_scale, parsed = _parse(
            data, format=format, scale=scale, index=CollectionIndex(collection),
            create_missing_clips=create_missing_clips,
            create_missing_queries=create_missing_queries,
        )  # fmt: skip
        with transaction.atomic():
            index = CollectionIndex(collection)
            try:
                judgment_source, created = judgment_source_for_writing(
                    collection=collection, name=source_name, kind=JudgmentSource.IMPORT,
                    origin=str(data.path), status=new_source_status,
                )  # fmt: skip
            except ValidationError as error:
                raise ImportFailed(data.path, None, "; ".join(error.messages)) from None
            progress(None, "writing")
            query_ids = {query for query, _ in parsed}
            clips_created = index.clips_create({doc for _, doc in parsed} | query_ids)
            queries_created = index.queries_create(query_ids)
            lines = len(parsed)
            judgments: dict[tuple[int, int], tuple[int | None, int | None]] = {}
            line_of: dict[tuple[int, int], int] = {}
            while parsed:  # from external ids to primary keys, releasing as it goes
                (query, doc), (line, broad, fine) = parsed.popitem()
                pair = (index.queries[query], index.clips[doc])
                judgments[pair] = (broad, fine)
                line_of[pair] = line
            try:
                write = source_judgments_write(
                    source=judgment_source, source_created=created, judgments=judgments,
                    replace=replace, dry_run=dry_run, where=lambda pair: f"line {line_of[pair]}",
                    origin=str(data.path),
                )  # fmt: skip
            except SourceConflict as conflict:
                raise ImportFailed(data.path, None, conflict.messages[0]) from None
            if dry_run:
                transaction.set_rollback(True)
            elif write.created or write.updated:
                planner_statistics_refresh(RelevanceJudgment, Clip, JudgmentSource)

    return JudgmentsImportSummary(
        format=detected,
        scale=single_scale,
        source=source_name,
        lines=lines,
        clips_created=clips_created,
        queries_created=queries_created,
        judgments_created=write.created,
        judgments_updated=write.updated,
        judgments_present=write.unchanged,
        judgments_kept=write.kept,
        source_created=created,
        dry_run=dry_run,
        changes=tuple(str(change) for change in write.changes),
    )
