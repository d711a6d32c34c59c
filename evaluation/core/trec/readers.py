"""Reading judgments and runs from files (or bytes, or lines), with format detection.

Judgments (``read_qrels``)
    ``trec``  — ``qid iter docno rel`` (TREC qrels; integer or decimal relevance).
    ``mirex`` — ``query doc fine [broad]`` (MIREX AMS judgments; Fine 0–100, Broad 0–2).
Runs (``read_runs``)
    ``trec``  — ``qid Q0 docno rank score tag``; one run per file, named by its tag.
    ``mirex`` — ``system query doc`` in rank order; one file may hold many systems.

``format="auto"`` looks at the first lines: 6 fields is a TREC run and 3 a ranked list;
4 fields is TREC qrels when the second field is the same on every line sampled (the
"iteration", usually ``0``) and MIREX judgments with a Broad column otherwise; 3 fields
is MIREX judgments. Tabs, spaces and CRLF line ends are all accepted.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.trec.arrow import read_regular
from evaluation.core.trec.model import Qrels, Run
from evaluation.core.trec.tokens import (
    FormatError,
    Table,
    decode_id,
    first_fields,
    read_buffer,
    split_columns,
)

QRELS_FORMATS = ("auto", "trec", "mirex")
RUN_FORMATS = ("auto", "trec", "mirex")


def _detect_qrels(path: str, data: bytes) -> str:
    sample = first_fields(data)
    if not sample:
        return "trec"
    width = len(sample[0])
    if width == 4:
        return "trec" if len({fields[1] for fields in sample if len(fields) > 1}) == 1 else "mirex"
    if width == 3:
        return "mirex"
    raise FormatError(
        path,
        1,
        f"cannot tell the judgments format from {width} fields; "
        "expected 4 (trec: qid iter docno rel) or 3-4 (mirex: query doc fine [broad])",
    )


def detect_runs(path: str, data: bytes) -> str:
    sample = first_fields(data)
    if not sample:
        return "trec"
    width = len(sample[0])
    if width == 6:
        return "trec"
    if width == 3:
        return "mirex"
    raise FormatError(
        path,
        1,
        f"cannot tell the run format from {width} fields; "
        "expected 6 (trec: qid Q0 docno rank score tag) or 3 (mirex: system query doc)",
    )


def _check_format(fmt: str, valid: tuple[str, ...]) -> None:
    if fmt not in valid:
        raise ValueError(f"unknown format {fmt!r}; valid: {', '.join(valid)}")


def read_qrels(source, *, format: str = "auto", scale: str = "fine") -> Qrels:
    """Read relevance judgments.

    Parameters
    ----------
    source:
        A path, the file content (``bytes``, or ``str`` with newlines), or lines.
    format:
        ``"auto"``, ``"trec"`` or ``"mirex"`` (see the module docstring).
    scale:
        For MIREX judgments with both columns, which one measures read by default:
        ``"fine"`` or ``"broad"`` (both are kept; a measure can ask for the other one
        with ``scale=``). TREC qrels have one ``raw`` column.
    """
    _check_format(format, QRELS_FORMATS)
    data = read_buffer(source)
    path = data.name
    fmt = _detect_qrels(path, data) if format == "auto" else format
    if fmt == "trec":
        keep = (0, 2, 3)
        table = read_regular(data, 4, keep, ("factor", "strings", "number"))
        table = table or split_columns(path, data, 4, keep=keep)
        columns = {"raw": _finite(table, table.numbers(2, "relevance"), "relevance")}
        return Qrels.from_arrays(
            None,
            table.strings(1),
            columns,
            default="raw",
            path=path,
            lines=table.line,
            query_codes=table.factor(0),
        )
    else:
        table = split_columns(path, data, (3, 4))
        columns = {"fine": _finite(table, table.numbers(2, "Fine score"), "Fine score")}
        if len(table.columns) == 4:
            columns["broad"] = _finite(table, table.numbers(3, "Broad score"), "Broad score")
        if scale not in columns:
            raise ValueError(f"{path} has no {scale!r} column (it has: {', '.join(columns)})")
        queries, docs, default = table.strings(0), table.strings(1), scale
    return Qrels.from_arrays(queries, docs, columns, default=default, path=path, lines=table.line)


def _finite(table, values, what: str):
    """``values``, or a FormatError at the first that is NaN or infinite (no relevance is)."""
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        row = int(bad[0])
        raise FormatError(table.path, table.line(row), f"{what} {float(values[row])} is not finite")
    return values


def read_runs(source, *, format: str = "auto", keep_order: bool | None = None) -> dict[str, Run]:
    """Read one or more runs from a file: ``{run name: Run}``.

    ``keep_order`` ranks documents in file order instead of by score (the default for
    the ``mirex`` format, which has no scores). A document ranked twice for one query
    is a :class:`FormatError` naming the line.
    """
    _check_format(format, RUN_FORMATS)
    data = read_buffer(source)
    path = data.name
    fmt = detect_runs(path, data) if format == "auto" else format
    if fmt == "trec":  # qid Q0 docno rank score tag: Q0 and rank are not read
        keep = (0, 2, 4, 5)
        table = read_regular(data, 6, keep, ("factor", "strings", "number", "first"))
        table = table or split_columns(path, data, 6, keep=keep)
        if table.n_rows == 0:
            return {}
        name = decode_id(table.first_token(3), "run name (tag)", path, table.line(0))
        run = Run.from_arrays(
            name,
            None,
            table.strings(1),
            table.numbers(2, "score"),
            keep_order=bool(keep_order),
            path=path,
            lines=table.line,
            query_codes=table.factor(0),
        )
        return {name: run}
    table = split_columns(path, data, 3)
    return _split_systems(table, path)


def _split_systems(table: Table, path: str) -> dict[str, Run]:
    systems = table.strings(0)
    names, codes = np.unique(systems, return_inverse=True)
    queries, docs = table.strings(1), table.strings(2)
    runs = {}
    for i, raw in enumerate(names.tolist()):
        rows = np.flatnonzero(codes == i)
        name = decode_id(raw, "system name", path, table.line(int(rows[0])))
        runs[name] = Run.from_arrays(
            name,
            queries[rows],
            docs[rows],
            keep_order=True,
            path=path,
            lines=lambda r, rows=rows: table.line(int(rows[r])),
        )
    return runs


def read_run_files(
    paths, *, format: str = "auto", keep_order: bool | None = None
) -> dict[str, Run]:
    """Read the runs of several files into one ``{run name: Run}``, as the command lines do.

    A name seen in an earlier file is kept apart as ``"<name> (<path>)"``.
    """
    runs: dict[str, Run] = {}
    for path in paths:
        for name, run in read_runs(path, format=format, keep_order=keep_order).items():
            runs[name if name not in runs else f"{name} ({path})"] = run
    return runs
