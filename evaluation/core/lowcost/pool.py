"""The pool of a low-cost evaluation: which documents each system ranked for each query.

Everything in :mod:`evaluation.core.lowcost` works on **pairs** — the distinct
(query, document) pairs of the pool, numbered ``0 .. n_pairs - 1`` — so that estimates,
judgments and weights are plain ``(n_pairs,)`` arrays, and one document retrieved by
several systems is one random variable :math:`R_d` (thesis §8.1.2: this is what makes
shared documents cancel in differences).

A :class:`Pool` holds, for each system ``s``, query ``q`` and rank ``i <= depth``, the pair
at that rank (``ranked[s, q, i - 1]``, ``-1`` past the end of a ranking or for a system
without a ranking for ``q``). Judged documents that no system ranked within the depth
are pairs too (``retrieved`` is False for them): they take part in the ideal ranking of
nDCG and RBP, as in the ordinary system-oriented measures, but in no feature.

:class:`Metadata` gives each document an artist and a genre (codes, ``-1`` unknown).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from evaluation.core.trec import FormatError, Qrels, Run
from evaluation.core.trec.model import sort_queries


def _codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    names, codes = np.unique(values, return_inverse=True)
    return names, codes.reshape(-1)


@dataclass(frozen=True, eq=False)
class Pool:
    """Distinct (query, document) pairs and the rank of each in each system's list.

    Attributes
    ----------
    systems, queries:
        Names, in a fixed order (systems sorted, queries in natural order).
    pair_query:
        ``(n_pairs,)`` index of each pair's query; pairs are grouped by query.
    pair_doc:
        ``(n_pairs,)`` document ids (bytes).
    ranked:
        ``(n_systems, n_queries, depth)`` pair at each rank, ``-1`` where there is none.
    retrieved:
        ``(n_pairs,)`` True for pairs some system ranked within ``depth``.
    """

    systems: tuple[str, ...]
    queries: tuple[str, ...]
    pair_query: np.ndarray
    pair_doc: np.ndarray
    ranked: np.ndarray
    retrieved: np.ndarray
    _index: dict = field(default_factory=dict, repr=False)

    @property
    def depth(self) -> int:
        return int(self.ranked.shape[2])

    @property
    def n_pairs(self) -> int:
        return len(self.pair_query)

    @classmethod
    def from_runs(cls, runs: Mapping[str, Run], *, depth: int, qrels: Qrels | None = None) -> Pool:
        """The pool of ``runs`` (``{system: Run}``) cut at ``depth``.

        With ``qrels``, judged documents of the pool's queries that no system ranked
        within ``depth`` are added as pairs (``retrieved`` False).
        """
        if depth < 1:
            raise ValueError(f"the pool depth must be at least 1, got {depth}")
        if not runs:
            raise ValueError("no runs: a pool needs at least one system")
        systems = tuple(sorted(runs))
        queries = tuple(sort_queries({q for run in runs.values() for q in run.query_ids}))
        q_index = {q: i for i, q in enumerate(queries)}
        sys_rows, q_rows, rank_rows, doc_rows = [], [], [], []
        for s, name in enumerate(systems):
            run = runs[name]
            counts = np.diff(run.offsets)
            starts = run.offsets[:-1]
            rank = np.arange(len(run.docs)) - np.repeat(starts, counts)
            keep = rank < depth
            qcode = np.repeat(np.array([q_index[q] for q in run.query_ids], dtype=np.int64), counts)
            sys_rows.append(np.full(int(keep.sum()), s, dtype=np.int64))
            q_rows.append(qcode[keep])
            rank_rows.append(rank[keep])
            doc_rows.append(run.docs[keep])
        entry_system = np.concatenate(sys_rows)
        entry_query = np.concatenate(q_rows)
        entry_rank = np.concatenate(rank_rows)
        entry_doc = np.concatenate([d.astype(f"S{_width(doc_rows)}") for d in doc_rows])
        extra_q, extra_d = _judged_outside(qrels, q_index, entry_query, entry_doc)
        all_q = np.concatenate([entry_query, extra_q])
        all_d = np.concatenate([entry_doc, extra_d.astype(entry_doc.dtype)])
        doc_names, doc_codes = _codes(all_d)
        key = all_q * max(len(doc_names), 1) + doc_codes
        keys, pair_of = np.unique(key, return_inverse=True)
        pair_of = pair_of.reshape(-1)
        pair_query = keys // max(len(doc_names), 1)
        pair_doc = doc_names[keys % max(len(doc_names), 1)]
        ranked = np.full((len(systems), len(queries), depth), -1, dtype=np.int64)
        n_entries = len(entry_query)
        ranked[entry_system, entry_query, entry_rank] = pair_of[:n_entries]
        retrieved = np.zeros(len(keys), dtype=bool)
        retrieved[pair_of[:n_entries]] = True
        return cls(systems, queries, pair_query, pair_doc, ranked, retrieved)

    @classmethod
    def from_rankings(
        cls,
        rankings: Mapping[str, Mapping[str, Sequence[str]]],
        *,
        depth: int,
        qrels: Qrels | None = None,
    ) -> Pool:
        """From ``{system: {query: [doc, ...]}}`` (best first), e.g. rows of a database."""
        runs = {name: Run.from_ranked_lists(lists, name=name) for name, lists in rankings.items()}
        return cls.from_runs(runs, depth=depth, qrels=qrels)

    # -- incidence: one row per (system, query, rank) that holds a pair -------------------

    @cached_property
    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(system, rank (0-based), pair)`` of every ranked document within the depth."""
        s, q, r = np.nonzero(self.ranked >= 0)
        return s, r, self.ranked[s, q, r]

    @cached_property
    def rank_counts(self) -> np.ndarray:
        """``(n_pairs, depth)``: how many systems ranked each pair at each rank."""
        _, rank, pair = self.entries
        counts = np.zeros((self.n_pairs, self.depth), dtype=np.int64)
        np.add.at(counts, (pair, rank), 1)
        return counts

    @cached_property
    def query_slices(self) -> np.ndarray:
        """``(n_queries + 1,)`` offsets: pairs of query ``q`` are ``[o[q], o[q + 1])``."""
        return np.searchsorted(self.pair_query, np.arange(len(self.queries) + 1))

    @cached_property
    def entries_per_system_query(self) -> np.ndarray:
        """``(n_systems, n_queries)`` documents ranked within the depth."""
        return (self.ranked >= 0).sum(axis=2)

    def index(self, query: str, doc: str | bytes) -> int:
        """The pair number of (query, doc); ``KeyError`` if it is not in the pool."""
        if not self._index:
            self._index.update(
                {
                    (self.queries[q], d): p
                    for p, (q, d) in enumerate(
                        zip(self.pair_query.tolist(), self.pair_doc.tolist(), strict=True)
                    )
                }
            )
        key = (query, doc if isinstance(doc, bytes) else str(doc).encode())
        return self._index[key]

    def pair_names(self, pairs: Iterable[int]) -> list[tuple[str, str]]:
        """(query, doc) of pair numbers."""
        return [(self.queries[int(self.pair_query[p])], self.pair_doc[p].decode()) for p in pairs]

    def judgments(self, qrels: Qrels | None, column: str | None = None) -> np.ndarray:
        """``(n_pairs,)`` judged relevance of each pair, NaN where unjudged.

        Negative values (trec_eval's "pooled but unjudged") count as unjudged; judgments
        of documents outside the pool are ignored.
        """
        values = np.full(self.n_pairs, np.nan)
        if qrels is None or len(qrels.docs) == 0:
            return values
        col = qrels.column(column or qrels.default)
        q_index = {q: i for i, q in enumerate(self.queries)}
        counts = np.diff(qrels.offsets)
        qcode = np.repeat(np.array([q_index.get(q, -1) for q in qrels.query_ids]), counts)
        keep = (qcode >= 0) & (col >= 0)
        pairs = self.lookup(qcode[keep], qrels.docs[keep])
        found = pairs >= 0
        values[pairs[found]] = col[keep][found]
        return values

    def lookup(self, query_codes: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """Pair numbers of (query index, doc bytes) rows, ``-1`` for pairs not in the pool."""
        docs = np.asarray(docs)
        if docs.dtype.kind != "S":
            docs = np.array([str(d).encode() for d in docs.tolist()], dtype=bytes)
        width = max(self.pair_doc.dtype.itemsize, docs.dtype.itemsize, 1)
        both = np.concatenate([self.pair_doc.astype(f"S{width}"), docs.astype(f"S{width}")])
        _, codes = _codes(both)
        n = int(codes.max()) + 1 if len(codes) else 1
        mine = self.pair_query.astype(np.int64) * n + codes[: self.n_pairs]
        theirs = np.asarray(query_codes, dtype=np.int64) * n + codes[self.n_pairs :]
        order = np.argsort(mine, kind="stable")
        at = np.clip(np.searchsorted(mine[order], theirs), 0, max(self.n_pairs - 1, 0))
        out = np.full(len(theirs), -1, dtype=np.int64)
        if self.n_pairs:
            hit = (mine[order][at] == theirs) & (np.asarray(query_codes) >= 0)
            out[hit] = order[at[hit]]
        return out


def _width(arrays: list[np.ndarray]) -> int:
    return max([a.dtype.itemsize for a in arrays] + [1])


def _judged_outside(qrels, q_index, entry_query, entry_doc):
    empty = np.zeros(0, dtype=np.int64), np.zeros(0, dtype="S1")
    if qrels is None or len(qrels.docs) == 0:
        return empty
    counts = np.diff(qrels.offsets)
    qcode = np.repeat(np.array([q_index.get(q, -1) for q in qrels.query_ids]), counts)
    col = qrels.column(qrels.default)
    keep = (qcode >= 0) & (col >= 0)
    if not keep.any():
        return empty
    width = max(entry_doc.dtype.itemsize, qrels.docs.dtype.itemsize)
    ranked = set(zip(entry_query.tolist(), entry_doc.astype(f"S{width}").tolist(), strict=True))
    pairs = zip(qcode[keep].tolist(), qrels.docs[keep].astype(f"S{width}").tolist(), strict=True)
    extra = [(q, d) for q, d in pairs if (q, d) not in ranked]
    if not extra:
        return empty
    return np.array([q for q, _ in extra], dtype=np.int64), np.array([d for _, d in extra])


UNKNOWN = {"", "NA", "N/A", "-", "?", "unknown", "UNKNOWN"}


@dataclass(frozen=True, eq=False)
class Metadata:
    """Artist and genre of documents (and of queries, which are clips too).

    ``artist`` and ``genre`` map document ids (str) to labels; a document missing from a
    mapping, or whose label is empty, ``NA``, ``-``, ``?`` or ``unknown``, has that field
    unknown, and features that need it are missing (thesis §7.2.3; the estimator then
    falls back to the next model, §7.4).
    """

    artist: Mapping[str, str]
    genre: Mapping[str, str]
    path: str = "<memory>"

    @classmethod
    def from_records(cls, records: Iterable[Sequence[str]], *, path: str = "<memory>"):
        """From ``(doc, artist, genre)`` rows."""
        artist, genre = {}, {}
        for doc, a, g in records:
            if a.strip() not in UNKNOWN:
                artist[doc] = a.strip()
            if g.strip() not in UNKNOWN:
                genre[doc] = g.strip()
        return cls(artist, genre, path)

    @classmethod
    def empty(cls) -> Metadata:
        return cls({}, {})

    def codes(self, docs: Iterable[bytes | str], field_name: str) -> np.ndarray:
        """Integer code of each document's artist or genre (``-1`` unknown)."""
        mapping = self.artist if field_name == "artist" else self.genre
        labels = {label: i for i, label in enumerate(sorted(set(mapping.values())))}
        return np.array(
            [
                labels.get(mapping.get(d.decode() if isinstance(d, bytes) else d, ""), -1)
                for d in docs
            ],
            dtype=np.int64,
        )


def read_metadata(path) -> Metadata:
    """Read ``doc <TAB> artist <TAB> genre`` lines (MIREX metadata; labels may hold spaces).

    A line with another number of tab-separated fields, or a document listed twice, is a
    :class:`~evaluation.core.trec.FormatError` naming the file and line. Blank lines are
    skipped; CRLF line ends are accepted.
    """
    name = str(path)
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError as error:
        raise FormatError(name, None, f"not UTF-8 text ({error.reason})") from None
    rows, seen = [], {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise FormatError(
                name,
                number,
                f"expected 3 tab-separated fields (doc artist genre), got {len(fields)}",
            )
        doc = fields[0].strip()
        if not doc:
            raise FormatError(name, number, "empty document id")
        if doc in seen:
            raise FormatError(
                name, number, f"document {doc!r} already described on line {seen[doc]}"
            )
        seen[doc] = number
        rows.append((doc, fields[1], fields[2]))
    return Metadata.from_records(rows, path=name)
