"""Fast splitting of whitespace-separated text files into columns of tokens.

The files we read hold millions of short lines (a 10,000-query run of depth 1,000 is
10 million). Splitting them into Python strings costs about a microsecond per token,
so this module finds token boundaries with numpy on the raw bytes instead and
returns, per column, the tokens as a fixed-width bytes array (``dtype='S<n>'``) — or
as float64 numbers — without creating a Python object per token.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_PAD = 64  # zero bytes after the data, so fixed-width gathers never run off the end


class FormatError(ValueError):
    """A malformed input line: names the file, the 1-based line number and the problem."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def read_bytes(source) -> tuple[str, bytes]:
    """``(name, bytes)`` of a path, of bytes/str content, or of an iterable of lines."""
    if isinstance(source, bytes | bytearray):
        return "<bytes>", bytes(source)
    if isinstance(source, str) and ("\n" in source or "\t" in source):
        return "<string>", source.encode()
    if hasattr(source, "__fspath__") or isinstance(source, str):
        with open(source, "rb") as handle:
            return str(source), handle.read()
    lines = [line if isinstance(line, str) else line.decode() for line in source]
    return "<lines>", "\n".join(line.rstrip("\r\n") for line in lines).encode() + b"\n"


@dataclass(frozen=True)
class Table:
    """The tokens of a file with the same number of fields on every non-blank line."""

    path: str
    buffer: np.ndarray  # uint8, the file bytes followed by _PAD zeros
    starts: np.ndarray  # (n_rows, n_columns) token start offsets
    lengths: np.ndarray  # (n_rows, n_columns) token lengths
    line_of_row: np.ndarray | None  # 1-based line numbers, None when row i is line i + 1

    @property
    def n_rows(self) -> int:
        return self.starts.shape[0]

    def line(self, row: int) -> int:
        return int(self.line_of_row[row]) if self.line_of_row is not None else row + 1

    def strings(self, column: int) -> np.ndarray:
        """Tokens of ``column`` as a fixed-width bytes array (``S<longest>``)."""
        starts, lengths = self.starts[:, column], self.lengths[:, column]
        width = int(lengths.max(initial=1))
        if width > _PAD:
            out = [bytes(self.buffer[s : s + n]) for s, n in zip(starts, lengths, strict=True)]
            return np.array(out, dtype=f"S{width}")
        window = np.lib.stride_tricks.as_strided(
            self.buffer, shape=(len(self.buffer) - _PAD, width), strides=(1, 1), writeable=False
        )
        chars = window[starts]
        chars[np.arange(width) >= lengths[:, None]] = 0
        return chars.view(f"S{width}").ravel()

    def numbers(self, column: int, what: str = "number") -> np.ndarray:
        """Tokens of ``column`` as float64, with a :class:`FormatError` for the first bad one."""
        text = self.strings(column)
        try:
            return text.astype(np.float64)
        except ValueError:
            for row, token in enumerate(text.tolist()):
                try:
                    float(token)
                except ValueError:
                    raise FormatError(
                        self.path,
                        self.line(row),
                        f"{what} {token.decode(errors='replace')!r} is not a number",
                    ) from None
            raise


def split_columns(path: str, data: bytes, n_columns: int | tuple[int, ...]) -> Table:
    """Split ``data`` into rows of whitespace-separated tokens, skipping blank lines.

    ``n_columns`` is the number of fields every line must have (or a tuple of allowed
    counts, the first one found being required of every line). Raises
    :class:`FormatError` naming the first line with another count.
    """
    allowed = (n_columns,) if isinstance(n_columns, int) else tuple(n_columns)
    buffer = np.zeros(len(data) + _PAD, dtype=np.uint8)
    buffer[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    # whitespace (and control bytes) positions, with a sentinel at the end of the data
    ws = np.flatnonzero(buffer[: len(data) + 1] <= 32)
    if len(ws) == 0 or ws[0] != 0:
        ws = np.concatenate([[-1], ws])
    token_after = np.flatnonzero(np.diff(ws) > 1)
    starts = ws[token_after] + 1
    ends = ws[token_after + 1]
    newline = buffer[ws] == 10
    newline[0] = False if ws[0] == -1 else newline[0]
    line_of_token = np.cumsum(newline)[token_after]  # 0-based line of each token
    counts = np.bincount(line_of_token)
    present = counts[counts > 0]
    width = allowed[0] if len(allowed) == 1 else _first_allowed(present, allowed)
    bad = np.flatnonzero((counts != 0) & (counts != width))
    if len(bad) or width is None:
        line = int(bad[0]) if len(bad) else int(np.flatnonzero(counts)[0])
        found = int(counts[line])
        expected = " or ".join(str(a) for a in allowed) if width is None else str(width)
        raise FormatError(path, line + 1, f"expected {expected} fields, found {found}")
    starts = starts.reshape(-1, width)
    lengths = (ends - ws[token_after] - 1).reshape(-1, width)
    row_lines = line_of_token[::width] + 1
    regular = len(row_lines) == 0 or (row_lines[-1] == len(row_lines))
    return Table(path, buffer, starts, lengths, None if regular else row_lines)


def _first_allowed(present: np.ndarray, allowed: tuple[int, ...]) -> int | None:
    if len(present) == 0:
        return allowed[0]
    return int(present[0]) if int(present[0]) in allowed else None


def first_fields(data: bytes, lines: int = 100) -> list[list[str]]:
    """The fields of the first non-blank lines, for format detection."""
    out = []
    for line in data[: 1 << 16].splitlines():
        fields = line.decode(errors="replace").split()
        if fields:
            out.append(fields)
        if len(out) >= lines:
            break
    return out
