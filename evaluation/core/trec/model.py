"""In-memory judgments (:class:`Qrels`) and rankings (:class:`Run`).

Both are column arrays grouped by query (a CSR layout: the rows of query ``i`` are
``offsets[i]:offsets[i + 1]``), with document ids as fixed-width bytes. Build them from
files with :func:`evaluation.core.trec.read_qrels` / :func:`~evaluation.core.trec.read_runs`,
or from Python data with :meth:`Qrels.from_records`, :meth:`Qrels.from_dict`,
:meth:`Run.from_ranked_lists` and :meth:`Run.from_records`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from evaluation.core.trec.hashing import doc_hashes, first_duplicate
from evaluation.core.trec.tokens import FormatError, decode_id, shown
from evaluation.core.trec.tokens import factorise as _factorise


def sort_queries(queries: Iterable[str]) -> list[str]:
    """Queries in a stable order: by value if every id is a number, else alphabetically."""
    queries = list(queries)
    if all(q.isdecimal() for q in queries):  # re's \d+, as fast as a method call
        return sorted(queries, key=lambda q: (int(q), q))
    return sorted(queries)


def _as_bytes(values: Iterable) -> np.ndarray:
    encoded = [v if isinstance(v, bytes) else str(v).encode() for v in values]
    width = max((len(v) for v in encoded), default=1) or 1
    return np.array(encoded, dtype=f"S{width}")


def _names(names, codes, path, lines) -> list[str]:
    """Query ids as text; one that is not UTF-8 is a FormatError at its first line."""
    try:  # all UTF-8, as nearly always: decoded at once
        return [name.decode() if isinstance(name, bytes) else str(name) for name in names]
    except UnicodeDecodeError:
        pass
    out = []
    for i, name in enumerate(names):
        if isinstance(name, bytes):

            def line(i=i):
                return lines(int(np.argmax(codes == i))) if lines is not None else None

            name = decode_id(name, "query id", path, line)
        out.append(str(name))
    return out


def _query_bytes(queries) -> np.ndarray:
    return _as_bytes(queries) if not isinstance(queries, np.ndarray) else queries


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: for each query, judged documents and their relevance values.

    Attributes
    ----------
    query_ids:
        Judged queries in natural sorted order.
    offsets:
        ``(n_queries + 1,)``; judgments of query ``i`` are rows ``offsets[i]:offsets[i+1]``.
    docs:
        Document ids (bytes), grouped by query.
    columns:
        Relevance values per row, by scale of origin: ``raw`` (TREC qrels), ``fine``,
        ``broad`` (MIREX judgments). Negative values mean "in the pool but unjudged"
        (trec_eval): such rows count neither as relevant nor as judged.
    default:
        The column scales without a column of their own read from.
    """

    query_ids: tuple[str, ...]
    offsets: np.ndarray
    docs: np.ndarray
    columns: Mapping[str, np.ndarray]
    default: str = "raw"
    path: str = "<memory>"
    hashes: np.ndarray | None = field(default=None, repr=False)  # doc_hashes(docs)

    @classmethod
    def from_arrays(
        cls,
        queries,
        docs,
        columns: Mapping[str, np.ndarray],
        *,
        default="raw",
        path="<memory>",
        lines=None,
        query_codes=None,
    ) -> Qrels:
        """Group rows given as parallel arrays; duplicate (query, doc) pairs are an error.

        ``query_codes``, ``(distinct queries in order of first appearance, code of each
        row)``, may replace ``queries`` when the reader already has them.
        """
        docs = (
            _as_bytes(docs) if not isinstance(docs, np.ndarray) or docs.dtype.kind != "S" else docs
        )
        names, codes = query_codes if query_codes is not None else _factorise(_query_bytes(queries))
        names = _names(names, codes, path, lines)
        position = {q: i for i, q in enumerate(names)}
        order_names = [position[q] for q in sort_queries(names)]
        rank = np.empty(len(names), dtype=np.int64)
        rank[order_names] = np.arange(len(names))
        codes = rank[codes] if len(names) else codes
        grouped = len(codes) < 2 or bool((codes[1:] >= codes[:-1]).all())
        order = np.arange(len(codes)) if grouped else np.argsort(codes, kind="stable")
        codes, docs = codes[order], docs[order]
        hashes = doc_hashes(docs)
        found = first_duplicate(codes, docs, hashes)
        if found is not None:
            row = int(order[found[1]])
            line = lines(row) if lines is not None else None
            raise FormatError(
                path,
                line,
                f"document {shown(docs[found[0]])} judged twice for query "
                f"{shown(names[order_names[codes[found[0]]]])}",
            )
        offsets = np.searchsorted(codes, np.arange(len(names) + 1))
        cols = {k: np.asarray(v, dtype=np.float64)[order] for k, v in columns.items()}
        return cls(tuple(names[i] for i in order_names), offsets, docs, cols, default, path, hashes)

    @classmethod
    def from_records(
        cls,
        records: Iterable[Sequence],
        *,
        columns: Sequence[str] = ("raw",),
        default: str | None = None,
    ) -> Qrels:
        """From ``(query, doc, value[, value2])`` tuples; ``columns`` names the values.

        >>> Qrels.from_records([("q1", "d1", 2), ("q1", "d2", 0)]).num_rel()
        array([1])
        """
        records = list(records)
        data = {
            name: np.array([float(r[2 + i]) for r in records]) for i, name in enumerate(columns)
        }
        return cls.from_arrays(
            [str(r[0]) for r in records],
            [str(r[1]) for r in records],
            data,
            default=default or columns[0],
        )

    @classmethod
    def from_dict(
        cls, judgments: Mapping[str, Mapping[str, float]], *, column: str = "raw"
    ) -> Qrels:
        """From ``{query: {doc: relevance}}`` (the pytrec_eval / ir_datasets shape)."""
        return cls.from_records(
            ((q, d, r) for q, docs in judgments.items() for d, r in docs.items()), columns=(column,)
        )

    def column(self, source: str) -> np.ndarray:
        """Relevance values for a scale reading ``source`` (``raw``, ``fine``, ``broad``)."""
        if source in self.columns:
            return self.columns[source]
        if source == "raw":
            return self.columns[self.default]
        if "raw" in self.columns:  # TREC qrels whose values the user says are on this scale
            return self.columns["raw"]
        raise ValueError(
            f"{self.path}: the judgments have no {source!r} values "
            f"(they have: {', '.join(self.columns)})"
        )

    def num_rel(self, *, column: str | None = None, level: float = 1.0) -> np.ndarray:
        """Relevant documents per query: value >= ``level`` (trec_eval's default is 1)."""
        values = self.column(column or self.default)
        return (
            np.add.reduceat((values >= level).astype(np.int64), self.offsets[:-1])
            if len(values)
            else np.zeros(len(self.query_ids), dtype=np.int64)
        )

    def to_dict(self) -> dict[str, dict[str, float]]:
        values = self.columns[self.default]
        return {
            q: {d.decode(): float(v) for d, v in zip(self.docs[a:b], values[a:b], strict=True)}
            for q, a, b in zip(self.query_ids, self.offsets[:-1], self.offsets[1:], strict=True)
        }


@dataclass(frozen=True, eq=False)
class Run:
    """One system's rankings: for each query, documents in rank order.

    Attributes
    ----------
    name:
        Run (system) name.
    query_ids:
        Queries in order of first appearance.
    offsets:
        ``(n_queries + 1,)``; the ranking of query ``i`` is ``docs[offsets[i]:offsets[i+1]]``.
    docs:
        Document ids (bytes), ranked within each query.
    scores:
        Retrieval scores aligned with ``docs`` (``None`` for rank-order formats).
    """

    name: str
    query_ids: tuple[str, ...]
    offsets: np.ndarray
    docs: np.ndarray
    scores: np.ndarray | None = None
    path: str = "<memory>"
    hashes: np.ndarray | None = field(default=None, repr=False)  # doc_hashes(docs)

    @classmethod
    def from_arrays(
        cls,
        name,
        queries,
        docs,
        scores=None,
        *,
        keep_order=False,
        path="<memory>",
        lines=None,
        query_codes=None,
    ) -> Run:
        """Group rows by query and rank them.

        With ``keep_order=False`` (TREC convention) documents are ranked by score
        descending, ties broken by document id descending, as trec_eval does; with
        ``keep_order=True`` the given row order is the ranking. A document ranked twice
        for one query is a :class:`FormatError` naming the line. ``query_codes`` as for
        :meth:`Qrels.from_arrays`.
        """
        docs = (
            _as_bytes(docs) if not isinstance(docs, np.ndarray) or docs.dtype.kind != "S" else docs
        )
        names, codes = query_codes if query_codes is not None else _factorise(_query_bytes(queries))
        names = _names(names, codes, path, lines)
        if scores is not None:
            scores = np.asarray(scores, dtype=np.float64)
        order = rank_order(codes, docs, scores, keep_order=keep_order)
        if order is not None:
            codes, docs = codes[order], docs[order]
            scores = scores[order] if scores is not None else None
        hashes = doc_hashes(docs)
        _check_duplicates(codes, docs, hashes, names, order, path, lines)
        offsets = np.searchsorted(codes, np.arange(len(names) + 1))
        return cls(name, tuple(names), offsets, docs, scores, path, hashes)

    @classmethod
    def from_ranked_lists(cls, rankings: Mapping[str, Sequence[str]], *, name: str = "run") -> Run:
        """From ``{query: [doc, ...]}`` with the best document first.

        >>> Run.from_ranked_lists({"q1": ["d3", "d1"]}).ranking("q1")
        ['d3', 'd1']
        """
        queries = [q for q, docs in rankings.items() for _ in docs]
        docs = [d for ranked in rankings.values() for d in ranked]
        return cls.from_arrays(name, queries, docs, keep_order=True)

    @classmethod
    def from_records(
        cls, records: Iterable[Sequence], *, name: str = "run", keep_order: bool = False
    ) -> Run:
        """From ``(query, doc, score)`` tuples, ranked like trec_eval (or kept in order)."""
        records = list(records)
        return cls.from_arrays(
            name,
            [str(r[0]) for r in records],
            [str(r[1]) for r in records],
            np.array([float(r[2]) for r in records]),
            keep_order=keep_order,
        )

    @classmethod
    def from_dict(cls, run: Mapping[str, Mapping[str, float]], *, name: str = "run") -> Run:
        """From ``{query: {doc: score}}`` (the pytrec_eval shape)."""
        return cls.from_records(
            ((q, d, s) for q, docs in run.items() for d, s in docs.items()), name=name
        )

    def ranking(self, query: str) -> list[str]:
        i = self.query_ids.index(query)
        return [d.decode() for d in self.docs[self.offsets[i] : self.offsets[i + 1]]]


def rank_order(codes, docs, scores, *, keep_order: bool) -> np.ndarray | None:
    """The order that groups rows by query code and ranks them, ``None`` if they already are.

    Ranked by score descending, ties by document id descending (trec_eval's order);
    with ``keep_order`` or without scores, in the given order.
    """
    if keep_order or scores is None:
        grouped = len(codes) == 0 or bool(np.all(codes[1:] >= codes[:-1]))
        return None if grouped else np.argsort(codes, kind="stable")
    return _rank_order(codes, scores, docs)


def _rank_order(codes, scores, docs) -> np.ndarray | None:
    """trec_eval's order (query, score descending, document id descending), ``None`` if the
    rows are in it already.

    Equal rows (a document ranked twice) come in reverse file order, as from
    ``np.lexsort((docs, scores, -codes))[::-1]``, which this gives in every case. Files
    are nearly always grouped by query with scores descending, and then only the runs of
    tied scores are put in order (:func:`_order_within_ties`); any other file is sorted
    whole, on integer words of the document ids rather than on their bytes.
    """
    if len(codes) < 2:
        return None
    same = codes[1:] == codes[:-1]
    if np.all(same | (codes[1:] > codes[:-1])):
        tie = same & (scores[1:] == scores[:-1])
        if not np.any(same & ~tie & ~(scores[1:] < scores[:-1])):  # scores descending
            ties = np.flatnonzero(tie)
            first = id_words(docs, words=1)[0]
            above, below = first[ties], first[ties + 1]
            equal = above == below  # first 8 bytes alike: the ids decide
            if np.all(below[~equal] < above[~equal]) and np.all(
                docs[ties[equal] + 1] < docs[ties[equal]]
            ):
                return None  # ranked already
            return _order_within_ties(tie, docs, first)
    words = id_words(docs)
    return np.lexsort((*words[::-1], scores, -codes))[::-1]


def id_words(docs: np.ndarray, *, words: int | None = None) -> list[np.ndarray]:
    """Fixed-width byte ids as big-endian 64-bit words, first word first (the first
    ``words`` only, if given): their order is the ids' byte order (ids hold no NUL, the
    padding of numpy's fixed-width bytes).

    >>> id_words(np.array([b"d10", b"d9", b"d1"]))[0].argsort().tolist()  # d1 < d10 < d9
    [2, 0, 1]
    """
    width = max(1, docs.dtype.itemsize)
    k = (width + 7) // 8 if words is None else min(words, (width + 7) // 8)
    kept = min(width, 8 * k)
    padded = np.zeros((len(docs), 8 * k), dtype=np.uint8)
    padded[:, :kept] = docs.view(np.uint8).reshape(len(docs), width)[:, :kept]
    whole = padded.view(">u8").astype(np.uint64)  # native order: sorted ~3× faster
    return [whole[:, i] for i in range(k)]


def _order_within_ties(tie: np.ndarray, docs: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The order of rows already grouped by query with scores descending (``tie[i]``: row
    ``i + 1`` ties with row ``i``): each run of tied rows by document id descending.

    Runs of one length are sorted together, one row of a matrix each, on the first 8 bytes
    of the ids (``first``, :func:`id_words`); where two ids of a run share them, that
    length's runs are sorted on every word of the ids (equal ids in reverse file order),
    so the work grows with the tied rows only.
    """
    n = len(docs)
    starts = np.flatnonzero(np.concatenate([[True], ~tie]))
    lengths = np.diff(np.append(starts, n))
    order = np.arange(n)
    words = None
    for length in np.unique(lengths[lengths > 1]).tolist():
        rows = starts[lengths == length][:, None] + np.arange(length)
        keys = first[rows]
        ascending = np.argsort(keys, axis=1)
        ranked = np.take_along_axis(keys, ascending, axis=1)
        if np.any(ranked[:, 1:] == ranked[:, :-1]):
            words = id_words(docs) if words is None else words
            ascending = np.lexsort([w[rows] for w in words[::-1]], axis=1)
        order[rows] = np.take_along_axis(rows, ascending[:, ::-1], axis=1)
    return order


def _check_duplicates(codes, docs, hashes, names, order, path, lines) -> None:
    found = first_duplicate(codes, docs, hashes)
    if found is None:
        return
    first, second = found
    rows = np.array([first, second]) if order is None else order[[first, second]]
    line = lines(int(rows.max())) if lines is not None else None
    raise FormatError(
        path,
        line,
        f"document {shown(docs[first])} ranked twice for query {shown(names[codes[first]])}",
    )
