"""What a file looks like, to say so when it is not what an upload expects (issue 31).

A runs file that holds judgments, a judgments file that holds a run, an audio file or a
spreadsheet uploaded as text: the importers stop at its first line, and the message
says what that line looks like and where such a file goes — "line 1 looks like TREC
qrels (judgments: qid iter docno rel), not a run: upload it as judgments" — instead of
only the number of fields it found. Pure functions over a line's fields or a file's
first bytes; no Django.
"""

from __future__ import annotations

MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"RIFF", "a WAV audio file"),
    (b"fLaC", "a FLAC audio file"),
    (b"OggS", "an Ogg audio file"),
    (b"ID3", "an MP3 audio file"),
    (b"\xff\xfb", "an MP3 audio file"),
    (b"PK\x03\x04", "a zip file (or an Excel or OpenDocument spreadsheet, which are zips)"),
    (b"\xd0\xcf\x11\xe0", "an old Excel or Word file"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "a gzip-compressed file"),
)
"""The first bytes of files that are not text, and what they are."""

HEADER_NAMES = frozenset(
    {
        "qid", "query", "query_id", "queryid", "topic", "q0", "iter", "iteration", "docid",
        "docno", "doc", "doc_id", "document", "rank", "score", "sim", "tag", "system", "run",
        "run_id", "runid", "rel", "relevance", "judgment", "grade", "fine", "broad", "artist",
        "genre",
    }
)  # fmt: skip
"""Column names a spreadsheet's header row gives runs and judgments: such a first line
is a header, not data."""


def binary_kind(first_bytes: bytes) -> str | None:
    """What a file that is not UTF-8 text is, from its first bytes (``None``: unknown)."""
    for magic, kind in MAGIC:
        if first_bytes.startswith(magic):
            return kind
    return None


def is_header(fields: list[str]) -> bool:
    """Whether a first line names the columns of runs or judgments (``query,Q0,doc,…``)."""
    return bool(fields) and all(f.strip().lower() in HEADER_NAMES for f in fields)


def _numbers(fields: list[str]) -> bool:
    try:
        [float(f) for f in fields]
    except ValueError:
        return False
    return True


def line_kind(fields: list[str]) -> str | None:
    """What a data line of ``fields`` looks like, in words (``None``: nothing known).

    >>> line_kind(["q1", "0", "d1", "2"])
    'TREC qrels (judgments: qid iter docno rel)'
    >>> line_kind(["q1", "Q0", "d1", "1", "0.5", "run-a"])
    'a TREC run (qid Q0 docid rank score tag)'
    """
    lowered = [f.lower() for f in fields]
    if lowered[:1] == ["id"] and set(lowered) <= {"id", "title", "artist", "genre"}:
        return "the header of a clip metadata file (id, title, artist, genre)"
    if {"query", "list_a", "list_b"} <= set(lowered):
        return "the header of a file of preference answers or examples (query, list_a, list_b …)"
    if len(fields) == 6 and fields[1].upper() == "Q0" and _numbers(fields[3:5]):
        return "a TREC run (qid Q0 docid rank score tag)"
    if len(fields) == 4 and fields[1] in ("0", "Q0") and _numbers(fields[3:]):
        return "TREC qrels (judgments: qid iter docno rel)"
    if len(fields) in (3, 4) and _numbers(fields[2:]):
        return "judgments (query doc fine [broad])"
    if len(fields) == 1:
        return "one field a line: its fields are not separated by spaces, tabs or commas"
    return None


WHERE = {
    "a TREC run": "upload it as run files",
    "TREC qrels": "upload it as judgments",
    "judgments": "upload it as judgments",
    "the header of a clip metadata file": "upload it with the audio clips",
    "the header of a file of preference answers": (
        "upload answers as preference answers, or add examples on a preference campaign's page"
    ),
}
"""Where a file of each kind goes, by the beginning of :func:`line_kind`'s words."""


def not_this_kind(fields: list[str], *, expected: str) -> str:
    """The end of a message about a line that is not ``expected`` (e.g. ``"a run"``): what
    the line looks like and where such a file goes, or what was found."""
    kind = line_kind(fields)
    shown = " ".join(fields)
    shown = shown if len(shown) <= 60 else shown[:57] + "…"
    if kind is None:
        count = len(fields)
        return f"found {count} field{'s' if count != 1 else ''} (“{shown}”)"
    where = next((go for start, go in WHERE.items() if kind.startswith(start)), "")
    ending = f": {where}" if where else ""
    return f"it looks like {kind}, not {expected} (“{shown}”){ending}"
