"""A fast path for big, regular files: pyarrow's multi-threaded C++ CSV reader.

A file is *regular* when every line has the same number of fields, separated by
exactly one delimiter (a space, or a tab), and ends in LF: no blank lines, no CR, no
other whitespace. TREC runs and qrels written by programs almost always are. For
those, :func:`read_regular` lets pyarrow split the lines and parse the numbers (it
rounds decimals correctly, as ``strtod`` and ``float()`` do) and returns the columns
in the form :mod:`evaluation.core.trec.tokens` gives.

Anything else — pyarrow missing, a small input, another layout, a field pyarrow does
not parse as we would — returns ``None``, and the caller uses the exact numpy
tokenizer, whose errors name the line. So the fast path never changes a result or an
error message, only the time it takes; ``test_trec_io`` checks both paths agree.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from evaluation.core.trec.tokens import _PAD, Source, _Columns

MIN_BYTES = 1 << 20  # smaller inputs are not worth importing pyarrow for
STREAM_BYTES = 1 << 22  # bytes per block when reading a file block by block
_CHUNK = 1 << 18  # bytes per block when checking the layout (work arrays stay in cache)
_BLOCK_SIZE = 1 << 24  # bytes per pyarrow block
_ROWS = 1 << 16  # rows per block when gathering ids


@dataclass(frozen=True)
class RegularTable:
    """Columns read by pyarrow: the same questions a :class:`~.tokens.Table` answers.

    Row ``i`` is line ``first_row + i + 1`` (a regular file has no blank lines).
    """

    path: str
    n_rows: int
    factors: dict[int, tuple[list[bytes], np.ndarray]]
    strings_: dict[int, np.ndarray]
    numbers_: dict[int, np.ndarray]
    first: dict[int, bytes]
    first_row: int | None = 0  # rows of the file before this table; None: not known
    runs_: dict[int, tuple[list[bytes], np.ndarray]] = field(default_factory=dict)

    fast = True

    def line(self, row: int) -> int:
        if self.first_row is None:
            raise ValueError("the line numbers of a block of a file are not known")
        return self.first_row + row + 1

    def factor(self, column: int) -> tuple[list[bytes], np.ndarray]:
        return self.factors[column]

    def runs(self, column: int) -> tuple[list[bytes], np.ndarray]:
        """``"runs"`` columns: the value of each run of equal rows and where each ends."""
        return self.runs_[column]

    def strings(self, column: int) -> np.ndarray:
        return self.strings_[column]

    def numbers(self, column: int, what: str = "number") -> np.ndarray:
        return self.numbers_[column]

    def first_token(self, column: int) -> bytes:
        return self.first[column]


def _delimiter(head: bytes) -> bytes | None:
    line = head[: head.find(b"\n")] if b"\n" in head else b""
    if b" " in line and b"\t" not in line:
        return b" "
    if b"\t" in line and b" " not in line:
        return b"\t"
    return None


def _layout(data: np.ndarray, size: int, *, count_lf: bool = True) -> tuple[int, int, bool]:
    """``(whitespace bytes, LF bytes, two whitespace bytes in a row or at the start)``.

    Without ``count_lf`` the LF bytes are not counted (``-1``).
    """
    spaces, newlines = 0, 0 if count_lf else -1
    adjacent = bool(size) and bool(data[0] <= 32)
    ws_buffer = np.empty(_CHUNK + 1, dtype=bool)
    work = np.empty(_CHUNK, dtype=bool)
    for lo in range(0, size, _CHUNK):
        hi = min(size, lo + _CHUNK + 1)  # one byte of overlap to see pairs across blocks
        n = min(_CHUNK, size - lo)
        block = data[lo:hi]
        ws = np.less_equal(block, 32, out=ws_buffer[: len(block)])
        spaces += int(np.count_nonzero(ws[:n]))
        if not adjacent and len(ws) > 1:
            adjacent = bool(np.logical_and(ws[1:], ws[:-1], out=work[: len(ws) - 1]).any())
        if count_lf:
            newlines += int(np.count_nonzero(np.equal(block[:n], 10, out=work[:n])))
    return spaces, newlines, adjacent


def read_regular(
    source: Source, n_fields: int, keep: tuple[int, ...], kinds: tuple[str, ...]
) -> RegularTable | None:
    """Read a regular file with pyarrow, or ``None`` if it is not one (see the module).

    ``keep`` lists the columns to keep, as for :func:`~.tokens.split_columns` (the
    results are numbered in that order); ``kinds`` says for each what it becomes:
    ``"factor"`` (ids, dictionary-encoded: the distinct values in order of first
    appearance and a code per row), ``"runs"`` (ids of rows that come in runs of equal
    values: the value of each run and the row it ends at), ``"strings"`` (zero-padded ``S<n>`` like
    :meth:`~.tokens.Table.strings`), ``"number"`` (float64) or ``"first"`` (the token of
    the first line only).
    """
    if source.size < MIN_BYTES:
        return None
    delimiter = _delimiter(source.head())
    if delimiter is None:
        return None
    return _parse(source.name, source.data[: source.size], delimiter, n_fields, keep, kinds)


class NotRegular(Exception):
    """A block of a :class:`RegularFile` turned out not to be regular."""


class RegularFile:
    """A big file to be parsed as regular block by block, by one thread or several.

    :meth:`spans` cuts it into stretches of whole lines of about ``block_bytes``;
    :meth:`parse` reads one (into a buffer each thread reuses, so memory holds a few
    blocks of the file at a time) and parses it as :func:`read_regular` does, on the
    calling thread only: pyarrow's own threads cost a fifth more CPU time than they
    save when several threads parse blocks side by side. Read with ``pread``, not from
    a map of the file: threads faulting pages of one map in (and letting them go)
    contend for the process's memory map, and a copy from the page cache costs less.
    Close it (or use it in a ``with``) to close the file.
    """

    def __init__(self, path: str, block_bytes: int = STREAM_BYTES) -> None:
        self.path, self.block_bytes = path, block_bytes
        self.fd = os.open(path, os.O_RDONLY)
        try:
            self.size = os.fstat(self.fd).st_size
            self.delimiter = _delimiter(os.pread(self.fd, 1 << 16, 0))
            if self.size and self.delimiter is None:
                raise NotRegular(path)
        except BaseException:
            os.close(self.fd)
            raise
        self._local = threading.local()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> RegularFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def spans(self, start: int = 0) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each block: whole lines, about ``block_bytes`` each, from
        byte ``start`` (after a header line, say).

        A block ends after the last LF of its ``block_bytes``, or after the first LF
        past them when a line is longer.
        """
        while start < self.size:
            end = self.size
            if self.size - start > self.block_bytes:
                end = self._line_end(start, start + self.block_bytes)
            yield start, end
            start = end

    def _line_end(self, start: int, at: int) -> int:
        """Just after the last LF in ``start:at``, else after the first LF from ``at``."""
        window, hi = 1 << 16, at
        while hi > start:
            lo = max(start, hi - window)
            cut = os.pread(self.fd, hi - lo, lo).rfind(b"\n")
            if cut >= 0:
                return lo + cut + 1
            hi = lo
        while at < self.size:
            chunk = os.pread(self.fd, window, at)
            cut = chunk.find(b"\n")
            if cut >= 0 or not chunk:
                return at + cut + 1 if cut >= 0 else self.size
            at += len(chunk)
        return self.size

    def _read(self, start: int, end: int) -> bytearray:
        """Bytes ``start:end`` in this thread's buffer (its first ``end - start`` bytes)."""
        size = end - start
        buffer = getattr(self._local, "buffer", None)
        if buffer is None or len(buffer) < size:
            buffer = self._local.buffer = bytearray(size)
        view, done = memoryview(buffer), 0
        while done < size:
            got = os.preadv(self.fd, [view[done:size]], start + done)
            if got <= 0:
                raise NotRegular(self.path)  # the file shrank: read it whole
            done += got
        return buffer

    def parse(
        self, span: tuple[int, int], n_fields: int, keep: tuple[int, ...], kinds: tuple[str, ...]
    ) -> RegularTable:
        """The table of one span (see :func:`read_regular`); :class:`NotRegular` if it is not.

        Its rows' line numbers are not known (``first_row`` is ``None``): a file with
        an error is read again whole, and that read names the line. The table holds
        no view of the buffer (pyarrow copies what it parses), so the next span can be
        read into it.
        """
        start, end = span
        buffer = self._read(start, end)
        if buffer.find(b"\r", 0, end - start) >= 0:  # memchr: a regular file has none
            raise NotRegular(self.path)
        data = np.frombuffer(buffer, dtype=np.uint8, count=end - start)
        table = _parse(self.path, data, self.delimiter, n_fields, keep, kinds, None, False, True)
        if table is None:
            raise NotRegular(self.path)
        return table


def _parse(
    path, data, delimiter, n_fields, keep, kinds, first_row=0, threads=True, no_cr=False
) -> RegularTable | None:
    """One regular stretch of whole lines, parsed by pyarrow; ``None`` if not regular.

    With ``threads``, pyarrow parses blocks of the stretch on its thread pool;
    otherwise the whole stretch is one block, parsed on the calling thread.
    ``no_cr`` says the caller found no CR byte in ``data``: pyarrow, which ends lines
    at CR as at LF, then ends them at LF only, and its rows say how many LFs there are.
    """
    try:
        import pyarrow as pa
        import pyarrow.csv as csv
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    size = len(data)
    names = [f"f{i}" for i in range(n_fields)]
    types = {"factor": pa.dictionary(pa.int32(), pa.binary()), "strings": pa.binary()}
    types["runs"] = pa.binary()
    types["number"] = pa.float64()
    read = [i for i, kind in enumerate(kinds) if kind != "first"]
    try:
        table = csv.read_csv(
            pa.BufferReader(pa.py_buffer(data)),
            read_options=csv.ReadOptions(
                column_names=names,
                block_size=min(_BLOCK_SIZE, max(size // 2 + 1, 1 << 16)) if threads else size + 1,
                use_threads=threads,
            ),
            parse_options=csv.ParseOptions(
                delimiter=delimiter.decode(),
                quote_char=False,
                double_quote=False,
                escape_char=False,
                newlines_in_values=False,
                ignore_empty_lines=False,
            ),
            convert_options=csv.ConvertOptions(
                include_columns=[names[keep[i]] for i in read],
                column_types={names[keep[i]]: types[kinds[i]] for i in read},
                null_values=[],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                check_utf8=False,
            ),
        )
    except (pa.ArrowException, ValueError):
        return None
    rows = table.num_rows
    # regular: every whitespace byte is one delimiter between two tokens, or an LF
    # (a caller that found no CR in the data knows pyarrow's line ends are its LFs)
    spaces, newlines, adjacent = _layout(data, size, count_lf=not no_cr)
    final_newline = bool(data[size - 1] == 10)
    if no_cr:
        newlines = rows - (0 if final_newline else 1)
    if rows == 0 or adjacent or newlines != rows - (0 if final_newline else 1):
        return None
    if spaces != rows * (n_fields - 1) + newlines:
        return None
    out = RegularTable(path, rows, {}, {}, {}, {}, first_row)
    for i in read:
        chunks = table.column(names[keep[i]]).chunks
        if kinds[i] == "factor":
            out.factors[i] = _factor(chunks, rows)
        elif kinds[i] == "runs":
            out.runs_[i] = _runs(table.column(names[keep[i]]))
        elif kinds[i] == "strings":
            out.strings_[i] = _strings(chunks, rows)
        else:
            out.numbers_[i] = np.concatenate([c.to_numpy(zero_copy_only=False) for c in chunks])
    first_line = bytes(data[: min(size, 1 << 16)]).split(b"\n", 1)[0].split(delimiter)
    for i, kind in enumerate(kinds):
        if kind == "first":
            out.first[i] = first_line[keep[i]]
    return out


def _factor(chunks, rows: int) -> tuple[list[bytes], np.ndarray]:
    """Distinct values in order of first appearance and the code of each row."""
    index: dict[bytes, int] = {}
    codes = np.empty(rows, dtype=np.int64)
    firsts: list[int] = []  # codes in order of appearance, one per run of equal codes
    at = 0
    for chunk in chunks:
        remap = np.array(
            [index.setdefault(v, len(index)) for v in chunk.dictionary.to_pylist()], dtype=np.int64
        )
        out = codes[at : at + len(chunk)]
        np.take(remap, chunk.indices.to_numpy(zero_copy_only=False), out=out)
        if len(out):
            firsts.extend(out[np.concatenate([[0], np.flatnonzero(out[1:] != out[:-1]) + 1])])
        at += len(chunk)
    names = list(index)
    order = list(dict.fromkeys(firsts))  # codes by first appearance
    if order == list(range(len(order))):
        return names, codes
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return [names[c] for c in order], rank[codes]


def _runs(column) -> tuple[list[bytes], np.ndarray]:
    """Runs of equal consecutive values: the value of each run and the row its run ends."""
    # pyarrow.compute's own module takes 30 ms to import (it writes a Python wrapper for
    # every kernel); its core, which it wraps, 4 ms
    from pyarrow._compute import call_function

    values = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    encoded = call_function("run_end_encode", [values])
    return encoded.values.to_pylist(), encoded.run_ends.to_numpy().astype(np.int64)


def _strings(chunks, rows: int) -> np.ndarray:
    """Binary chunks as one ``S<n>`` array (``Table.strings``'s form, maybe narrower)."""
    pieces = []
    for chunk in chunks:
        if len(chunk):
            _, offsets, data = chunk.buffers()
            offsets = np.frombuffer(offsets, dtype=np.int32)
            pieces.append((offsets[chunk.offset : chunk.offset + len(chunk) + 1], data))
    lengths = {int(o[1] - o[0]) for o, _ in pieces}
    if len(lengths) == 1 and all((np.diff(o) == o[1] - o[0]).all() for o, _ in pieces):
        return _fixed_width(pieces, rows, lengths.pop())
    columns = _Columns(1, rows)
    for offsets, data in pieces:
        end = int(offsets[-1])
        buffer = np.zeros(end + _PAD, dtype=np.uint8)
        buffer[:end] = np.frombuffer(data, dtype=np.uint8)[:end]
        starts, lengths = offsets[:-1].astype(np.int64), np.diff(offsets).astype(np.int64)
        for lo in range(0, len(starts), _ROWS):  # blocks whose work arrays stay in cache
            columns.add(buffer, [starts[lo : lo + _ROWS]], [lengths[lo : lo + _ROWS]])
    return columns.strings()[0]


def _fixed_width(pieces, rows: int, width: int) -> np.ndarray:
    """Ids all ``width`` bytes long (common: ``WSJ870324-0001``): an ``S<width>`` view of
    pyarrow's bytes when they are in one piece, else one copy of them."""
    views = [
        np.frombuffer(data, dtype=f"S{width}", count=len(offsets) - 1, offset=int(offsets[0]))
        for offsets, data in pieces
    ]
    return views[0] if len(views) == 1 else np.concatenate(views)
