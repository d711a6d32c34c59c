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

import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from evaluation.core.trec import arrow
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
    ``keep_order``), and carries the run's name, the tag of the first line. The file
    is read ``block_bytes`` at a time (default :data:`~.arrow.STREAM_BYTES`). Blocks
    are not checked for documents ranked twice: matching them does that
    (:func:`~evaluation.core.trec.hashing.match_pairs`).

    Raises
    ------
    NotStreamable
        When the file is not regular or a query's lines are not all together.
    """
    name = None
    seen: set[str] = set()
    carry = None  # the last query of the previous table: (name, docs, scores)
    kinds = ("factor", "strings", "number", "first")
    try:
        tables = arrow.iter_regular(
            path, 6, (0, 2, 4, 5), kinds, block_bytes=block_bytes or arrow.STREAM_BYTES
        )
        for table in prefetched(tables, depth=8):
            if name is None:
                name = _text(table.first_token(3))
            names, codes = table.factor(0)
            starts = np.flatnonzero(codes[1:] != codes[:-1]) + 1
            if len(starts) + 1 != len(names):
                raise NotStreamable(f"{path}: a query's lines are not together")
            queries = [_text(q) for q in names]
            bounds = np.concatenate([[0], starts, [len(codes)]])
            docs, scores = table.strings(1), table.numbers(2)
            if carry is not None and carry[0] == queries[0]:  # the query goes on
                queries[0] = carry[0]
                bounds[1:] += len(carry[1])
            elif carry is not None:
                queries.insert(0, carry[0])
                bounds = np.concatenate([[0], bounds + len(carry[1])])
            if carry is not None:
                docs = np.concatenate([carry[1], docs])
                scores = np.concatenate([carry[2], scores])
            last = int(bounds[-2])
            carry = (queries[-1], docs[last:], scores[last:])
            if len(queries) > 1:
                yield _block(name, queries[:-1], bounds[:-1], docs, scores, keep_order, path, seen)
    except arrow.NotRegular:
        raise NotStreamable(f"{path}: not a regular file") from None
    if carry is not None:
        offsets = np.array([0, len(carry[1])])
        yield _block(name, [carry[0]], offsets, carry[1], carry[2], keep_order, path, seen)


def _text(raw: bytes) -> str:
    try:
        return raw.decode()
    except UnicodeDecodeError:  # read whole: the error names the line
        raise NotStreamable("an id is not UTF-8 text") from None


def _block(name, queries, offsets, docs, scores, keep_order, path, seen) -> Run:
    """Rows ``offsets[0]:offsets[-1]`` as a ranked block of ``queries`` (one each)."""
    for query in queries:
        if query in seen:
            raise NotStreamable(f"{path}: the lines of query {query!r} are not together")
        seen.add(query)
    end = int(offsets[-1])
    docs, scores = docs[:end], scores[:end]
    codes = np.repeat(np.arange(len(queries)), np.diff(offsets))
    order = rank_order(codes, docs, scores, keep_order=keep_order)
    if order is not None:
        docs, scores = docs[order], scores[order]
    return Run(name, tuple(queries), np.asarray(offsets, dtype=np.int64), docs, scores, path)


def prefetched(items: Iterator, depth: int = 2) -> Iterator:
    """The items of ``items``, made by a background thread up to ``depth`` ahead.

    Reading and parsing the next block (mostly in pyarrow and numpy, which release
    the GIL) then overlaps with the work on the current one. An exception in the
    thread is raised here; stopping early stops the thread.
    """
    ready: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((True, item)):
                    return
            put((False, None))
        except BaseException as error:  # handed to the consumer
            put((False, error))

    thread = threading.Thread(target=produce, name="prefetch", daemon=True)
    thread.start()
    try:
        while True:
            more, item = ready.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        thread.join()
