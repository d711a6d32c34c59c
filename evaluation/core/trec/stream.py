"""Reading a big TREC run block by block, so that it never sits in memory whole.

A 10-million-line run held whole costs over a gigabyte (document ids, scores, hashes,
and the file itself). Read block by block, a few megabytes at a time, each block of
whole queries can be ranked and matched against the judgments
(:func:`evaluation.core.ranking.rank_judgments_blocks`) and then dropped, keeping only
the judgment row of each ranked document.

This works for regular files (see :mod:`evaluation.core.trec.arrow`) whose lines come
query by query, as programs write them. For anything else — and for a file with an
error — :class:`NotStreamable` is raised, possibly after some blocks, and the caller
reads the file whole with :func:`~evaluation.core.trec.read_runs`, which gives the same
run or the error naming the line. So reading block by block never changes a result or
an error message, only the memory and time it takes.
"""

from __future__ import annotations

import contextvars
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evaluation.core.trec import arrow
from evaluation.core.trec.hashing import doc_hashes
from evaluation.core.trec.model import Run, rank_order
from evaluation.core.trec.readers import RUN_FORMATS, detect_runs
from evaluation.core.trec.tokens import read_buffer


class NotStreamable(Exception):
    """The file cannot be read block by block: read it whole."""


def run_file_blocks(
    path, *, format: str = "auto", keep_order: bool | None = None
) -> Iterator[Run] | None:
    """The run of a big TREC run file as blocks of whole queries, or ``None``.

    ``None`` means "read it whole": the input is not a file path, is smaller than
    :data:`~evaluation.core.trec.arrow.MIN_BYTES`, or is in the ``mirex`` format (many
    systems per file). Otherwise see :func:`run_blocks`.
    """
    if format not in RUN_FORMATS:
        return None  # read_runs says what is wrong
    if not isinstance(path, str | Path) or ("\n" in str(path) or "\t" in str(path)):
        return None
    try:
        source = read_buffer(path)
        fmt = detect_runs(source.name, source) if format == "auto" else format
    except (OSError, ValueError):
        return None  # read_runs reports it
    if fmt != "trec" or source.size < arrow.MIN_BYTES:
        return None
    return run_blocks(str(path), keep_order=bool(keep_order))


def run_blocks(path: str, *, keep_order: bool = False, block_bytes: int | None = None):
    """Read a TREC run file (``qid Q0 docno rank score tag``) as :class:`Run` blocks.

    Each block holds whole queries, ranked as :meth:`Run.from_arrays` ranks them
    (score descending, ties by document id descending; file order with
    ``keep_order``), with the :func:`~evaluation.core.trec.hashing.doc_hashes` of its
    documents, and carries the run's name, the tag of the first line. The file is read
    ``block_bytes`` at a time (default :data:`~.arrow.STREAM_BYTES`), each read parsed,
    ranked and hashed by one of two background threads (:func:`ordered_map`) when the
    machine has cores to spare, on the calling thread otherwise (:func:`workers`). Blocks are not checked for documents ranked twice:
    matching them does that (:func:`~evaluation.core.trec.hashing.match_pairs`).

    Raises
    ------
    NotStreamable
        When the file is not regular or a query's lines are not all together.
    """
    name = None
    seen: set[str] = set()
    carry = None  # the last query so far, maybe not whole yet
    try:
        with arrow.RegularFile(path, block_bytes or arrow.STREAM_BYTES) as file:

            def piece(span) -> _Piece:
                return _piece(file.parse(span, 6, (0, 2, 4, 5), _KINDS), keep_order)

            parts = ordered_map(piece, file.spans(), workers=workers(), depth=DEPTH)
            try:
                for part in parts:
                    if name is None:
                        name = _text(part.tag)
                    whole = []  # whole queries in file order: the carried one, the part's
                    lo = 0
                    if carry is not None and carry.queries[0] == part.queries[0]:
                        carry = _joined(carry, part.slice(0, 1), keep_order)  # it goes on
                        lo = 1
                    if lo == len(part.queries):
                        continue
                    if carry is not None:
                        whole.append(carry)
                    if len(part.queries) - 1 > lo:
                        whole.append(part.slice(lo, len(part.queries) - 1))
                    carry = part.slice(len(part.queries) - 1, len(part.queries))
                    if whole:
                        yield _block(name, whole, path, seen)
            finally:
                parts.close()  # the threads are done before the file is closed
    except arrow.NotRegular:
        raise NotStreamable(f"{path}: not a regular file") from None
    if carry is not None:
        yield _block(name, [carry], path, seen)


_KINDS = ("runs", "strings", "number", "first")

#: Threads that parse, rank and hash the blocks of a run when cores are free.
WORKERS = 2


def workers() -> int:
    """:data:`WORKERS` when the machine has a core to spare, else 0 (work inline).

    Threads handing blocks and the GIL to each other cost CPU time (about a seventh
    more, measured on two cores), which pays for itself only when they run side by
    side: when every core is already busy (the load average of the last minute is
    at least the number of cores), the blocks are parsed on the calling thread.
    """
    cores = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system
        busy = 0.0
    return min(WORKERS, cores) if cores > 1 and busy < cores else 0


#: Blocks parsed ahead: enough to keep the threads busy while the judgments are read.
DEPTH = 16


def _text(raw: bytes) -> str:
    try:
        return raw.decode()
    except UnicodeDecodeError:  # read whole: the error names the line
        raise NotStreamable("an id is not UTF-8 text") from None


@dataclass(frozen=True)
class _Piece:
    """Queries of a stretch of the file, each one's rows ranked: ``bounds[i]:bounds[i + 1]``."""

    tag: bytes
    queries: list[str]
    bounds: np.ndarray
    docs: np.ndarray
    scores: np.ndarray
    hashes: np.ndarray

    def slice(self, first: int, stop: int) -> _Piece:
        """Queries ``first:stop`` (views of the same arrays)."""
        lo, hi = int(self.bounds[first]), int(self.bounds[stop])
        return _Piece(
            self.tag,
            self.queries[first:stop],
            self.bounds[first : stop + 1] - lo,
            self.docs[lo:hi],
            self.scores[lo:hi],
            self.hashes[lo:hi],
        )


def _piece(table: arrow.RegularTable, keep_order: bool) -> _Piece:
    """One parsed stretch, its queries ranked and its documents hashed (in a worker)."""
    names, ends = table.runs(0)
    if len(set(names)) < len(names):
        raise NotStreamable(f"{table.path}: a query's lines are not together")
    bounds = np.concatenate([[0], ends])
    docs, scores = table.strings(1), table.numbers(2)
    codes = np.repeat(np.arange(len(names)), np.diff(bounds))
    order = rank_order(codes, docs, scores, keep_order=keep_order)
    if order is not None:
        docs, scores = docs[order], scores[order]
    queries = [_text(q) for q in names]
    return _Piece(table.first_token(3), queries, bounds, docs, scores, doc_hashes(docs))


def _joined(a: _Piece, b: _Piece, keep_order: bool) -> _Piece:
    """One query whose rows came in two stretches, ranked again as one."""
    docs = np.concatenate([a.docs, b.docs])  # as wide as the widest
    scores, hashes = np.concatenate([a.scores, b.scores]), np.concatenate([a.hashes, b.hashes])
    order = rank_order(np.zeros(len(docs), dtype=np.int64), docs, scores, keep_order=keep_order)
    if order is not None:
        docs, scores, hashes = docs[order], scores[order], hashes[order]
    return _Piece(a.tag, a.queries, np.array([0, len(docs)]), docs, scores, hashes)


def _block(name: str, pieces: list[_Piece], path: str, seen: set[str]) -> Run:
    """Whole queries, ranked, as one block of the run."""
    queries = [q for p in pieces for q in p.queries]
    for query in queries:
        if query in seen:
            raise NotStreamable(f"{path}: the lines of query {query!r} are not together")
        seen.add(query)
    if len(pieces) == 1:
        (p,) = pieces
        return Run(
            name, tuple(queries), p.bounds.astype(np.int64), p.docs, p.scores, path, p.hashes
        )
    sizes = np.concatenate([np.diff(p.bounds) for p in pieces])
    return Run(
        name,
        tuple(queries),
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        np.concatenate([p.docs for p in pieces]),  # as wide as the widest
        np.concatenate([p.scores for p in pieces]),
        path,
        np.concatenate([p.hashes for p in pieces]),
    )


def ordered_map(func, items: Iterable, *, workers: int = 2, depth: int = 8) -> Iterator:
    """``func(item)`` for each item, in order, computed by ``workers`` background threads
    (or by the caller, one at a time, when ``workers`` is 0).

    Up to ``depth`` items are being worked on or waiting to be taken, so the threads
    keep working (mostly in pyarrow and numpy, which release the GIL) while the caller
    works on the results. An exception raised by ``func`` is raised here, in order
    (after the results of the items before it); stopping early cancels the items not
    started and waits for those under way. ``func`` runs in a copy of the caller's
    context (so under its ``numpy.errstate``).
    """
    if workers == 0:
        yield from map(func, items)
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="read")
    pending: deque[Future] = deque()
    try:
        for item in items:
            pending.append(pool.submit(contextvars.copy_context().run, func, item))
            if len(pending) >= depth:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True)
