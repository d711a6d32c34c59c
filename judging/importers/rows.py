"""Reading the whitespace-separated text formats shared by every importer.

Rules (the same for runs, judgments and metadata):

- UTF-8 text (a byte-order mark is ignored), LF or CRLF line ends;
- blank lines and lines whose first non-blank character is ``#`` are skipped
  (only whole-line comments: ``#`` inside a line is data);
- a line containing a tab is split on tabs (so a field may contain spaces, e.g. an
  artist's name); any other line is split on runs of spaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from judging.importers.errors import ImportFailed


class Row(NamedTuple):
    line: int
    fields: list[str]


def split_fields(text: str) -> list[str]:
    """Split one stripped, non-empty line into fields (see the module's rules)."""
    if "\t" in text:
        return [field.strip() for field in text.split("\t")]
    return text.split()


def read_rows(path: str | Path) -> Iterator[Row]:
    """Yield ``(line number, fields)`` for every data line of ``path`` (1-based numbers)."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise ImportFailed(path, None, "no such file") from None
    except IsADirectoryError:
        raise ImportFailed(path, None, "is a folder, not a file") from None
    except OSError as error:
        raise ImportFailed(path, None, f"cannot be read ({error.strerror})") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ImportFailed(path, number, "not UTF-8 text") from None
            if number == 1:
                text = text.removeprefix("\ufeff")
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            yield Row(number, split_fields(text))


def expect_fields(path: Path, row: Row, count: int, layout: str) -> None:
    """Stop unless ``row`` has exactly ``count`` fields; ``layout`` names them."""
    if len(row.fields) != count:
        raise ImportFailed(
            path,
            row.line,
            f"expected {count} fields ({layout}), found {len(row.fields)}",
        )
