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
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from common.files.errors import ImportFailed
from common.files.inputs import NO_DATA_LINES, Input, as_input

FIELD_LIMIT = 128 * 1024
"""Characters in one CSV field (Python's default limit, 131,072): fields hold ids, lists
of ids and short texts, so a longer one is a broken file, not data."""


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
    source: Input | BinaryIO | bytes | str, *, path: str | Path, delimiter: str = ","
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line, cells)`` for every record of a CSV stream, in order.

    ``line`` is the line the record starts on (a quoted field may span lines). Any
    problem stops with :class:`ImportFailed` naming ``path`` and the line. ``delimiter``
    is ``"\t"`` for tab-separated files.
    """
    # The limit is process-wide in Python's csv module; it is set, never raised above.
    csv.field_size_limit(FIELD_LIMIT)
    lines = (text for _, text in as_input(source, path=path).text_lines())
    reader = csv.reader(lines, strict=True, delimiter=delimiter)
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


def csv_header(
    records: Iterator[tuple[int, list[str]]], *, path: str | Path
) -> tuple[int, list[str]]:
    """The first record of :func:`csv_records` that is not blank: a CSV file's header row.
    A file without one (nothing, a byte-order mark, blank lines) has no data lines."""
    for line, cells in records:
        if any(cell.strip() for cell in cells):
            return line, cells
    raise ImportFailed(path, None, NO_DATA_LINES)
