"""A CrowdFlower (Appen) job export as Earshot's preference-answers CSV, through a column mapping.

Pure Python (no Django). The columns this module was written against are those of the
ISMIR 2012 answers: a CrowdFlower study of 2,200 answers by the thesis' author, separate
from the study the thesis analyses in chapters 3–4 (§3.2.2–3.2.3: also on CrowdFlower,
11,042 answers of which 9,373 trusted and 4,115 left once trap examples are discarded).
A CrowdFlower export has one row per answer with the platform's columns (``_unit_id``,
``_worker_id``, ``_created_at``, ``_started_at``, ``_golden``, ``_tainted``, …) beside the
job's own; in the ISMIR 2012 job: the query, the documents of list A and list B (``d1a``
… ``d5a``, ``d1b`` … ``d5b``), their Fine and Broad judgments (``f1a`` …, ``b1a`` …) and
the answer (``what_service_gives_better_results``).

A :class:`ColumnMapping` says which export column (or columns, in rank order) gives
each column of the documented CSV (``docs/preference-answers-import.md``), what each
answer value means, and which rows to leave out (trap answers, ``_golden``; answers the
platform did not trust, ``_tainted``; thesis §3.3 keeps neither). :func:`mapping_propose`
guesses one from the header and some values; the organiser corrects it on the mapping
page, which remembers it. :func:`answers_csv_write` translates the export; the result is
imported by :func:`pastanswers.importers.answers.preference_answers_import`, the importer of
the documented CSV, so both uploads write the same way.

Line numbers are kept: each translated answer starts on the line where its row starts
in the export (left-out rows become blank lines, which the importer skips), so every
error of the importer names the export's line.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TextIO

CHOICES: tuple[str, ...] = ("a_better", "b_better", "both_good", "both_bad")
OUTPUT_COLUMNS: tuple[str, ...] = (
    "query", "list_a", "list_b", "answer", "worker", "fine_a", "fine_b", "broad_a",
    "broad_b", "answered_at", "seconds", "comment",
)  # fmt: skip
SINGLE = ("query", "answer", "worker", "answered_at", "started_at", "comment")
"""Targets taken from one column (``answered_at``, ``started_at``, ``comment`` optional)."""
LISTS = ("list_a", "list_b", "fine_a", "fine_b", "broad_a", "broad_b")
"""Targets taken from several columns, one per rank (``fine_*``, ``broad_*`` optional)."""
REQUIRED = ("query", "answer", "worker", "list_a", "list_b")
TRUE = frozenset({"true", "t", "yes", "y", "1"})
TIME_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S")
"""CrowdFlower writes ``1/23/2012 10:11:12`` (UTC); ISO 8601 is read too."""
DOCUMENT_COLUMN = re.compile(r"^([dfb])(\d+)([ab])$", re.IGNORECASE)
MAX_VALUES = 50
"""Distinct answer values a mapping may name (an answer column has a handful)."""


class MappingError(ValueError):
    """A mapping that cannot be used, with every problem found (``problems``)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class TranslationError(ValueError):
    """A row of the export that the mapping cannot translate, with its line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


@dataclass
class ColumnMapping:
    """Which export columns give each column of the documented CSV."""

    query: str = ""
    answer: str = ""
    worker: str = ""
    list_a: list[str] = field(default_factory=list)
    list_b: list[str] = field(default_factory=list)
    fine_a: list[str] = field(default_factory=list)
    fine_b: list[str] = field(default_factory=list)
    broad_a: list[str] = field(default_factory=list)
    broad_b: list[str] = field(default_factory=list)
    answered_at: str = ""
    started_at: str = ""
    comment: str = ""
    answer_values: dict[str, str] = field(default_factory=dict)
    skip_when_true: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> ColumnMapping:
        """A mapping from JSON-like data; :class:`MappingError` on wrong types."""
        if not isinstance(data, dict):
            raise MappingError(["the mapping is not an object"])
        problems, values = [], {}
        for name in SINGLE:
            value = data.get(name, "")
            if not isinstance(value, str):
                problems.append(f"{name} must be a column name")
            values[name] = value if isinstance(value, str) else ""
        for name in (*LISTS, "skip_when_true"):
            value = data.get(name, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append(f"{name} must be a list of column names")
                value = []
            values[name] = [v for v in value if v]
        answer_values = data.get("answer_values", {})
        if not isinstance(answer_values, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in answer_values.items()
        ):
            problems.append("answer_values must map each value of the answer column to an answer")
            answer_values = {}
        values["answer_values"] = {k: v for k, v in answer_values.items() if v}
        unknown = sorted(set(data) - set(values))
        if unknown:
            problems.append(f"unknown part(s) of a mapping: {', '.join(unknown)}")
        if problems:
            raise MappingError(problems)
        return cls(**values)

    def check(self, header: Sequence[str]) -> None:
        """Stop with every problem unless the mapping can translate files with ``header``."""
        columns = set(header)
        problems = []
        for name in REQUIRED:
            if not getattr(self, name):
                problems.append(f"choose the column(s) of {name}")
        for name in SINGLE:
            column = getattr(self, name)
            if column and column not in columns:
                problems.append(f"{name}: the file has no column '{column}'")
        for name in (*LISTS, "skip_when_true"):
            missing = [c for c in getattr(self, name) if c not in columns]
            if missing:
                problems.append(f"{name}: the file has no column(s) {', '.join(missing)}")
            if len(set(getattr(self, name))) != len(getattr(self, name)):
                problems.append(f"{name} names a column twice")
        if len(self.list_a) != len(self.list_b):
            problems.append(
                f"list_a has {len(self.list_a)} column(s) and list_b {len(self.list_b)}: "
                "both lists have the same length"
            )
        for name in ("fine_a", "fine_b", "broad_a", "broad_b"):
            given = getattr(self, name)
            side = getattr(self, f"list_{name[-1]}")
            if given and len(given) != len(side):
                problems.append(
                    f"{name} has {len(given)} column(s) for {len(side)} documents of list_{name[-1]}"
                )
        wrong = sorted({v for v in self.answer_values.values() if v not in CHOICES})
        if wrong:
            problems.append(f"answers must be one of {', '.join(CHOICES)}, not {', '.join(wrong)}")
        if len(self.answer_values) > MAX_VALUES:
            problems.append(f"more than {MAX_VALUES} answer values")
        if problems:
            raise MappingError(problems)


def _norm(name: str) -> str:
    return name.strip().lower()


def _first(header: Sequence[str], *candidates: str) -> str:
    by_name = {_norm(c): c for c in header}
    return next((by_name[c] for c in candidates if c in by_name), "")


def choice_guess(value: str) -> str:
    """What an answer value most likely means ("" when it cannot be told).

    >>> [choice_guess(v) for v in ("System A", "b", "Both are good", "both_bad", "Dunno")]
    ['a_better', 'b_better', 'both_good', 'both_bad', '']
    >>> [choice_guess(v) for v in ("Neither is good", "Neither is bad", "Both")]
    ['both_bad', 'both_good', '']
    """
    text = value.strip().lower()
    if text in CHOICES:
        return text
    words = set(re.split(r"[^a-z0-9]+", text)) - {""}
    bad, good = words & {"bad", "poor", "worse"}, words & {"good", "well", "satisfactory"}
    if words & {"neither", "none"}:  # "neither is good" is both bad, "neither is bad" both good
        return "both_good" if bad and not good else "both_bad" if good and not bad else ""
    if "both" in words:
        return "both_good" if good and not bad else "both_bad" if bad and not good else ""
    sides = words & {"a", "b", "1", "2", "left", "right"}
    if len(sides) == 1:
        side = sides.pop()
        return "a_better" if side in ("a", "1", "left") else "b_better"
    return ""


def mapping_propose(header: Sequence[str], answers_seen: Iterable[str] = ()) -> ColumnMapping:
    """A first guess from the column names (and the answer values seen in the file)."""
    documents: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for column in header:
        found = DOCUMENT_COLUMN.match(column.strip())
        if found:
            kind, rank, side = found.group(1).lower(), int(found.group(2)), found.group(3).lower()
            documents.setdefault((kind, side), []).append((rank, column))
    ranked = {key: [c for _, c in sorted(columns)] for key, columns in documents.items()}
    answer = _first(header, "what_service_gives_better_results", "answer", "preference")
    if not answer:
        answer = next(
            (c for c in header if not c.startswith("_") and re.search("better|answer", c, re.I)),
            "",
        )
    mapping = ColumnMapping(
        query=_first(header, "q", "query", "query_id", "qid", "queryid", "query_clip"),
        answer=answer,
        worker=_first(header, "_worker_id", "worker_id", "worker", "workerid"),
        list_a=ranked.get(("d", "a"), []),
        list_b=ranked.get(("d", "b"), []),
        fine_a=ranked.get(("f", "a"), []),
        fine_b=ranked.get(("f", "b"), []),
        broad_a=ranked.get(("b", "a"), []),
        broad_b=ranked.get(("b", "b"), []),
        answered_at=_first(header, "_created_at", "answered_at", "created_at"),
        started_at=_first(header, "_started_at", "started_at"),
        comment=next((c for c in header if re.search("comment|feedback", c, re.I)), ""),
        skip_when_true=[c for c in header if _norm(c) in ("_golden", "_tainted")],
    )
    mapping.answer_values = {v: choice_guess(v) for v in dict.fromkeys(answers_seen) if v}
    return mapping


def _time(text: str, *, column: str) -> datetime:
    text = text.strip()
    for layout in TIME_FORMATS:
        try:
            return datetime.strptime(text, layout).replace(tzinfo=UTC)
        except ValueError:
            continue
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"{column} '{text[:40]}' is not a time (month/day/year hours:minutes:seconds "
            "or ISO 8601)"
        ) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _joined(cells: dict[str, str], columns: list[str], *, target: str) -> str:
    values = [cells.get(c, "").strip() for c in columns]
    given = [v for v in values if v]
    if given and len(given) != len(values):
        empty = [c for c, v in zip(columns, values, strict=True) if not v]
        raise ValueError(f"{target}: column(s) {', '.join(empty)} empty")
    if any(re.search(r"[\s|]", v) for v in given):
        raise ValueError(f"{target}: a value holds a space or '|'")
    return " ".join(given)


def answer_row(cells: dict[str, str], mapping: ColumnMapping) -> dict[str, str] | None:
    """The documented CSV's row for one export row (``None``: left out); ``ValueError`` says why not."""
    for column in mapping.skip_when_true:
        if cells.get(column, "").strip().lower() in TRUE:
            return None
    raw = cells.get(mapping.answer, "").strip()
    if not raw:
        raise ValueError(f"{mapping.answer} is empty")
    choice = mapping.answer_values.get(raw)
    if not choice:
        raise ValueError(
            f"{mapping.answer} '{raw[:60]}' has no meaning in the column mapping: "
            "say which answer it is on the mapping page"
        )
    row = {"query": cells.get(mapping.query, "").strip(), "answer": choice,
           "worker": cells.get(mapping.worker, "").strip()}  # fmt: skip
    for name in LISTS:
        row[name] = _joined(cells, getattr(mapping, name), target=name)
    row["answered_at"] = row["seconds"] = ""
    if mapping.answered_at and cells.get(mapping.answered_at, "").strip():
        answered = _time(cells[mapping.answered_at], column=mapping.answered_at)
        row["answered_at"] = answered.isoformat()
        if mapping.started_at and cells.get(mapping.started_at, "").strip():
            started = _time(cells[mapping.started_at], column=mapping.started_at)
            seconds = (answered - started).total_seconds()
            if seconds < 0:
                raise ValueError(f"{mapping.started_at} is after {mapping.answered_at}")
            row["seconds"] = f"{seconds:g}"
    row["comment"] = cells.get(mapping.comment, "") if mapping.comment else ""
    return row


@dataclass(frozen=True)
class Translation:
    """What :func:`answers_csv_write` wrote: answers, and rows left out by column."""

    answers: int
    left_out: dict[str, int]


def answers_csv_write(
    records: Iterable[tuple[int, list[str]]], mapping: ColumnMapping, out: TextIO
) -> Translation:
    """Translate the export's ``(line, cells)`` records (its header first) into the
    documented CSV on ``out``, each answer on its export line; see the module."""
    records = iter(records)
    first = next(records, None)
    if first is None:
        raise TranslationError(1, "the file is empty: no header row")
    header = [h.strip() for h in first[1]]
    if len(set(header)) != len(header):
        twice = sorted({h for h in header if header.count(h) > 1})
        raise TranslationError(first[0], f"the header names column(s) twice: {', '.join(twice)}")
    try:
        mapping.check(header)
    except MappingError as error:
        raise TranslationError(first[0], f"the column mapping does not fit: {error}") from None
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(OUTPUT_COLUMNS)
    written_to = first[0] + 1  # the line the next write starts on
    answers, left_out = 0, {column: 0 for column in mapping.skip_when_true}
    for line, cells in records:
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            raise TranslationError(line, f"{len(cells)} fields for {len(header)} columns")
        values = dict(zip(header, cells, strict=False))
        try:
            row = answer_row(values, mapping)
        except ValueError as error:
            raise TranslationError(line, str(error)) from None
        if row is None:
            skipped_by = next(
                c for c in mapping.skip_when_true if values.get(c, "").strip().lower() in TRUE
            )
            left_out[skipped_by] += 1
            continue
        out.write("\n" * (line - written_to))
        comment = row["comment"]
        writer.writerow([row[column] for column in OUTPUT_COLUMNS])
        written_to = line + 1 + comment.count("\n")
        answers += 1
    return Translation(answers=answers, left_out=left_out)
