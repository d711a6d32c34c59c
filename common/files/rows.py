"""Reading the whitespace-separated text formats shared by every importer.

Rules (the same for runs, judgments and metadata):

- UTF-8 text (a byte-order mark is ignored), LF or CRLF line ends;
- blank lines and lines whose first non-blank character is ``#`` are skipped
  (only whole-line comments: ``#`` inside a line is data);
- a file with no other line is refused (:func:`~common.files.inputs.check_has_data_lines`);
- a line containing a tab is split on tabs (so a field may contain spaces, e.g. an
  artist's name); any other line is split on runs of spaces;
- a file whose first data line has no tab and more fields between commas than between
  spaces (``q1,Q0,d1,1,0.5,run A`` as a spreadsheet saves it) is comma-separated: each
  of its lines is read as a CSV record (quotes allowed), its fields stripped;
- a first data line that only names columns (``query,Q0,docno,rank,score,system``:
  :data:`~common.files.looks_like.HEADER_NAMES`) is a header row, skipped.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from common.files.errors import ImportFailed
from common.files.inputs import Input, check_has_data_lines, open_input
from common.files.looks_like import is_header


class Row(NamedTuple):
    line: int
    fields: list[str]


def split_fields(text: str, *, commas: bool = False) -> list[str]:
    """Split one stripped, non-empty line into fields (see the module's rules);
    ``commas``: the line of a comma-separated file."""
    if commas:
        try:
            cells = next(csv.reader([text], strict=True))
        except csv.Error:
            cells = text.split(",")
        return [cell.strip() for cell in cells]
    if "\t" in text:
        return [field.strip() for field in text.split("\t")]
    return text.split()


def comma_separated(text: str) -> bool:
    """Whether a file whose first data line is ``text`` is comma-separated."""
    return "\t" not in text and "," in text and len(text.split(",")) > len(text.split())


def read_rows(source: Input | str | Path) -> Iterator[Row]:
    """Yield ``(line number, fields)`` for every data line (1-based numbers) of an open
    :class:`~common.files.inputs.Input` or of the file at a path; a file that has
    none stops with :class:`ImportFailed` once it is read to its end."""
    if not isinstance(source, Input):
        with open_input(path=source) as data:
            yield from read_rows(data)
        return
    rows = 0
    commas: bool | None = None  # decided by the first data line
    for number, text in source.text_lines():
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        if commas is None:
            commas = comma_separated(text)
            if is_header(split_fields(text, commas=commas)):
                continue
        rows += 1
        yield Row(number, split_fields(text, commas=commas))
    check_has_data_lines(source.path, rows)


def expect_fields(path: Path, row: Row, count: int, layout: str) -> None:
    """Stop unless ``row`` has exactly ``count`` fields; ``layout`` names them."""
    if len(row.fields) != count:
        raise ImportFailed(
            path,
            row.line,
            f"expected {count} fields ({layout}), found {len(row.fields)}",
        )
