"""Fast splitting of whitespace-separated text files into columns of tokens.

The files we read hold millions of short lines (a 10,000-query run of depth 1,000 is
10 million). Splitting them into Python strings costs about a microsecond per token,
so this module finds token boundaries with numpy on the raw bytes instead and
returns, per column, the tokens as a fixed-width bytes array (``dtype='S<n>'``) — or
as float64 numbers — without creating a Python object per token.
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass

import numpy as np

_PAD = 64  # zero bytes after the data, so fixed-width gathers never run off the end


class FormatError(ValueError):
    """A malformed input line: names the file, the 1-based line number and the problem."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def shown(token: bytes | str, limit: int = 60) -> str:
    """A token as it goes into a message: undecodable bytes escaped, long ones cut."""
    text = token.decode(errors="backslashreplace") if isinstance(token, bytes) else token
    return repr(text if len(text) <= limit else text[:limit] + "…")


def decode_id(raw: bytes, what: str, path: str, line=None) -> str:
    """An id read from a file as text: UTF-8, or a :class:`FormatError` naming the line.

    ``line`` is the line number, or a function giving it (only called on an error).
    """
    try:
        return raw.decode()
    except UnicodeDecodeError:
        where = line() if callable(line) else line
        raise FormatError(path, where, f"{what} {shown(raw)} is not UTF-8 text") from None


@dataclass(frozen=True)
class Source:
    """The bytes of an input: a zero-padded copy, or a read-only map of a file.

    ``data[:size]`` is the content; a padded copy has ``_PAD`` zero bytes after it.
    """

    name: str
    data: np.ndarray
    size: int
    mapping: object = None  # keeps a file map open while ``data`` is in use

    @property
    def padded(self) -> bool:
        return len(self.data) >= self.size + _PAD

    def head(self) -> bytes:
        return bytes(self.data[: min(self.size, 1 << 16)])


def read_buffer(source) -> Source:
    """The bytes of a path (mapped, not copied), of bytes/str content, or of lines."""
    if isinstance(source, bytes | bytearray):
        return _padded("<bytes>", bytes(source))
    if isinstance(source, str) and ("\n" in source or "\t" in source):
        return _padded("<string>", source.encode())
    if hasattr(source, "__fspath__") or isinstance(source, str):
        with open(source, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size < _PAD:
                return _padded(str(source), handle.read())
            mapping = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        return Source(str(source), np.frombuffer(mapping, dtype=np.uint8), size, mapping)
    lines = [line if isinstance(line, str) else line.decode() for line in source]
    text = "\n".join(line.rstrip("\r\n") for line in lines) + "\n"
    return _padded("<lines>", text.encode())


def _padded(name: str, data: bytes) -> Source:
    buffer = np.zeros(len(data) + _PAD, dtype=np.uint8)
    buffer[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return Source(name, buffer, len(data))


_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_ROWS = 1 << 20  # rows per batch when parsing numbers


def gather_words(
    buffer: np.ndarray, starts: np.ndarray, lengths: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """Tokens at ``starts`` as ``(n, w)`` little-endian 64-bit words, zero-padded.

    Eight bytes are gathered at a time (a little-endian word keeps the byte order), the
    bytes past each token's end masked off; ``words.view("S<8w>")`` gives the strings.
    """
    width = int(lengths.max(initial=1))
    n_words = max(1, -(-width // 8))
    if width > _PAD:
        tokens = [bytes(buffer[s : s + n]) for s, n in zip(starts, lengths, strict=True)]
        return np.array(tokens, dtype=f"S{8 * n_words}").view("<u8").reshape(-1, n_words)
    unaligned = np.ndarray(shape=(len(buffer) - 8,), dtype="<u8", buffer=buffer, strides=(1,))
    if out is None or out.shape[1] < n_words:
        out = np.empty((len(starts), n_words), dtype="<u8")
    out[:, n_words:] = 0
    starts = starts.astype(np.int64, copy=False)
    for j in range(n_words):
        keep = np.clip(lengths - 8 * j, 0, 8)
        np.bitwise_and(unaligned[starts + 8 * j], _LOW_BYTES[keep], out=out[:, j])
    return out


class _Columns:
    """The kept columns, filled block by block into arrays allocated once."""

    def __init__(self, n_columns: int, capacity: int) -> None:
        self.arrays: list[np.ndarray | None] = [None] * n_columns
        self.capacity, self.rows = capacity, 0

    def add(self, buffer, starts: list[np.ndarray], lengths: list[np.ndarray]) -> None:
        n = len(starts[0]) if starts else 0
        for c, (where, size) in enumerate(zip(starts, lengths, strict=True)):
            array = self.arrays[c]
            if array is not None:
                target = array[self.rows : self.rows + n]
                if gather_words(buffer, where, size, out=target) is target:
                    continue
            words = gather_words(buffer, where, size)
            if array is None or array.shape[1] < words.shape[1]:  # first block, or wider
                wider = np.empty((self.capacity, words.shape[1]), dtype="<u8")
                if array is not None:
                    wider[: self.rows, : array.shape[1]] = array[: self.rows]
                    wider[: self.rows, array.shape[1] :] = 0
                self.arrays[c] = array = wider
            array[self.rows : self.rows + n, : words.shape[1]] = words
            array[self.rows : self.rows + n, words.shape[1] :] = 0
        self.rows += n

    def strings(self) -> list[np.ndarray]:
        return [
            a[: self.rows].view(f"S{8 * a.shape[1]}").ravel() for a in self.arrays if a is not None
        ]


def _count_lines(text: np.ndarray, scratch: np.ndarray) -> int:
    lines = 1
    for lo in range(0, len(text), _CHUNK):
        chunk = text[lo : lo + _CHUNK]
        lines += int(np.count_nonzero(np.equal(chunk, 10, out=scratch[: len(chunk)])))
    return lines


@dataclass(frozen=True)
class Table:
    """The tokens of the kept columns of a file, as zero-padded bytes arrays."""

    path: str
    columns: list[np.ndarray]
    line_of_row: np.ndarray | None  # 1-based line numbers, None when row i is line i + 1

    @property
    def n_rows(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def line(self, row: int) -> int:
        return int(self.line_of_row[row]) if self.line_of_row is not None else row + 1

    fast = False  # read by the numpy tokenizer (see evaluation.core.trec.arrow)

    def strings(self, column: int) -> np.ndarray:
        """Tokens of ``column`` (``S<n>``, zero-padded)."""
        return self.columns[column]

    def factor(self, column: int) -> tuple[list[bytes], np.ndarray]:
        """Distinct tokens of ``column`` in order of first appearance, and each row's code."""
        return factorise(self.columns[column])

    def first_token(self, column: int) -> bytes:
        return bytes(self.columns[column][0])

    def numbers(self, column: int, what: str = "number") -> np.ndarray:
        """Tokens of ``column`` as float64, with a :class:`FormatError` for the first bad one.

        Plain decimals (``-12.5``) are parsed in bulk and exactly as ``strtod`` would
        (see :func:`parse_decimals`); anything else goes through ``float()``.
        """
        text = self.columns[column]
        values = np.empty(len(text))
        for lo in range(0, len(text), _ROWS):
            chunk = text[lo : lo + _ROWS]
            chars = chunk.view(np.uint8).reshape(len(chunk), -1)
            lengths = (chars != 0).sum(axis=1)
            values[lo : lo + _ROWS], ok = parse_decimals(chars, lengths)
            for row in np.flatnonzero(~ok):
                token = chunk[row]
                try:
                    values[lo + row] = float(token)
                except ValueError:
                    raise FormatError(
                        self.path,
                        self.line(lo + int(row)),
                        f"{what} {shown(token)} is not a number",
                    ) from None
        return values


def factorise(labels: np.ndarray) -> tuple[list, np.ndarray]:
    """``(unique labels in order of first appearance, code of each row)``; fast when grouped."""
    n = len(labels)
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    block_starts = np.concatenate([[0], change])
    names = labels[block_starts].tolist()
    index: dict = {}
    block_codes = np.array([index.setdefault(name, len(index)) for name in names], dtype=np.int64)
    codes = np.repeat(block_codes, np.diff(np.concatenate([block_starts, [n]])))
    return list(index), codes


def parse_decimals(chars: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parse zero-padded tokens like ``-12.345`` in bulk: ``(values, ok)``.

    Rows of the same shape (length, position of the point, sign) have their digits in
    the same columns, so each shape is one integer dot product giving the mantissa
    ``m`` exactly (at most 15 digits, below 2**53), and ``m / 10**f`` is then the
    correctly rounded value — what ``strtod`` returns (Clinger's fast path). ``ok`` is
    False for tokens of another form (exponents, ``inf``, too many digits), left to
    ``float()``.

    >>> chars = np.array([b"-1.25", b"30", b"1e3"]).view(np.uint8).reshape(3, -1)
    >>> values, ok = parse_decimals(chars, np.array([5, 2, 3]))
    >>> values[ok].tolist(), ok.tolist()
    ([-1.25, 30.0], [True, True, False])
    """
    n = len(chars)
    values = np.zeros(n)
    ok = np.zeros(n, dtype=bool)
    negative = chars[:, 0] == 45
    key = lengths.astype(np.int64) * 2 + negative
    for k in np.flatnonzero(np.bincount(key)):
        rows = np.flatnonzero(key == k) if len(key) else key
        length, sign = divmod(int(k), 2)
        while len(rows):  # one pass per position of the decimal point
            dots = np.flatnonzero(chars[rows[0], :length] == 46)
            at = int(dots[0]) if len(dots) else length
            if at < length:
                same = chars[rows, at] == 46
            else:
                same = ~(chars[rows, :length] == 46).any(axis=1)
            _parse_shape(chars, rows[same], length, at, sign, values, ok)
            rows = rows[~same]
    return values, ok


def _parse_shape(chars, rows, length, at, sign, values, ok) -> None:
    """Rows of one shape: digits in columns ``sign .. length-1`` except the point ``at``."""
    columns = [j for j in range(sign, length) if j != at]
    fraction = length - at - 1 if at < length else 0
    if not columns or len(columns) > 15 or fraction > 22:
        return
    block = chars[rows]
    mantissa = np.zeros(len(rows))
    good = np.ones(len(rows), dtype=bool)
    for j in columns:  # exact: every partial value is an integer below 2**53
        digit = block[:, j] - np.uint8(48)
        good &= digit < 10
        mantissa = mantissa * 10.0 + digit
    parsed = mantissa / 10.0**fraction
    values[rows] = -parsed if sign else parsed
    ok[rows] = good


_CHUNK = 1 << 22  # bytes per block: small enough for the work arrays to stay in cache


def _regular_block(block: np.ndarray, width: int, keep: list[int], ws: np.ndarray):
    """Fast path: every line is ``width`` tokens split by one separator, ending in LF.

    Returns ``(starts, lengths, lines)`` of the kept columns, or ``None`` if the block
    is not that regular.
    """
    if len(ws) and block[ws[-1]] == 0:
        ws = ws[:-1]  # the zero after the data
    if len(ws) == 0 or len(ws) % width:
        return None
    grid = ws.reshape(-1, width)
    if not (block[grid[:, -1]] == 10).all() or np.count_nonzero(block[ws] == 10) != len(grid):
        return None
    if ws[0] == 0 or not (ws[1:] - ws[:-1] > 1).all():  # an empty field, kept or not
        return None
    starts, lengths = [], []
    for j in keep:
        if j == 0:
            start = np.empty(len(grid), dtype=ws.dtype)
            start[0] = 0
            start[1:] = grid[:-1, -1] + 1
        else:
            start = grid[:, j - 1] + 1
        starts.append(start)
        lengths.append(grid[:, j] - start)
    return starts, lengths, len(grid)


def _block_tokens(block: np.ndarray, offset: int, ws: np.ndarray):
    """Token starts, lengths and 0-based line numbers (local) of one block of whole lines."""
    if len(ws) == 0 or ws[0] != 0:
        ws = np.concatenate([[-1], ws])
    gaps = np.diff(ws)
    after = np.flatnonzero(gaps > 1)
    newline = block[ws] == 10
    if ws[0] == -1:
        newline[0] = False
    line = np.cumsum(newline, dtype=np.int64)[after]
    return ws[after] + 1 + offset, gaps[after] - 1, line, int(np.count_nonzero(newline))


def split_columns(
    path: str,
    source: Source,
    n_columns: int | tuple[int, ...],
    keep: tuple[int, ...] | None = None,
) -> Table:
    """Split a buffer from :func:`read_buffer` into rows of tokens, skipping blank lines.

    ``n_columns`` is the number of fields every line must have (or a tuple of allowed
    counts, the first one found being required of every line); ``keep`` lists the
    columns to keep (all by default). Raises :class:`FormatError` naming the first line
    with another count. Works block by block so the work arrays stay small, with a fast
    path for blocks of regular lines (one separator between fields, LF line ends).
    """
    allowed = (n_columns,) if isinstance(n_columns, int) else tuple(n_columns)
    size = source.size
    text = source.data[: size + 1] if source.padded else source.data[:size]
    width = None if len(allowed) > 1 else allowed[0]
    row_lines = []
    scratch = np.empty(_CHUNK + (1 << 16), dtype=bool)
    found = _Columns(len(keep) if keep is not None else max(allowed), _count_lines(text, scratch))
    regular = True
    lines_before, position = 0, 0
    while position < len(text):
        end = min(position + _CHUNK, len(text))
        if end < len(text):
            end = _after_last_newline(text, position, end)
        buffer, base = source.data, position
        if not source.padded and end + _PAD > size:  # the tail of a map: pad a copy
            end = size
            buffer = np.zeros(size - position + _PAD, dtype=np.uint8)
            buffer[: size - position] = text[position:]
            base = 0
        block = buffer[base : base + end - position + (1 if end == size else 0)]
        if len(block) > len(scratch):
            scratch = np.empty(len(block), dtype=bool)
        mask = np.less_equal(block, 32, out=scratch[: len(block)])
        ws = np.flatnonzero(mask)
        columns = list(keep) if keep is not None else list(range(width or 0))
        fast = _regular_block(block, width, columns, ws) if width and columns else None
        if fast is not None:
            s, n, newlines = fast
            found.add(buffer, [c + base for c in s], n)
            row_lines.append((lines_before, newlines))
        else:
            s, n, line, newlines = _block_tokens(block, base, ws)
            counts = np.bincount(line, minlength=newlines + 1)
            if width is None:
                present = counts[counts > 0]
                width = _first_allowed(present, allowed) if len(present) else None
                if width is None and len(present):
                    _raise_count(path, counts, lines_before, allowed, None)
            if width is not None:
                if ((counts != 0) & (counts != width)).any():
                    _raise_count(path, counts, lines_before, allowed, width)
                columns = list(keep) if keep is not None else list(range(width))
                grid_s, grid_n = s.reshape(-1, width), n.reshape(-1, width)
                found.add(buffer, [grid_s[:, c] for c in columns], [grid_n[:, c] for c in columns])
                rows = line[::width] + lines_before + 1
                regular = regular and bool((counts[:newlines] == width).all())
                row_lines.append(rows)
        lines_before += newlines
        position = end
    width = width or allowed[0]
    n_keep = len(keep) if keep is not None else width
    if found.rows == 0:
        return Table(path, [np.zeros(0, dtype="S1") for _ in range(n_keep)], None)
    line_of_row = None
    if not regular:
        line_of_row = np.concatenate(
            [
                r if isinstance(r, np.ndarray) else np.arange(r[0], r[0] + r[1]) + 1
                for r in row_lines
            ]
        )
    return Table(path, found.strings()[:n_keep], line_of_row)


def _after_last_newline(text: np.ndarray, start: int, end: int) -> int:
    """End a block just after the last LF in ``text[start:end]`` (or the next one)."""
    step = 1 << 16
    stop = end
    while stop > start:
        lo = max(start, stop - step)
        hits = np.flatnonzero(text[lo:stop] == 10)
        if len(hits):
            return lo + int(hits[-1]) + 1
        stop = lo
    hits = np.flatnonzero(text[end:] == 10)
    return end + int(hits[0]) + 1 if len(hits) else len(text)


def _raise_count(path, counts, lines_before, allowed, width):
    bad = np.flatnonzero((counts != 0) & (counts != (width or -1)))
    line = int(bad[0])
    expected = " or ".join(str(a) for a in allowed) if width is None else str(width)
    raise FormatError(
        path, lines_before + line + 1, f"expected {expected} fields, found {int(counts[line])}"
    )


def _first_allowed(present: np.ndarray, allowed: tuple[int, ...]) -> int | None:
    if len(present) == 0:
        return allowed[0]
    return int(present[0]) if int(present[0]) in allowed else None


def first_fields(source: Source, lines: int = 100) -> list[list[str]]:
    """The fields of the first non-blank lines, for format detection."""
    out = []
    for line in source.head().splitlines():
        fields = line.decode(errors="replace").split()
        if fields:
            out.append(fields)
        if len(out) >= lines:
            break
    return out
