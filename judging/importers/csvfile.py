"""Reading CSV files a line at a time, with every way a file can be broken named by line.

The CSV files people upload (clip metadata, preference examples, past crowd answers)
go through :func:`csv_records`, so that none of Python's ``csv.Error`` cases (a bare
carriage return inside an unquoted field, a field over the 128 KiB limit, a NUL byte,
an unterminated quote) nor a byte that is not UTF-8 ends in a traceback. The file is
read as a stream: one record at a time is in memory, and a field is at most
:data:`FIELD_LIMIT` characters.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from judging.importers.errors import ImportFailed

FIELD_LIMIT = 128 * 1024
"""Characters in one CSV field (Python's default limit, 131,072): fields hold ids, lists
of ids and short texts, so a longer one is a broken file, not data."""


MAX_LINE_BYTES = 1024 * 1024
"""Bytes in one line of a file (1 MiB): the reader never holds more than this of a line."""


def binary_stream(source: BinaryIO | bytes | str) -> BinaryIO:
    """``source`` as a binary stream (text is encoded as UTF-8, a lone surrogate kept so
    that it is then refused as not UTF-8)."""
    if isinstance(source, str):
        return io.BytesIO(source.encode("utf-8", "surrogatepass"))
    if isinstance(source, bytes):
        return io.BytesIO(source)
    return source


def text_lines(source: BinaryIO | bytes | str, *, path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 stream with their line ends (split at LF only, so a bare CR
    stays inside its line), decoded one at a time; a byte-order mark is dropped.

    Stops with :class:`ImportFailed` on a line that is not UTF-8 or longer than
    :data:`MAX_LINE_BYTES`, naming the line.
    """
    handle = binary_stream(source)
    number = 0
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise ImportFailed(path, number, f"a line is longer than {MAX_LINE_BYTES:,} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ImportFailed(path, number, "not UTF-8 text") from None
        yield text.removeprefix("\ufeff") if number == 1 else text


def _problem(error: csv.Error) -> str:
    text = str(error)
    if "field larger than field limit" in text:
        return (
            f"a field is longer than {FIELD_LIMIT:,} characters "
            "(fields hold ids, lists of ids and short texts)"
        )
    if "new-line character seen in unquoted field" in text:
        return "a line break (CR) inside a field that is not in double quotes"
    return f"malformed CSV ({text})"


def csv_records(
    source: BinaryIO | bytes | str, *, path: str | Path
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line, cells)`` for every record of a CSV stream, in order.

    ``line`` is the line the record starts on (a quoted field may span lines). Any
    problem stops with :class:`ImportFailed` naming ``path`` and the line.
    """
    # The limit is process-wide in Python's csv module; it is set, never raised above.
    csv.field_size_limit(FIELD_LIMIT)
    reader = csv.reader(text_lines(source, path=path), strict=True)
    start = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ImportFailed(path, max(start, reader.line_num), _problem(error)) from None
        yield start, cells
        start = reader.line_num + 1
