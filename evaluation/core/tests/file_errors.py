"""What a reader says about a bad file, for the tests of the readers' error messages."""

import pytest

from evaluation.core.trec import FormatError


def read_error(reader, tmp_path, content: bytes | str, name: str = "input.txt"):
    """``(path, message)``: ``content`` written to a file, and the FormatError ``reader``
    raises on it."""
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    with pytest.raises(FormatError) as error:
        reader(path)
    return path, str(error.value)
