"""A run's rankings matched against the judgments, as ``(n_queries, depth)`` matrices."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from evaluation.core.trec.hashing import lookup
from evaluation.core.trec.model import Qrels, Run


@dataclass(frozen=True, eq=False)
class RankedJudgments:
    """Which judgment (if any) each ranked document of each evaluated query has.

    Attributes
    ----------
    queries:
        Evaluated queries, in the judgments' sorted order.
    match:
        ``(n_queries, depth)``: row in ``qrels`` of the document at each rank, ``-1`` for
        a document not judged and for ranks past the end of the ranking.
    retrieved:
        ``(n_queries,)`` documents ranked per query.
    judgments:
        ``(n_queries,)`` index of each query in ``qrels.query_ids``.
    """

    qrels: Qrels
    queries: tuple[str, ...]
    match: np.ndarray
    retrieved: np.ndarray
    judgments: np.ndarray
    _cache: dict = field(default_factory=dict, repr=False)

    def cached(self, key, make):
        """``make()``, computed once per key for this matched run (measures share it)."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def values(self, column: str) -> np.ndarray:
        """Relevance values at each rank (0 when not judged); negatives kept."""
        key = ("values", column)
        if key not in self._cache:
            col = self.qrels.column(column)
            padded = np.append(np.asarray(col, dtype=np.float64), 0.0)  # match -1 reads 0
            self._cache[key] = padded[self.match]
        return self._cache[key]

    def judged(self, column: str) -> np.ndarray:
        """True where the ranked document has a non-negative judgment."""
        return (self.match >= 0) & (self.values(column) >= 0)

    def judged_values(self, column: str) -> np.ndarray:
        """``(n_queries, n)``: each query's non-negative judgments sorted decreasingly, then -1."""
        key = ("judged", column)
        if key not in self._cache:
            col = self.qrels.column(column)
            starts = self.qrels.offsets[self.judgments]
            counts = self.qrels.offsets[self.judgments + 1] - starts
            width = int(counts.max(initial=0))
            cells = np.arange(width)
            inside = cells < counts[:, None]
            rows = np.where(inside, starts[:, None] + cells, 0)
            values = np.where(inside, col[rows] if len(col) else -1.0, -1.0)
            self._cache[key] = -np.sort(-np.where(values >= 0, values, -1.0), axis=1)
        return self._cache[key]


def rank_judgments(qrels: Qrels, run: Run, *, complete: bool = False) -> RankedJudgments:
    """Match a run against the judgments.

    Queries of the run without judgments are left out; judged queries the run lacks
    are left out too, unless ``complete`` (trec_eval ``-c``), where they get an empty
    ranking and so score 0.
    """
    position = {q: i for i, q in enumerate(qrels.query_ids)}
    run_index = {q: i for i, q in enumerate(run.query_ids)}
    queries = qrels.query_ids if complete else tuple(q for q in qrels.query_ids if q in run_index)
    judgments = np.array([position[q] for q in queries], dtype=np.int64)
    in_run = np.array([run_index.get(q, -1) for q in queries], dtype=np.int64)
    starts = np.where(in_run >= 0, run.offsets[np.maximum(in_run, 0)], 0)
    ends = np.where(in_run >= 0, run.offsets[np.maximum(in_run, 0) + 1], 0)
    retrieved = ends - starts
    depth = int(retrieved.max(initial=0))
    # every ranked row of the run, matched once: the code of a row is its query's
    # index in the judgments (-1 for a query without judgments, which matches nothing)
    judged_as = np.full(len(run.query_ids), -1, dtype=np.int64)
    judged_as[in_run[in_run >= 0]] = judgments[in_run >= 0]
    row_codes = np.repeat(judged_as, np.diff(run.offsets))
    qrels_codes = np.repeat(np.arange(len(qrels.query_ids)), np.diff(qrels.offsets))
    matched = lookup(qrels_codes, qrels.docs, row_codes, run.docs, run.hashes)
    if (
        len(queries) == len(run.query_ids)
        and (retrieved == depth).all()
        and (in_run == np.arange(len(in_run))).all()
    ):  # the run's rows are the matrix, row by row
        match = matched.reshape(len(queries), depth)
    else:
        cells = np.arange(depth)
        inside = cells < retrieved[:, None]
        match = np.full(inside.shape, -1, dtype=np.int64)
        match[inside] = matched[(starts[:, None] + cells)[inside]]
    return RankedJudgments(qrels, queries, match, retrieved, judgments)
