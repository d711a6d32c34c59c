"""Reading the whitespace-separated text formats shared by every importer.

Rules (the same for runs, judgments and metadata):

- UTF-8 text (a byte-order mark is ignored), LF or CRLF line ends;
- blank lines and lines whose first non-blank character is ``#`` are skipped
  (only whole-line comments: ``#`` inside a line is data);
- a file with no other line is refused (:func:`~judging.importers.inputs.check_has_data_lines`);
- a line containing a tab is split on tabs (so a field may contain spaces, e.g. an
  artist's name); any other line is split on runs of spaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from judging.importers.errors import ImportFailed
from judging.importers.inputs import Input, check_has_data_lines, open_input


class Row(NamedTuple):
    line: int
    fields: list[str]


def split_fields(text: str) -> list[str]:
    """Split one stripped, non-empty line into fields (see the module's rules)."""
    if "\t" in text:
        return [field.strip() for field in text.split("\t")]
    return text.split()


def read_rows(source: Input | str | Path) -> Iterator[Row]:
    """Yield ``(line number, fields)`` for every data line (1-based numbers) of an open
    :class:`~judging.importers.inputs.Input` or of the file at a path; a file that has
    none stops with :class:`ImportFailed` once it is read to its end."""
    if not isinstance(source, Input):
        with open_input(path=source) as data:
            yield from read_rows(data)
        return
    rows = 0
    for number, text in source.text_lines():
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        rows += 1
        yield Row(number, split_fields(text))
    check_has_data_lines(source.path, rows)


def expect_fields(path: Path, row: Row, count: int, layout: str) -> None:
    """Stop unless ``row`` has exactly ``count`` fields; ``layout`` names them."""
    if len(row.fields) != count:
        raise ImportFailed(
            path,
            row.line,
            f"expected {count} fields ({layout}), found {len(row.fields)}",
        )
