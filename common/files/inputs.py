"""What every importer reads from and reports to: a byte stream, its name, a progress callback.

An importer is a function ``<what>_import(*, collection, path=… | stream=…, name=…,
options…, progress=…) -> summary``: the command line gives a ``path``; a browser
upload or a background job gives an open binary ``stream`` (an uploaded file, a file
in storage) and the ``name`` to show in messages. The file is read a line at a time,
never whole (:func:`open_input`), and :class:`Progress` hears how far it has got.

Limits every importer states (its docstring and ``README.md``):

- :data:`MAX_LINE_BYTES` bytes per line (``common.files.csvfile``);
- at least one data line: a file with nothing but blank lines, comment lines or a
  byte-order mark is refused (:func:`check_has_data_lines`), whatever the format said;
- a maximum number of data lines per file (``MAX_LINES`` of each importer), checked as
  the file is read, so that the memory an import holds is bounded whatever its size
  (figures in ``docs/benchmarks.md``, from ``benchmarks/bench_import_memory.py``).
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from common.files.errors import ImportFailed
from common.files.looks_like import binary_kind

__all__ = [
    "MAX_LINE_BYTES",
    "NO_DATA_LINES",
    "Input",
    "Progress",
    "as_input",
    "check_has_data_lines",
    "check_line_count",
    "no_progress",
    "open_input",
]

MAX_LINE_BYTES = 1024 * 1024
"""Bytes in one line of a file (1 MiB): an importer never holds more than this of a line."""


class Progress(Protocol):
    """How an import reports how far it has got: ``fraction`` of the input read (None when
    the size is unknown) and a short message ("read 120,000 lines", "writing")."""

    def __call__(self, fraction: float | None, message: str) -> None: ...


def no_progress(fraction: float | None, message: str) -> None:
    """The :class:`Progress` of an import nobody follows."""


@dataclass
class Input:
    """An open binary stream with the name errors show and its size when known."""

    handle: BinaryIO
    path: Path
    size: int | None
    progress: Progress = no_progress
    interval: float = 0.5
    _last: float = 0.0

    def readline(self, limit: int = -1) -> bytes:
        return self.handle.readline(limit)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """``(line number, raw line)``, at most :data:`MAX_LINE_BYTES` bytes each."""
        number = 0
        while True:
            raw = self.handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                self.report(force=True)
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise ImportFailed(
                    self.path, number, f"a line is longer than {MAX_LINE_BYTES:,} bytes"
                )
            if number % 4096 == 0:
                self.report(message=f"read {number:,} lines")
            yield number, raw

    def text_lines(self) -> Iterator[tuple[int, str]]:
        """``(line number, text)`` decoded as UTF-8 one line at a time (line ends kept,
        lines split at LF only; a byte-order mark at the start is dropped)."""
        for number, raw in self.lines():
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                kind = binary_kind(raw) if number == 1 else None
                problem = f"not text but {kind}" if kind else "not UTF-8 text"
                raise ImportFailed(self.path, number, problem) from None
            yield number, text.removeprefix("\ufeff") if number == 1 else text

    def report(self, *, message: str = "", force: bool = False) -> None:
        """Tell :attr:`progress` how far the stream has been read (at most every interval)."""
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        fraction = None
        if self.size:
            try:
                fraction = min(1.0, self.handle.tell() / self.size)
            except (OSError, ValueError):
                fraction = None
        self.progress(fraction, message or "read")


def as_input(source: Input | BinaryIO | bytes | str, *, path: str | Path) -> Input:
    """``source`` as an :class:`Input`: text (encoded as UTF-8, a lone surrogate kept so
    that it is then refused as not UTF-8), bytes, or a binary stream."""
    if isinstance(source, Input):
        return source
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    if isinstance(source, bytes):
        return Input(io.BytesIO(source), Path(path), len(source))
    return Input(source, Path(path), _size(source))


def _size(handle: BinaryIO) -> int | None:
    try:
        return os.fstat(handle.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        pass
    size = getattr(handle, "size", None)  # Django's uploaded files
    if isinstance(size, int):
        return size
    try:
        if handle.seekable():
            here = handle.tell()
            end = handle.seek(0, io.SEEK_END)
            handle.seek(here)
            return end
    except (OSError, AttributeError, ValueError):
        pass
    return None


@contextmanager
def open_input(
    *,
    path: str | Path | None = None,
    stream: BinaryIO | None = None,
    name: str | None = None,
    progress: Progress = no_progress,
) -> Iterator[Input]:
    """The input of an import: ``path`` (opened here and closed after) or an open binary
    ``stream`` (left open for its owner); ``name`` is what messages call it."""
    if (path is None) == (stream is None):
        raise ValueError("give exactly one of path and stream")
    if stream is not None:
        yield Input(stream, Path(name or getattr(stream, "name", None) or "upload"), _size(stream),
                    progress)  # fmt: skip
        return
    path = Path(path)
    shown = Path(name) if name else path
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise ImportFailed(shown, None, "no such file") from None
    except IsADirectoryError:
        raise ImportFailed(shown, None, "is a folder, not a file") from None
    except OSError as error:
        raise ImportFailed(shown, None, f"cannot be read ({error.strerror})") from None
    with handle:
        yield Input(handle, shown, _size(handle), progress)


def check_line_count(path: Path, line: int, count: int, maximum: int) -> None:
    """Stop once a file has more than ``maximum`` data lines (the importer's stated limit)."""
    if count > maximum:
        raise ImportFailed(
            path,
            line,
            f"more than {maximum:,} data lines: the limit of one import (split the file "
            "and import the parts one after the other)",
        )


NO_DATA_LINES = "has no data lines (only blank lines, comments or a byte-order mark)"
"""What every importer says of a file without data, after the file's name."""


def check_has_data_lines(path: Path, count: int) -> None:
    """Stop when a whole file gave no data line (``count`` of them): an empty import is a
    mistake (the wrong file, an export that failed), never a success that changes nothing."""
    if count == 0:
        raise ImportFailed(path, None, NO_DATA_LINES)
