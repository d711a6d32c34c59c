"""A run's rankings matched against the judgments, as ``(n_queries, depth)`` matrices."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from evaluation.core.trec.hashing import RepeatedPair, doc_hashes, match_pairs
from evaluation.core.trec.model import Qrels, Run
from evaluation.core.trec.tokens import shown


@dataclass(frozen=True, eq=False)
class RankedJudgments:
    """Which judgment (if any) each ranked document of each evaluated query has.

    Attributes
    ----------
    queries:
        Evaluated queries, in the judgments' sorted order.
    match:
        ``(n_queries, depth)``: row in ``qrels`` of the document at each rank, ``-1`` for
        a document not judged and for ranks past the end of the ranking; ``depth`` is
        the longest ranking, and at least 1.
    retrieved:
        ``(n_queries,)`` documents ranked per query.
    judgments:
        ``(n_queries,)`` index of each query in ``qrels.query_ids``.
    judged_width:
        Width of :meth:`judged_values`; by default the most judgments of a query.
    """

    qrels: Qrels
    queries: tuple[str, ...]
    match: np.ndarray
    retrieved: np.ndarray
    judgments: np.ndarray
    _cache: dict = field(default_factory=dict, repr=False)
    judged_width: int | None = None
    _padded: dict = field(default_factory=dict, repr=False)  # shared with rows()

    def _judgment_counts(self) -> tuple[np.ndarray, np.ndarray]:
        starts = self.qrels.offsets[self.judgments]
        return starts, self.qrels.offsets[self.judgments + 1] - starts

    def rows(self, start: int, stop: int) -> RankedJudgments:
        """Queries ``start:stop`` alone, in matrices as wide as this one's.

        Every measure computes row by row, so it gives these queries the same values,
        bit for bit, as on the whole (a wider matrix could change how numpy groups the
        terms of a sum); on a few queries at a time its work arrays stay in cache.
        """
        width = self.judged_width
        if width is None:
            width = int(self._judgment_counts()[1].max(initial=0))
        return RankedJudgments(
            self.qrels,
            self.queries[start:stop],
            self.match[start:stop],
            self.retrieved[start:stop],
            self.judgments[start:stop],
            judged_width=width,
            _padded=self._padded,
        )

    def judged_only(self) -> RankedJudgments:
        """The rankings without the documents that have no non-negative judgment on the
        judgments' default column (trec_eval ``-J``: "calculate all values only over the
        judged documents"): the judged ones move up, in their order.

        >>> from evaluation.core.trec import Qrels, Run
        >>> q = Qrels.from_records([("q", "a", 1), ("q", "b", -1), ("q", "c", 0)])
        >>> r = rank_judgments(q, Run.from_ranked_lists({"q": ["x", "a", "b", "c"]}))
        >>> r.judged_only().match.tolist(), r.judged_only().retrieved.tolist()
        ([[0, 2]], [2])
        """
        keep = self.judged(self.qrels.default)
        order = np.argsort(~keep, axis=1, kind="stable")  # judged first, in rank order
        counts = keep.sum(axis=1)
        depth = max(int(counts.max(initial=0)), 1)
        match = np.take_along_axis(self.match, order, axis=1)[:, :depth]
        match = np.where(np.arange(depth)[None, :] < counts[:, None], match, -1)
        return RankedJudgments(
            self.qrels, self.queries, match, counts.astype(self.retrieved.dtype), self.judgments
        )

    def cached(self, key, make):
        """``make()``, computed once per key for this matched run (measures share it)."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def values(self, column: str) -> np.ndarray:
        """Relevance values at each rank (0 when not judged); negatives kept."""
        key = ("values", column)
        if key not in self._cache:
            if column not in self._padded:  # match -1 reads 0
                col = self.qrels.column(column)
                self._padded[column] = np.append(np.asarray(col, dtype=np.float64), 0.0)
            self._cache[key] = self._padded[column][self.match]
        return self._cache[key]

    def judged(self, column: str) -> np.ndarray:
        """True where the ranked document has a non-negative judgment."""
        return (self.match >= 0) & (self.values(column) >= 0)

    def judged_values(self, column: str) -> np.ndarray:
        """``(n_queries, n)``: each query's non-negative judgments sorted decreasingly, then -1."""
        key = ("judged", column)
        if key not in self._cache:
            col = self.qrels.column(column)
            starts, counts = self._judgment_counts()
            width = self.judged_width
            if width is None:
                width = int(counts.max(initial=0))
            cells = np.arange(width)
            inside = cells < counts[:, None]
            rows = np.where(inside, starts[:, None] + cells, 0)
            values = np.where(inside, col[rows] if len(col) else -1.0, -1.0)
            self._cache[key] = -np.sort(-np.where(values >= 0, values, -1.0), axis=1)
        return self._cache[key]


_BLOCK_ROWS = 1 << 16  # run rows matched at a time: the block's hash table stays in cache


def rank_judgments(qrels: Qrels, run: Run, *, complete: bool = False) -> RankedJudgments:
    """Match a run against the judgments.

    Queries of the run without judgments are left out; judged queries the run lacks
    are left out too, unless ``complete`` (trec_eval ``-c``), where they get an empty
    ranking and so score 0.
    """
    return rank_judgments_blocks(qrels, _query_blocks(run), complete=complete)


def rank_judgments_blocks(
    qrels: Qrels, blocks: Iterable[Run], *, complete: bool = False
) -> RankedJudgments:
    """:func:`rank_judgments` of a run given as blocks of whole queries (one run split up).

    Each block is matched as it comes and only the judgment row of each ranked document
    is kept, so a run read block by block (:func:`evaluation.core.trec.stream.run_blocks`)
    never has to be held in memory whole. The result is the same, bit for bit, as
    matching the whole run at once.

    Raises
    ------
    ValueError
        When a query comes in two blocks or a document is ranked twice for a query.
    """
    position = {q: i for i, q in enumerate(qrels.query_ids)}
    qrels_hashes = qrels.hashes if qrels.hashes is not None else doc_hashes(qrels.docs)
    names: list[str] = []
    pieces: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    work = np.empty(0, dtype=np.int32)  # the hash table, reused from block to block
    for block in blocks:
        names.extend(block.query_ids)
        counts.append(np.diff(block.offsets))
        if len(work) < 8 * len(block.docs):
            work = np.empty(8 * len(block.docs), dtype=np.int32)
        pieces.append(_match_block(qrels, qrels_hashes, position, block, work))
    run_index = {q: i for i, q in enumerate(names)}
    if len(run_index) < len(names):
        raise ValueError("a query comes in two blocks of the run")
    queries = qrels.query_ids if complete else tuple(q for q in qrels.query_ids if q in run_index)
    judgments = np.array([position[q] for q in queries], dtype=np.int64)
    in_run = np.array([run_index.get(q, -1) for q in queries], dtype=np.int64)
    lengths = np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    matched = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int32)
    pieces.clear()
    starts = np.where(in_run >= 0, offsets[np.maximum(in_run, 0)], 0)
    retrieved = np.where(in_run >= 0, lengths[np.maximum(in_run, 0)] if len(lengths) else 0, 0)
    depth = max(int(retrieved.max(initial=0)), 1)  # a column even when nothing is ranked
    if (
        len(queries) == len(names)
        and (retrieved == depth).all()
        and (in_run == np.arange(len(in_run))).all()
    ):
        match = matched.reshape(len(queries), depth)  # the run's rows are the matrix, row by row
    else:
        cells = np.arange(depth)
        inside = cells < retrieved[:, None]
        match = np.full(inside.shape, -1, dtype=matched.dtype)
        match[inside] = matched[(starts[:, None] + cells)[inside]]
    return RankedJudgments(qrels, queries, match, retrieved, judgments)


def _query_blocks(run: Run) -> Iterator[Run]:
    """The run as blocks of whole queries, about ``_BLOCK_ROWS`` rows each (views, no copies)."""
    offsets = run.offsets
    hashes = run.hashes if run.hashes is not None else doc_hashes(run.docs)
    first = 0
    while first < len(run.query_ids):
        last = int(np.searchsorted(offsets, offsets[first] + _BLOCK_ROWS, side="right")) - 1
        last = min(max(last, first + 1), len(run.query_ids))
        lo, hi = int(offsets[first]), int(offsets[last])
        yield Run(
            run.name,
            run.query_ids[first:last],
            offsets[first : last + 1] - lo,
            run.docs[lo:hi],
            None if run.scores is None else run.scores[lo:hi],
            run.path,
            hashes[lo:hi],
        )
        first = last


def _match_block(qrels: Qrels, qrels_hashes, position: dict, block: Run, work) -> np.ndarray:
    """The judgment row of each ranked document of one block (-1: not judged), as int32."""
    lengths = np.diff(block.offsets)
    hashes = block.hashes if block.hashes is not None else doc_hashes(block.docs)
    codes = np.repeat(np.arange(len(lengths)), lengths)
    judged = np.array([position.get(q, -1) for q in block.query_ids], dtype=np.int64)
    has = np.flatnonzero(judged >= 0)
    first, stop = qrels.offsets[judged[has]], qrels.offsets[judged[has] + 1]
    sizes = stop - first
    rows = np.repeat(first - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    rows += np.arange(len(rows))  # the judgment rows of the block's queries
    probe_codes = np.repeat(has, sizes)
    try:
        found = match_pairs(
            codes,
            block.docs,
            hashes,
            probe_codes,
            qrels.docs[rows],
            qrels_hashes[rows],
            work=work,
        )
    except RepeatedPair as e:
        query = block.query_ids[int(codes[e.first])]
        raise ValueError(
            f"{block.path}: document {shown(block.docs[e.first])} ranked twice for "
            f"query {shown(query)}"
        ) from None
    out = np.full(len(codes), -1, dtype=np.int32 if len(qrels.docs) < 1 << 31 else np.int64)
    hit = found >= 0
    out[found[hit]] = rows[hit]
    return out
