"""Ordered groups: a ground truth file ``NAME QUERY DOC GROUP`` and a past pairwise study.

Both write a partially ordered ground truth (Typke, Veltkamp and Wiering 2006, §3; thesis
§2.5, ADR) into judgment sources of the collection (:mod:`catalog.services.ordered_groups`):

- :func:`groups_import` reads a groups file with the numerical core's parser
  (:func:`evaluation.core.ordered_groups.read_groups`: four fields, a group a whole number
  from 1, a document once per query, groups numbered without gaps). Each ``NAME`` of the
  file is a source of that name (``source`` renames the one ground truth of a file
  holding one), of kind ``groups``;
- :func:`past_study_import` reads a past study's answers CSV (query, doc A, doc B, answer,
  worker; Mechanical Turk's batch results among the layouts,
  :func:`evaluation.core.ordered_groups.read_past_study`) and orders each query's
  candidates by the three-way QuickSort's rule with ``margin``
  (:func:`~evaluation.core.ordered_groups.past_study_groups`; Urbano, Morato, Marrero
  and Martín 2010) into one source of kind ``pairwise``, a **pilot** by default: the
  organiser compares it with the ground truth they hold before letting it count.

All or nothing: the whole file is checked (and every query and document must name a
query and a clip of the collection) before one transaction writes; an error names the
file, the line and the problem (:class:`~common.files.errors.ImportFailed`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Collection, JudgmentSource
from catalog.services.ordered_groups import GroupsConflict, source_groups_write
from catalog.services.sources import judgment_source_for_writing
from common.files.errors import ImportFailed
from common.files.inputs import Progress, check_line_count, no_progress
from evaluation.core.ordered_groups import past_study_groups, read_groups, read_past_study
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from evaluation.core.trec import FormatError
from ingest.importers.index import CollectionIndex, check_id

MAX_LINES = 2_000_000
"""Data lines of one groups file or past study (the file is read whole: the upload's
text limit bounds it first)."""

MAX_MARGIN = 100
"""The largest margin of votes a past study may be sorted with (10 workers a pair is usual)."""


@dataclass(frozen=True)
class GroupsImportSummary:
    """What an import of ordered groups wrote, summed over its sources."""

    sources: tuple[str, ...]
    sources_created: int
    lines: int
    queries_created: int
    queries_replaced: int
    queries_unchanged: int
    queries_kept: int
    clips_written: int
    status: str
    answers: int = 0
    rejected: int = 0


def _read_bytes(path: Path, shown: str) -> bytes:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ImportFailed(shown, None, f"cannot be read ({error.strerror})") from None
    lines = raw.count(b"\n") + (not raw.endswith(b"\n"))
    check_line_count(Path(shown), lines, lines, MAX_LINES)
    return raw


def _format_error(error: FormatError, shown: str) -> ImportFailed:
    return ImportFailed(shown, error.line, error.message)


def _group_lines(raw: bytes) -> dict[tuple[str, str, str], int]:
    """The line of each (name, query, document) of a groups file the core accepted."""
    lines = {}
    for number, line in enumerate(raw.split(b"\n"), start=1):
        fields = line.split()
        if len(fields) == 4:
            name, query, doc = (field.decode() for field in fields[:3])
            lines.setdefault((name, query, doc), number)
    return lines


def _clip_ids(
    index: CollectionIndex, groups, *, shown: str, line_of, name: str
) -> dict[int, list[list[int]]]:
    """``{query id: [[clip id, …], …]}`` of one ground truth's ``{query: groups}``, each
    query and document checked against the collection (unknown: the line naming it)."""
    collection = index.collection.name
    by_pk = {}
    for query, query_groups in groups.items():
        for group in query_groups:
            for doc in group:
                line = line_of(name, query, doc)
                check_id(Path(shown), line, "query id", query)
                check_id(Path(shown), line, "document id", doc)
                if query not in index.queries:
                    raise ImportFailed(
                        shown, line,
                        f"unknown query '{query}': not a query of collection '{collection}' "
                        "(queries come from the runs: import them first)",
                    )  # fmt: skip
                if doc not in index.clips:
                    raise ImportFailed(
                        shown, line, f"unknown document '{doc}': not a clip of collection '{collection}'"
                    )  # fmt: skip
        by_pk[index.queries[query]] = [
            [index.clips[doc] for doc in group] for group in query_groups
        ]
    return by_pk


def _write_sources(
    collection: Collection,
    truths: dict[str, dict[int, list[list[int]]]],
    *,
    kind: str,
    shown: str,
    status: str | None,
    replace: bool,
    progress: Progress,
) -> tuple[list, int]:
    writes, created = [], 0
    with transaction.atomic():
        progress(None, "writing")
        for name, groups in truths.items():
            try:
                source, new = judgment_source_for_writing(
                    collection=collection, name=name, kind=kind, origin=shown, status=status
                )
                writes.append(
                    source_groups_write(
                        source=source,
                        groups=groups,
                        source_created=new,
                        replace=replace,
                        origin=shown,
                    )
                )
            except GroupsConflict as conflict:
                raise ImportFailed(shown, None, conflict.messages[0]) from None
            except ValidationError as error:
                raise ImportFailed(shown, None, "; ".join(error.messages)) from None
            created += new
    return writes, created


def _summary(writes, created, *, lines, answers=0, rejected=0) -> GroupsImportSummary:
    return GroupsImportSummary(
        sources=tuple(w.source.name for w in writes),
        sources_created=created,
        lines=lines,
        queries_created=sum(w.queries_created for w in writes),
        queries_replaced=sum(w.queries_replaced for w in writes),
        queries_unchanged=sum(w.queries_unchanged for w in writes),
        queries_kept=sum(w.queries_kept for w in writes),
        clips_written=sum(w.clips_written for w in writes),
        status=writes[0].source.status,
        answers=answers,
        rejected=rejected,
    )


def groups_import(
    *,
    collection: Collection,
    path: str | Path,
    name: str | None = None,
    source: str | None = None,
    status: str | None = None,
    replace: bool = False,
    progress: Progress = no_progress,
) -> GroupsImportSummary:
    """Import a groups file ``NAME QUERY DOC GROUP`` (group 1 the most similar) into
    ``collection``, all or nothing (see the module).

    ``name`` is what messages call the file (default: its name). Each ``NAME`` becomes the
    source of that name, or ``source`` when the file holds one ground truth; a new source
    is ``status`` (official by default). A query whose groups the source holds already
    and differ stops the import unless ``replace``.
    """
    path = Path(path)
    shown = name or path.name
    raw = _read_bytes(path, shown)
    progress(0.1, "reading the groups")
    try:
        truths = read_groups(raw)
    except FormatError as error:
        raise _format_error(error, shown) from None
    if source and len(truths) > 1:
        raise ImportFailed(
            shown, None,
            f"the file holds {len(truths)} ground truths ({', '.join(sorted(truths))}): "
            "each goes into the source of its name, so leave the source name empty",
        )  # fmt: skip
    lines = _group_lines(raw)
    index = CollectionIndex(collection)
    by_source = {
        (source or truth_name): _clip_ids(
            index,
            groups,
            shown=shown,
            name=truth_name,
            line_of=lambda n, q, d: lines.get((n, q, d)),
        )
        for truth_name, groups in truths.items()
    }
    writes, created = _write_sources(
        collection, by_source, kind=JudgmentSource.GROUPS, shown=shown, status=status,
        replace=replace, progress=progress,
    )  # fmt: skip
    return _summary(writes, created, lines=len(lines))


def _study_lines(text: str) -> dict[str, int]:
    """The first line naming each id in a past study's CSV (for an unknown query or clip)."""
    first: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text))
    for row in reader:
        for cell in row:
            first.setdefault(cell.strip(), reader.line_num)
    return first


def past_study_import(
    *,
    collection: Collection,
    path: str | Path,
    name: str | None = None,
    source: str | None = None,
    status: str | None = JudgmentSource.PILOT,
    margin: int = DEFAULT_MARGIN,
    replace: bool = False,
    progress: Progress = no_progress,
) -> GroupsImportSummary:
    """Import a past pairwise study's answers CSV as ordered groups in one source
    (``source``, default the file's name; a new one a **pilot** unless ``status`` says
    otherwise), all or nothing (see the module).

    Each query's candidates are ordered by the three-way QuickSort with ``margin`` (the
    A-minus-B votes a candidate needs to go above or below a pivot; Urbano et al. 2010
    use 2). A query whose answers do not give groups (a pair never asked) stops the import.
    """
    path = Path(path)
    shown = name or path.name
    if not 1 <= margin <= MAX_MARGIN:
        raise ImportFailed(shown, None, f"the margin is a whole number from 1 to {MAX_MARGIN}")
    raw = _read_bytes(path, shown)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFailed(shown, None, f"not UTF-8 text ({error.reason})") from None
    progress(0.1, "reading the answers")
    try:
        study = read_past_study(text if "\n" in text else text + "\n")
    except FormatError as error:
        raise _format_error(error, shown) from None
    lines = _study_lines(text)
    index = CollectionIndex(collection)
    # Every name checked before the sort: an unknown clip is named, not a sort that stops.
    named = {q: [sorted(votes.candidates())] for q, votes in study.votes.items()}
    _clip_ids(
        index, named, shown=shown, name="",
        line_of=lambda n, q, d: lines.get(q) if q not in index.queries else lines.get(d),
    )  # fmt: skip
    try:
        groups = past_study_groups(study, margin=margin)
    except ValueError as error:
        raise ImportFailed(shown, None, str(error)) from None
    truth = {
        index.queries[q]: [[index.clips[doc] for doc in group] for group in query_groups]
        for q, query_groups in groups.items()
    }
    writes, created = _write_sources(
        collection, {source or shown: truth}, kind=JudgmentSource.PAIRWISE, shown=shown,
        status=status, replace=replace, progress=progress,
    )  # fmt: skip
    return _summary(
        writes, created, lines=study.answers + study.rejected,
        answers=study.answers, rejected=study.rejected,
    )  # fmt: skip
