"""A past pairwise preference study, read from its answers CSV into votes and groups.

A study made elsewhere — Urbano, Morato, Marrero and Martín's (2010) on Mechanical
Turk, or another — gives one row per answer: the query, the candidate shown as A, the
one shown as B, the answer and the worker. The columns are found by name, ignoring
case (the first header that matches wins):

=========  ==================================================================
query      ``query``, ``query_id``, ``Input.query``, ``Input.query_id``
doc A      ``doc_a``, ``a``, ``candidate_a``, ``clip_a`` (or ``Input.`` + one of them)
doc B      ``doc_b``, ``b``, ``candidate_b``, ``clip_b`` (or ``Input.`` + one of them)
answer     ``answer``, ``preference``, ``choice`` (or ``Answer.`` + one of them)
worker     ``worker``, ``worker_id``, ``WorkerId`` (Mechanical Turk), ``_worker_id``
           (CrowdFlower), ``PROLIFIC_PID``
=========  ==================================================================

so Mechanical Turk's batch results (``Input.*`` for the HIT's fields, ``Answer.*`` for
the form's, ``WorkerId``) read as they are; other names are given as ``columns``. An
answer is ``A``, ``B`` or ``equal`` (also ``same``, ``tie``, ``equally similar``),
about the candidates *as shown*. Rows of a rejected Mechanical Turk assignment
(``AssignmentStatus`` ``Rejected``) are left out, as the study left them out.

Reading is all or nothing and names the file and line of the first problem
(:class:`~evaluation.core.trec.FormatError`): a missing column, an empty or spaced id,
a candidate compared with itself, an unknown answer, a worker answering one pair twice.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass

from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN, groups_from_answered_pairs
from evaluation.core.ordered_groups.votes import PairVotes
from evaluation.core.trec import FormatError
from evaluation.core.trec.tokens import shown

_DOC = ("doc_{}", "{}", "candidate_{}", "clip_{}")
_ANSWER = ("answer", "preference", "choice")


def _names(names: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    return (*names, *(prefix + name for name in names))


COLUMNS: dict[str, tuple[str, ...]] = {
    "query": _names(("query", "query_id"), "input."),
    "doc_a": _names(tuple(n.format("a") for n in _DOC), "input."),
    "doc_b": _names(tuple(n.format("b") for n in _DOC), "input."),
    "answer": _names(_ANSWER, "answer."),
    "worker": ("worker", "worker_id", "workerid", "_worker_id", "prolific_pid"),
}
ANSWER_WORDS = {
    "a": "A",
    "b": "B",
    "equal": "equal",
    "same": "equal",
    "tie": "equal",
    "equally similar": "equal",
}


@dataclass(frozen=True)
class PastStudy:
    """The answers of a past study: ``votes`` per query, and how many rows were read."""

    votes: Mapping[str, PairVotes]
    answers: int
    rejected: int  # rows of rejected assignments, left out


def read_past_study(source, *, columns: Mapping[str, str] | None = None) -> PastStudy:
    """Read a past study's answers CSV (a path, or its text).

    ``columns`` maps a role (``query``, ``doc_a``, ``doc_b``, ``answer``, ``worker``) to
    the header of the file's column for it, for names the defaults do not know.

    >>> study = read_past_study("query,doc_a,doc_b,answer,worker\\nq,x,y,A,w1\\nq,y,x,equal,w2\\n")
    >>> study.votes["q"].count("x", "y")
    (1, 0, 1)
    """
    if isinstance(source, str) and "\n" in source:
        return _read(io.StringIO(source), "<string>", columns or {})
    try:
        with open(source, encoding="utf-8-sig", newline="") as handle:
            return _read(handle, str(source), columns or {})
    except UnicodeDecodeError as error:
        raise FormatError(str(source), None, f"not UTF-8 text ({error.reason})") from None


def _read(handle, path: str, columns: Mapping[str, str]) -> PastStudy:
    unknown = sorted(set(columns) - set(COLUMNS))
    if unknown:
        raise ValueError(f"unknown column role {unknown[0]!r}; valid: {', '.join(COLUMNS)}")
    reader = csv.reader(handle, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise FormatError(path, None, "empty file: expected a header row") from None
    except csv.Error as error:
        raise FormatError(path, 1, f"not a CSV row ({error})") from None
    where = _column_positions(header, columns, path)
    status = _position(header, ("assignmentstatus",))
    votes: dict[str, PairVotes] = {}
    answered: dict[tuple[str, str, str, str], int] = {}  # (query, pair, worker) → line
    answers = rejected = 0
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise FormatError(path, line, f"expected {len(header)} fields, found {len(row)}")
            if status is not None and row[status].strip().lower() == "rejected":
                rejected += 1
                continue
            query, a, b, worker = (
                _id(row[where[role]], role, path, line)
                for role in ("query", "doc_a", "doc_b", "worker")
            )
            if a == b:
                raise FormatError(path, line, f"candidate {shown(a)} is compared with itself")
            answer = _answer(row[where["answer"]], path, line)
            key = (query, *sorted((a, b)), worker)
            if key in answered:
                raise FormatError(
                    path,
                    line,
                    f"worker {shown(worker)} already answered the pair {shown(a)}, {shown(b)} "
                    f"of query {shown(query)} (line {answered[key]})",
                )
            answered[key] = line
            votes.setdefault(query, PairVotes()).add(a, b, answer)
            answers += 1
    except csv.Error as error:
        raise FormatError(path, reader.line_num, f"not a CSV row ({error})") from None
    if not answers:
        raise FormatError(path, None, "no answers found")
    return PastStudy(votes=votes, answers=answers, rejected=rejected)


def _position(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip().lower() for h in header]
    for name in names:
        if name in lowered:
            return lowered.index(name)
    return None


def _column_positions(header: list[str], columns: Mapping[str, str], path: str) -> dict[str, int]:
    where = {}
    for role, names in COLUMNS.items():
        wanted = (columns[role].strip().lower(),) if role in columns else names
        position = _position(header, wanted)
        if position is None:
            raise FormatError(
                path,
                1,
                f"no {role} column: expected one of {', '.join(wanted)} in the header",
            )
        where[role] = position
    return where


def _id(text: str, role: str, path: str, line: int) -> str:
    value = text.strip()
    if not value or any(c.isspace() or not c.isprintable() for c in value):
        raise FormatError(path, line, f"{role} {shown(text)} is empty or has spaces")
    return value


def _answer(text: str, path: str, line: int) -> str:
    answer = ANSWER_WORDS.get(text.strip().lower())
    if answer is None:
        raise FormatError(
            path, line, f"answer {shown(text)} is not one of A, B, equal (or same, tie)"
        )
    return answer


def past_study_groups(
    study: PastStudy, *, margin: int = DEFAULT_MARGIN
) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The groups of every query of ``study``, by the three-way QuickSort's rule
    (:func:`~evaluation.core.ordered_groups.quicksort.groups_from_answered_pairs`).
    A ``ValueError`` names the query whose answers do not give groups."""
    groups = {}
    for query, votes in study.votes.items():
        try:
            groups[query] = groups_from_answered_pairs(votes, margin=margin)
        except ValueError as error:
            raise ValueError(f"query {query!r}: {error}") from None
    return groups
