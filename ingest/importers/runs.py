"""Systems' ranked lists (runs): TREC run format and the ranked-list format of MIREX."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal

from django.db import connection, transaction

from catalog.models import Clip, Collection, Query, RunEntry, System
from common.files.errors import ImportFailed
from common.files.inputs import Input, Progress, check_line_count, no_progress, open_input
from common.files.looks_like import line_kind, not_this_kind
from common.files.rows import Row, expect_fields, read_rows
from common.planner_statistics import planner_statistics_refresh
from ingest.importers.index import (
    BATCH_SIZE,
    SYSTEM_NAME_MAX_LENGTH,
    CollectionIndex,
    check_field,
    check_id,
)
from work import handoff

RunFormat = Literal["auto", "trec", "ranked"]
RUN_FORMATS: tuple[str, ...] = ("auto", "trec", "ranked")

MAX_LINES = 2_000_000
"""Data lines of one run file (an entry takes ~0.25 KB while the file is checked;
``docs/benchmarks.md``): larger files are imported in parts."""

TREC_LAYOUT = "qid Q0 docid rank score tag"
RANKED_LAYOUT = "system query doc"


@dataclass(frozen=True)
class RunsImportSummary:
    """What a run import found and wrote. ``*_present`` counts rows that were already stored."""

    format: str
    lines: int
    systems_created: int
    systems_present: int
    queries_created: int
    clips_created: int
    lists_created: int
    lists_present: int
    lists_replaced: int
    run_entries_created: int
    run_entries_present: int
    run_entries_deleted: int


@dataclass
class _RankedList:
    system: str
    query: str
    first_line: int
    # document → (line, score), in file order
    docs: dict[str, tuple[int, float | None]] = field(default_factory=dict)

    def ranked(self, run_format: str) -> list[tuple[str, float | None]]:
        """Documents in rank order: file order, or trec_eval's order for TREC runs."""
        items = [(doc, score) for doc, (_, score) in self.docs.items()]
        if run_format == "trec":
            # trec_eval ignores the rank column: score descending, ties by docno descending.
            items.sort(key=lambda item: (item[1], item[0]), reverse=True)
        return items


def detect_run_format(path: Path, row: Row) -> str:
    """``trec`` for 6 fields, ``ranked`` for 3, else stop: the first data line decides, and
    a line of another kind of file says what it looks like (:mod:`~common.files.looks_like`)."""
    if len(row.fields) == 6:
        return "trec"
    if len(row.fields) == 3:
        return "ranked"
    raise ImportFailed(
        path,
        row.line,
        f"not a run: {not_this_kind(row.fields, expected='a run')}. A run's lines are "
        f"{TREC_LAYOUT} (a TREC run) or {RANKED_LAYOUT} (ranked lists)",
    )


def _judgments_hint(row: Row, *, first: bool) -> str:
    """On the first line of a 3-field file that reads as judgments (``query doc fine``, the
    same number of fields as ranked lists): say so, and where it goes."""
    kind = line_kind(row.fields) if first else None
    if kind is None or not kind.startswith("judgments"):
        return ""
    return (
        f"; line {row.line} looks like {kind}: if the file holds judgments, upload it as judgments"
    )


def _parse_trec_row(path: Path, row: Row) -> tuple[str, str, str, float]:
    expect_fields(path, row, 6, TREC_LAYOUT)
    query, _q0, doc, rank, score_text, system = row.fields
    try:
        int(rank)
    except ValueError:
        raise ImportFailed(path, row.line, f"rank '{rank}' is not an integer") from None
    try:
        score = float(score_text)
    except ValueError:
        raise ImportFailed(path, row.line, f"score '{score_text}' is not a number") from None
    if not math.isfinite(score):
        raise ImportFailed(path, row.line, f"score '{score_text}' is not a finite number")
    return system, query, doc, score


def _read_lists(
    *,
    data: Input,
    run_format: str,
    index: CollectionIndex,
    create_missing_clips: bool,
    create_missing_queries: bool,
) -> tuple[str, int, dict[tuple[str, str], _RankedList]]:
    """Parse and check every line, in file order; no database writes."""
    path = data.path
    lists: dict[tuple[str, str], _RankedList] = {}
    detected = None if run_format == "auto" else run_format
    lines = 0
    name = index.collection.name
    for row in read_rows(data):
        lines += 1
        check_line_count(path, row.line, lines, MAX_LINES)
        if detected is None:
            detected = detect_run_format(path, row)
        if detected == "trec":
            system, query, doc, score = _parse_trec_row(path, row)
        else:
            expect_fields(path, row, 3, RANKED_LAYOUT)
            system, query, doc = row.fields
            score = None
        check_field(
            path, row.line, "system name", system, kind="name", max_length=SYSTEM_NAME_MAX_LENGTH
        )
        check_id(path, row.line, "query id", query)
        check_id(path, row.line, "document id", doc)
        problem = None
        if query not in index.queries and not create_missing_queries:
            problem = (f"unknown query '{query}': not a query of collection '{name}' (choose to "
                       "make query ids into queries, and this one becomes a query)")  # fmt: skip
        elif query not in index.queries and query not in index.clips and not create_missing_clips:
            problem = (f"unknown query '{query}': not a clip of collection '{name}' (choose to "
                       "create clips for unknown ids, or upload its audio first)")  # fmt: skip
        elif doc not in index.clips and not create_missing_clips:
            problem = (f"unknown document '{doc}': not a clip of collection '{name}' (choose to "
                       "create clips for unknown ids, or upload its audio first)")  # fmt: skip
        if problem is not None:
            raise ImportFailed(path, row.line, problem + _judgments_hint(row, first=lines == 1))
        system, query, doc = sys.intern(system), sys.intern(query), sys.intern(doc)
        ranked_list = lists.get((system, query))
        if ranked_list is None:
            ranked_list = lists[system, query] = _RankedList(system, query, row.line)
        if doc in ranked_list.docs:
            first = ranked_list.docs[doc][0]
            raise ImportFailed(
                path,
                row.line,
                f"duplicate document '{doc}' in the ranked list of system '{system}' "
                f"for query '{query}' (first on line {first})",
            )
        ranked_list.docs[doc] = (row.line, score)
    return detected, lines, lists


def runs_import(
    *,
    collection: Collection,
    path: str | Path | None = None,
    stream: BinaryIO | None = None,
    name: str | None = None,
    format: RunFormat = "auto",
    create_missing_clips: bool = False,
    create_missing_queries: bool = False,
    replace: bool = False,
    progress: Progress = no_progress,
) -> RunsImportSummary:
    """Import systems' ranked lists from a run file into ``collection``, all or nothing.

    The file is ``path`` or an open binary ``stream`` (``name`` is what messages call
    it), read a line at a time; at most :data:`MAX_LINES` data lines, 1 MiB a line.
    ``progress`` hears how far it has got (:mod:`common.files.inputs`).

    Formats (``format="auto"`` decides from the first data line: 6 fields → ``trec``,
    3 fields → ``ranked``):

    - ``trec``: ``qid Q0 docid rank score tag``. The tag names the system. As trec_eval
      does, the rank column is ignored (but must be an integer): documents are ranked by
      score descending, ties by docno descending; the score is kept.
    - ``ranked``: ``system query doc``, rows of one list in rank order; no score.

    Query ids and document ids are clips' external ids. A query id must name a query of
    the collection (``create_missing_queries`` makes it one) and a document id a clip
    (``create_missing_clips`` creates a bare clip). Systems are created by name.

    A ranked list already stored identically is left alone, so importing the same file
    twice changes nothing. A stored list that differs stops the import unless
    ``replace`` is true, which replaces it. Raises :class:`ImportFailed` naming the file
    and line on bad input (wrong number of fields, non-numeric rank or score, unknown
    query or document, duplicate document in one ranked list).
    """
    read = runs_read(
        collection=collection, path=path, stream=stream, name=name, format=format,
        create_missing_clips=create_missing_clips, create_missing_queries=create_missing_queries,
        progress=progress,
    )  # fmt: skip
    return runs_write(collection=collection, read=read, replace=replace, progress=progress)


@dataclass
class RunsRead:
    """A run file read and checked (:func:`runs_read`), not yet written (:func:`runs_write`)."""

    path: Path
    format: str
    lines: int
    lists: dict[tuple[str, str], _RankedList]


def runs_read(
    *,
    collection: Collection,
    path: str | Path | None = None,
    stream: BinaryIO | None = None,
    name: str | None = None,
    format: RunFormat = "auto",
    create_missing_clips: bool = False,
    create_missing_queries: bool = False,
    progress: Progress = no_progress,
) -> RunsRead:
    """Read and check every line of a run file (see :func:`runs_import`); no write, and no
    transaction: on SQLite a transaction holds the one write lock from its start, and
    reading a million lines takes a while."""
    if format not in RUN_FORMATS:
        raise ValueError(f"format must be one of {RUN_FORMATS}, not {format!r}")
    with open_input(path=path, stream=stream, name=name, progress=progress) as data:
        run_format, lines, lists = _read_lists(
            data=data,
            run_format=format,
            index=CollectionIndex(collection),
            create_missing_clips=create_missing_clips,
            create_missing_queries=create_missing_queries,
        )
        return RunsRead(path=data.path, format=run_format, lines=lines, lists=lists)


def _entries_insert(rows: list[tuple]) -> None:
    """Insert run entries ``(system, query, rank, clip, score)`` as plain rows: a million
    model instances took ~70 s in one transaction, holding SQLite's write lock past every
    other writer's busy timeout; plain rows take a few seconds."""
    with connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO judging_runentry (system_id, query_id, rank, clip_id, score) "
            "VALUES (%s, %s, %s, %s, %s)",
            rows,
        )


def runs_write(
    *,
    collection: Collection,
    read: RunsRead,
    replace: bool = False,
    progress: Progress = no_progress,
) -> RunsImportSummary:
    """Write what :func:`runs_read` read, all or nothing (one transaction; the caller's if
    it has one, so several files can be one import)."""
    run_format, lines, lists, path = read.format, read.lines, read.lists, read.path
    with transaction.atomic():
        index = CollectionIndex(collection)  # as it is now, inside the transaction
        progress(None, "writing")
        query_ids = {query for _, query in lists}
        clips_created = index.clips_create(
            query_ids | {doc for ranked_list in lists.values() for doc in ranked_list.docs}
        )
        queries_created = index.queries_create(query_ids)

        system_names = {system for system, _ in lists}
        systems = dict(
            System.objects.filter(collection=collection, name__in=system_names).values_list(
                "name", "pk"
            )
        )
        new_systems = sorted(system_names - systems.keys())
        System.objects.bulk_create(
            [System(collection=collection, name=name) for name in new_systems],
            batch_size=BATCH_SIZE,
        )
        systems = dict(
            System.objects.filter(collection=collection, name__in=system_names).values_list(
                "name", "pk"
            )
        )

        stored: dict[tuple[int, int], list[tuple[int, float | None]]] = {}
        for system_id, query_id, clip_id, score in (
            RunEntry.objects.filter(system_id__in=systems.values())
            .order_by("system_id", "query_id", "rank")
            .values_list("system_id", "query_id", "clip_id", "score")
        ):
            stored.setdefault((system_id, query_id), []).append((clip_id, score))

        entries: list[tuple] = []  # a batch at a time
        entries_created = 0
        lists_present = lists_replaced = entries_present = entries_deleted = 0
        for ranked_list in lists.values():
            system_id = systems[ranked_list.system]
            query_id = index.queries[ranked_list.query]
            wanted = [(index.clips[doc], score) for doc, score in ranked_list.ranked(run_format)]
            before = stored.get((system_id, query_id))
            if before == wanted:
                lists_present += 1
                entries_present += len(wanted)
                continue
            if before is not None:
                if not replace:
                    raise ImportFailed(
                        path,
                        ranked_list.first_line,
                        f"the ranked list of system '{ranked_list.system}' for query "
                        f"'{ranked_list.query}' is already stored with other documents or "
                        "scores (import with replace to overwrite it)",
                    )
                entries_deleted += RunEntry.objects.filter(
                    system_id=system_id, query_id=query_id
                ).delete()[0]
                lists_replaced += 1
            entries.extend(
                (system_id, query_id, rank, clip_id, score)
                for rank, (clip_id, score) in enumerate(wanted, start=1)
            )
            if len(entries) >= BATCH_SIZE:
                _entries_insert(entries)
                entries_created += len(entries)
                entries.clear()
        _entries_insert(entries)
        entries_created += len(entries)
        if entries_created or entries_deleted:
            planner_statistics_refresh(RunEntry, Clip, Query, System)
            handoff.collection_data_changed(collection_id=collection.pk)

    return RunsImportSummary(
        format=run_format,
        lines=lines,
        systems_created=len(new_systems),
        systems_present=len(system_names) - len(new_systems),
        queries_created=queries_created,
        clips_created=clips_created,
        lists_created=len(lists) - lists_present - lists_replaced,
        lists_present=lists_present,
        lists_replaced=lists_replaced,
        run_entries_created=entries_created,
        run_entries_present=entries_present,
        run_entries_deleted=entries_deleted,
    )
