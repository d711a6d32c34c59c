"""Judgments that name their assessor, turned into the systems × queries × assessors scores
of the nested G-study :math:`s \\times (h:q)` (thesis §6.4, eq. 6.8).

In the nested design each query has its own :math:`n_h` assessors (the first assessor of
one query need not be the first of another). :func:`assessor_slots` numbers the assessors
of each query 1 … :math:`n_h` in the order of their names and builds one set of judgments
per number (the *slot*): slot :math:`h` holds, for every query, the judgments of its
:math:`h`-th assessor. Every run is then scored against each slot
(:func:`nested_scores`). A balanced design needs the same :math:`n_h` for every query:
:math:`n_h` is chosen to use as many judgments as possible (the largest
:math:`n_h \\times` the number of queries with at least :math:`n_h` assessors); queries with
fewer assessors are left out, and those with more keep their first :math:`n_h`. A document
an assessor did not judge counts as not relevant for that assessor, as unjudged documents
do in every measure.

The file format read by :func:`read_assessor_judgments` is MIREX judgments with an
assessor column: ``query assessor doc fine [broad]``, whitespace-separated, one judgment
per line; ``#`` lines and blank lines are ignored.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §6.4, eqs. 6.8–6.10.
http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evaluation.core.evaluate import evaluate
from evaluation.core.names import Measure
from evaluation.core.trec import FormatError, Qrels, Run
from evaluation.core.trec.tokens import shown

__all__ = ["AssessorSlots", "assessor_slots", "nested_scores", "read_assessor_judgments"]


@dataclass(frozen=True)
class AssessorJudgment:
    query: str
    assessor: str
    doc: str
    fine: float
    broad: float | None = None


@dataclass(frozen=True)
class AssessorSlots:
    """``qrels[h]``: the judgments of every kept query's ``h``-th assessor."""

    n_assessors: int
    queries: tuple[str, ...]
    qrels: tuple[Qrels, ...]
    left_out: Mapping[str, int]  # query → its number of assessors (fewer than n_assessors)


def read_assessor_judgments(path: str | Path) -> list[AssessorJudgment]:
    """Read ``query assessor doc fine [broad]`` lines; a bad line is a ``FormatError``
    naming the file and line."""
    path = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise FormatError(path, None, f"cannot read the judgments: {error.strerror}") from None
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise FormatError(path, lineno, "not UTF-8 text") from None
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) not in (4, 5):
            raise FormatError(
                path,
                lineno,
                f"expected 4 or 5 fields 'query assessor doc fine [broad]', found {len(fields)}",
            )
        query, assessor, doc = fields[:3]
        values = []
        for name, text in zip(("fine", "broad"), fields[3:], strict=False):
            try:
                value = float(text)
            except ValueError:
                raise FormatError(path, lineno, f"{name} {shown(text)} is not a number") from None
            if not math.isfinite(value):
                raise FormatError(path, lineno, f"{name} {shown(text)} is not finite")
            values.append(value)
        key = (query, assessor, doc)
        if key in seen:
            raise FormatError(
                path,
                lineno,
                f"assessor {shown(assessor)} judged document {shown(doc)} of query "
                f"{shown(query)} already on line {seen[key]}",
            )
        seen[key] = lineno
        out.append(AssessorJudgment(query, assessor, doc, *values))
    if not out:
        raise FormatError(path, None, "no judgments found")
    return out


def assessor_slots(judgments: Iterable[AssessorJudgment]) -> AssessorSlots:
    """Number each query's assessors and build one set of judgments per number.

    Raises ``ValueError`` when fewer than 2 queries have 2 or more assessors.

    >>> js = [AssessorJudgment(q, h, "d", 1.0) for q in "ab" for h in "xyz"]
    >>> s = assessor_slots(js + [AssessorJudgment("c", "x", "d", 1.0)])
    >>> s.n_assessors, s.queries, dict(s.left_out)
    (3, ('a', 'b'), {'c': 1})
    """
    by_query: dict[str, dict[str, list[AssessorJudgment]]] = defaultdict(lambda: defaultdict(list))
    for j in judgments:
        by_query[j.query][j.assessor].append(j)
    counts = {q: len(hs) for q, hs in by_query.items()}
    best, n_h = 0, 0
    for candidate in sorted(set(counts.values())):
        if candidate < 2:
            continue
        used = candidate * sum(c >= candidate for c in counts.values())
        if sum(c >= candidate for c in counts.values()) >= 2 and used >= best:
            best, n_h = used, candidate
    if n_h < 2:
        raise ValueError(
            "the nested G-study needs at least 2 queries judged by 2 or more assessors each; "
            f"{sum(c >= 2 for c in counts.values())} queries have that"
        )
    kept = sorted(q for q, c in counts.items() if c >= n_h)
    broad = any(j.broad is not None for hs in by_query.values() for js in hs.values() for j in js)
    columns = ("fine", "broad") if broad else ("fine",)
    slots = []
    for h in range(n_h):
        records = []
        for q in kept:
            assessor = sorted(by_query[q])[h]
            for j in by_query[q][assessor]:
                values = (j.fine, j.broad if j.broad is not None else -1.0)
                records.append((q, j.doc, *values[: len(columns)]))
        slots.append(Qrels.from_records(records, columns=columns, default="fine"))
    left_out = {q: c for q, c in sorted(counts.items()) if c < n_h}
    return AssessorSlots(n_h, tuple(kept), tuple(slots), left_out)


def nested_scores(
    slots: AssessorSlots, runs: Mapping[str, Run], measure: Measure
) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray]:
    """``(systems, queries, scores[s, q, h])``: each run scored against each slot.

    A query a run did not rank scores 0 (trec_eval ``-c``), so every cell is filled.
    """
    per_slot = [evaluate(qrels, runs, [measure], complete=True) for qrels in slots.qrels]
    systems = tuple(runs)
    matrices = [r.matrix(measure, missing="zero") for r in per_slot]
    column = {q: j for j, q in enumerate(matrices[0].queries)}
    cols = [column[q] for q in slots.queries]
    X = np.stack([np.asarray(m.scores)[:, cols] for m in matrices], axis=2)
    return systems, slots.queries, X
