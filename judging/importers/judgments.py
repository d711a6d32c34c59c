"""Relevance judgments: TREC qrels and the ``query doc fine [broad]`` format of MIREX."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from django.db import transaction
from django.utils import timezone

from judging import handoff
from judging.importers.errors import ImportFailed
from judging.importers.index import BATCH_SIZE, CollectionIndex, check_id
from judging.importers.rows import Row, read_rows
from judging.models import Collection, RelevanceJudgment
from judging.models.collection import BROAD_LABELS, FINE_MAX

JudgmentFormat = Literal["auto", "qrels", "fine"]
JUDGMENT_FORMATS: tuple[str, ...] = ("auto", "qrels", "fine")
Scale = Literal["fine", "broad"]
SCALES: tuple[str, ...] = ("fine", "broad")
SCALE_MAX = {"fine": FINE_MAX, "broad": max(BROAD_LABELS)}
SCALE_TITLE = {"fine": "Fine", "broad": "Broad"}

QRELS_LAYOUT = "qid iter docno rel"
FINE_LAYOUT = "query doc fine [broad]"
SOURCE_MAX_LENGTH = RelevanceJudgment._meta.get_field("source").max_length


@dataclass(frozen=True)
class JudgmentsImportSummary:
    """What a judgment import found and wrote."""

    format: str
    scale: str
    source: str
    lines: int
    clips_created: int
    judgments_created: int
    judgments_updated: int
    judgments_present: int


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
        f"cannot tell the judgment format from {len(row.fields)} fields: expected 4 "
        f"({QRELS_LAYOUT}) or 3 to 4 ({FINE_LAYOUT})",
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


def judgments_import(
    *,
    collection: Collection,
    path: str | Path,
    format: JudgmentFormat = "auto",
    scale: Scale | None = None,
    source: str | None = None,
    create_missing_clips: bool = False,
) -> JudgmentsImportSummary:
    """Import relevance judgments from ``path`` into ``collection``, all or nothing.

    Formats (``format="auto"`` decides from the first data line, see
    :func:`detect_judgment_format`):

    - ``qrels``: TREC ``qid iter docno rel``; ``iter`` is ignored.
    - ``fine``: ``query doc fine`` or ``query doc fine broad`` (MIREX's judgments.tsv).

    Scales. Fine runs from 0 to 100 and Broad from 0 to 2, integers only; a value out of
    range stops the import. ``scale`` names the scale of the one relevance column of a
    qrels line or of a 3-field ``fine`` line; it defaults to ``"broad"`` for qrels (TREC
    grades are small integers) and ``"fine"`` for the 3-field format. A 4-field ``fine``
    line always carries Fine then Broad. The scale a line does not carry is stored empty.
    The rule is explicit rather than guessed from the values, so that one file's values
    never change the meaning of another's.

    Each judgment is stored with no assessor and ``source`` (default
    ``import:<file name>``), one per (query, document, source). A pair judged twice in
    one file stops the import. Importing a file again updates the pairs whose values
    changed and leaves the others untouched, so the same file twice changes nothing.
    Query ids must name queries of the collection; document ids must name clips unless
    ``create_missing_clips`` creates them.
    """
    if format not in JUDGMENT_FORMATS:
        raise ValueError(f"format must be one of {JUDGMENT_FORMATS}, not {format!r}")
    if scale is not None and scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES} or None, not {scale!r}")
    path = Path(path)
    source = (source or f"import:{path.name}")[:SOURCE_MAX_LENGTH]
    name = collection.name
    with transaction.atomic():
        index = CollectionIndex(collection)
        detected = None if format == "auto" else format
        single_scale = scale
        # (query id, document id) → (line, broad, fine)
        parsed: dict[tuple[str, str], tuple[int, int | None, int | None]] = {}
        for row in read_rows(path):
            if detected is None:
                detected = detect_judgment_format(path, row)
            if single_scale is None:
                single_scale = "broad" if detected == "qrels" else "fine"
            fields = row.fields
            if detected == "qrels":
                if len(fields) != 4:
                    raise ImportFailed(
                        path,
                        row.line,
                        f"expected 4 fields ({QRELS_LAYOUT}), found {len(fields)}",
                    )
                query, _iteration, doc, value = fields
                values = [(single_scale, value)]
            else:
                if len(fields) not in (3, 4):
                    raise ImportFailed(
                        path,
                        row.line,
                        f"expected 3 or 4 fields ({FINE_LAYOUT}), found {len(fields)}",
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
                raise ImportFailed(
                    path, row.line, f"unknown query '{query}': not a query of collection '{name}'"
                )
            if doc not in index.clips and not create_missing_clips:
                raise ImportFailed(
                    path, row.line, f"unknown document '{doc}': not a clip of collection '{name}'"
                )
            if (query, doc) in parsed:
                raise ImportFailed(
                    path,
                    row.line,
                    f"duplicate judgment of document '{doc}' for query '{query}' "
                    f"(first on line {parsed[query, doc][0]})",
                )
            parsed[query, doc] = (row.line, grades["broad"], grades["fine"])
        if detected is None:
            raise ImportFailed(path, None, "no data lines")

        clips_created = index.clips_create(doc for _, doc in parsed)
        stored = {
            (query_id, clip_id): (pk, broad, fine)
            # No ordering: the model's default joins clips and queries to sort, which
            # PostgreSQL can plan badly on freshly filled tables; a dict needs no order.
            for pk, query_id, clip_id, broad, fine in RelevanceJudgment.objects.filter(
                query__collection=collection, assessor__isnull=True, source=source
            )
            .order_by()
            .values_list("pk", "query_id", "clip_id", "broad", "fine")
        }
        now = timezone.now()
        created: list[RelevanceJudgment] = []
        updated: list[RelevanceJudgment] = []
        present = 0
        for (query, doc), (_, broad, fine) in parsed.items():
            key = (index.queries[query], index.clips[doc])
            before = stored.get(key)
            if before is None:
                created.append(
                    RelevanceJudgment(
                        query_id=key[0], clip_id=key[1], source=source, broad=broad, fine=fine
                    )
                )
            elif before[1:] == (broad, fine):
                present += 1
            else:
                updated.append(
                    RelevanceJudgment(pk=before[0], broad=broad, fine=fine, updated_at=now)
                )
        RelevanceJudgment.objects.bulk_create(created, batch_size=BATCH_SIZE)
        RelevanceJudgment.objects.bulk_update(
            updated, ["broad", "fine", "updated_at"], batch_size=BATCH_SIZE
        )
        if created or updated:
            handoff.collection_data_changed(collection_id=collection.pk)

    return JudgmentsImportSummary(
        format=detected,
        scale=single_scale,
        source=source,
        lines=len(parsed),
        clips_created=clips_created,
        judgments_created=len(created),
        judgments_updated=len(updated),
        judgments_present=present,
    )
