"""The command line's input files: read them, or say in one line what is wrong and where.

Every problem with an input file — missing, a directory, unreadable, empty, not UTF-8
where text is needed, a malformed line — becomes an :class:`InputError` whose message
names the file and, when the problem is on a line, the line (``path:line: problem``).
The commands print it as ``error: <message>`` and exit with their status for bad
input: 2 for ``evaluate`` (like its other errors), 1 for ``compare`` and
``reliability`` (whose usage errors exit with 2).
"""

from __future__ import annotations

import numpy as np

from evaluation.core.evaluate import Results, evaluate_files
from evaluation.core.names import Measure
from evaluation.core.ordered_groups.files import groups_qrels, read_groups
from evaluation.core.trec import FormatError, Qrels, read_qrels
from evaluation.core.trec.tokens import first_fields, read_buffer


class InputError(Exception):
    """A problem with an input file; the message names the file (and line)."""


def describe(error: Exception) -> str:
    """One line saying what went wrong, naming the file for an operating-system error."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


def read_judgments(path: str, *, format: str = "auto", scale: str = "fine") -> Qrels:
    """The judgments of a file; none at all is an error, as for trec_eval.

    ``format="groups"`` reads a groups file of one ground truth (ordered groups,
    :mod:`evaluation.core.ordered_groups`) as the judgments its groups stand for.
    """
    if format == "groups":
        return read_ground_truth(path)
    qrels = read_qrels(path, format=format, scale=scale)
    if len(qrels.docs) == 0:
        raise FormatError(path, None, "no judgments found")
    return qrels


def read_ground_truth(path: str) -> Qrels:
    """The one ground truth of a groups file, as judgments (group g of G: level G-g+1)."""
    truths = read_groups(path)
    if len(truths) > 1:
        names = ", ".join(sorted(truths))
        raise FormatError(
            path, None, f"holds {len(truths)} ground truths ({names}); keep one name to evaluate"
        )
    return groups_qrels(next(iter(truths.values())))


def groups_hint(path: str) -> str | None:
    """A note for a judgments file read with ``auto`` that looks like a groups file of
    one query (``NAME QUERY DOC GROUP``: the same name and query on every line sampled,
    the query not TREC's iteration ``0``, groups from 1), which ``auto`` reads as TREC
    qrels of a query named like the ground truth, so that forgetting ``--qrels-format
    groups`` does not go unnoticed. (A groups file of several queries is read as MIREX
    judgments and stops at its first document id that is not a number.)"""
    try:
        sample = first_fields(read_buffer(path))
    except OSError:
        return None  # reading it properly will say what is wrong
    if not sample or any(len(fields) != 4 for fields in sample):
        return None
    names, queries = {f[0] for f in sample}, {f[1] for f in sample}
    groups = all(f[3].isdecimal() and int(f[3]) >= 1 for f in sample)
    if len(names) != 1 or len(queries) != 1 or queries == {"0"} or not groups:
        return None
    return (
        f"note: {path} looks like a groups file (NAME QUERY DOC GROUP); it was read as TREC "
        "qrels: if it is a groups file, add --qrels-format groups"
    )


def evaluate_inputs(
    qrels_path: str,
    run_paths: list[str],
    measures: list[Measure],
    *,
    complete: bool = False,
    qrels_format: str = "auto",
    run_format: str = "auto",
    scale: str = "fine",
    keep_order: bool | None = None,
    judged_only: bool = False,
) -> Results:
    """Read the judgments and the runs and score them, or raise :class:`InputError`."""

    def judgments() -> Qrels:  # read while the first run file starts being read
        return read_judgments(qrels_path, format=qrels_format, scale=scale)

    try:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return evaluate_files(  # numbers that overflow print as inf or nan, unwarned
                judgments,
                run_paths,
                measures,
                complete=complete,
                format=run_format,
                keep_order=keep_order,
                judged_only=judged_only,
            )
    except (ValueError, OSError) as error:  # FormatError is a ValueError
        raise InputError(describe(error)) from None
