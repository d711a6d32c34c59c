"""Inputs of the ``compare`` and ``reliability`` commands: a per-query score table, or
qrels and runs evaluated by the measures of :mod:`evaluation.core`.

The score table is the long format ``system query score``: one line per system and
query, in UTF-8, fields separated by whitespace (spaces, tabs, or any control
character, as in the TREC readers), CRLF line ends accepted, blank lines and lines
starting with ``#`` ignored, an optional header line ``system query score``. Every
system must have a score for every query.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from pathlib import Path

import numpy as np

from evaluation.core.cli.inputs import InputError, evaluate_inputs
from evaluation.core.names import parse_measures
from evaluation.core.scores import ScoreMatrix
from evaluation.core.trec import arrow
from evaluation.core.trec.tokens import shown

FORMATS = ("text", "csv", "json")
BLOCK_BYTES = 4 << 20  # bytes of a big regular table parsed at a time
_BLANK = bytes(range(33))  # whitespace and control characters, as the TREC readers see them
_FIELD_SEPARATOR = re.compile(rb"[\x00-\x20]+")


def read_score_table(path: str | Path, *, measure: str = "score") -> ScoreMatrix:
    """Read a ``system query score`` table into a :class:`ScoreMatrix`.

    Systems and queries keep the order of their first appearance. A big regular table
    is read by pyarrow (:func:`_read_regular_table`), any other by :func:`_read_any_table`;
    both give the same matrix, and only the second gives messages.

    Raises
    ------
    InputError
        With ``path:line:`` for malformed lines, non-numeric or non-finite scores and
        repeated (system, query) pairs, and naming the system and query when the
        table is incomplete.
    """
    path = Path(path)
    try:
        matrix = _read_regular_table(path, measure)
        if matrix is not None:
            return matrix
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"{path}: cannot read the score table: {e.strerror or e}") from None
    return _read_any_table(path, data, measure)


def _read_regular_table(path: Path, measure: str) -> ScoreMatrix | None:
    """A big regular table read by pyarrow a block at a time, or ``None``.

    Regular: one space or one tab between the three fields, LF line ends, no blank line,
    maybe the header first (:mod:`evaluation.core.trec.arrow`). Each block of about 4 MB
    is parsed by pyarrow (:class:`~evaluation.core.trec.arrow.RegularFile`, read with
    ``pread``: memory holds a block of the file, not the file), its systems and queries
    dictionary-encoded and numbered in order of first appearance across the blocks; the
    scores are then scattered into the matrix. Anything :func:`_read_any_table` would
    say something about — a comment line, a name that is not UTF-8, a score that is not
    a finite number, a cell missing or given twice — returns ``None``, and that exact
    reader reads the file and names the line: the same matrix or the same message.
    """
    if path.stat().st_size < arrow.MIN_BYTES:
        return None
    try:
        file = arrow.RegularFile(str(path), BLOCK_BYTES)
    except arrow.NotRegular:
        return None
    with file:
        first = os.pread(file.fd, 1 << 16, 0).split(b"\n", 1)[0]
        start = len(first) + 1 if first.lower().split() == [b"system", b"query", b"score"] else 0
        systems: dict[bytes, int] = {}
        queries: dict[bytes, int] = {}
        codes: tuple[list, list] = ([], [])
        scores = []
        try:
            for span in file.spans(start):
                table = file.parse(span, 3, (0, 1, 2), ("factor", "factor", "number"))
                for column, (index, parts) in enumerate(((systems, codes[0]), (queries, codes[1]))):
                    names, block_codes = table.factor(column)
                    # numbered in order of first appearance: blocks come in file order
                    known = [index.setdefault(name, len(index)) for name in names]
                    parts.append(np.array(known, dtype=np.int32)[block_codes])
                scores.append(table.numbers(2))
        except arrow.NotRegular:
            return None
    return _scattered(systems, queries, codes, scores, measure)


def _scattered(systems, queries, codes, scores, measure: str) -> ScoreMatrix | None:
    """The matrix of the blocks' cells (:func:`_read_regular_table`), or ``None``."""
    values = np.concatenate(scores) if scores else np.empty(0)
    scores.clear()  # each list is let go once joined: memory holds one copy of the cells
    k, n = len(systems), len(queries)
    if len(values) != k * n or not np.isfinite(values).all():
        return None
    try:
        S = tuple(s.decode("utf-8") for s in systems)
        Q = tuple(q.decode("utf-8") for q in queries)
    except UnicodeDecodeError:
        return None
    if any(s.startswith("#") for s in S):  # a comment line: the exact reader skips it
        return None
    cells = np.concatenate(codes[0]).astype(np.int64)
    codes[0].clear()
    cells *= n  # system code × n + query code, in place
    cells += np.concatenate(codes[1])
    codes[1].clear()
    seen = np.zeros(k * n, dtype=bool)
    seen[cells] = True
    if not seen.all():  # k·n lines, so a cell missing means a cell given twice
        return None
    X = np.empty(k * n)
    X[cells] = values
    return ScoreMatrix(measure=measure, systems=S, queries=Q, scores=X.reshape(k, n))


def _read_any_table(path: Path, data: bytes, measure: str) -> ScoreMatrix:
    """Every table, line by line: the reader whose messages name the file and line."""
    cells: dict[tuple[str, str], float] = {}
    systems: dict[str, None] = {}
    queries: dict[str, None] = {}
    for lineno, line in enumerate(data.split(b"\n"), start=1):
        fields = _FIELD_SEPARATOR.split(line.strip(_BLANK))
        if fields == [b""] or fields[0].startswith(b"#"):
            continue
        if len(fields) != 3:
            raise InputError(
                f"{path}:{lineno}: expected 3 columns 'system query score', found {len(fields)}"
            )
        try:
            system, query, value = (f.decode("utf-8") for f in fields)
        except UnicodeDecodeError:
            raise InputError(f"{path}:{lineno}: not UTF-8 text") from None
        if not cells and [system.lower(), query.lower(), value.lower()] == [
            "system",
            "query",
            "score",
        ]:
            continue  # header
        try:
            score = float(value)
        except ValueError:
            raise InputError(f"{path}:{lineno}: score {shown(value)} is not a number") from None
        if not math.isfinite(score):
            raise InputError(f"{path}:{lineno}: score {shown(value)} is not finite")
        if (system, query) in cells:
            raise InputError(
                f"{path}:{lineno}: second score for system {shown(system)} on query {shown(query)}"
            )
        cells[(system, query)] = score
        systems.setdefault(system)
        queries.setdefault(query)
    if not cells:
        raise InputError(f"{path}: no scores found")
    S, Q = tuple(systems), tuple(queries)
    X = np.empty((len(S), len(Q)))
    for i, s in enumerate(S):
        for j, q in enumerate(Q):
            try:
                X[i, j] = cells[(s, q)]
            except KeyError:
                missing = sum((s, qq) not in cells for qq in Q)
                raise InputError(
                    f"{path}: system {shown(s)} has no score for query {shown(q)} "
                    f"({missing} of {len(Q)} queries missing); every system needs every query"
                ) from None
    return ScoreMatrix(measure=measure, systems=S, queries=Q, scores=X)


def matrix_from_qrels_and_runs(
    qrels_path: str, run_paths: list[str], measure: str, *, judged_only: bool = False
) -> ScoreMatrix:
    """Evaluate runs against qrels with the measures of ``evaluation.core`` (``judged_only``:
    unjudged documents left out of each list first, trec_eval ``-J``).

    Read and measure errors become :class:`InputError`, naming the file and line.
    """
    try:
        parsed = parse_measures(measure)
    except ValueError as error:
        raise InputError(str(error)) from None
    if len(parsed) != 1:
        labels = ", ".join(m.label for m in parsed)
        raise InputError(f"-m {measure!r} names {len(parsed)} measures ({labels}); give one")
    results = evaluate_inputs(qrels_path, run_paths, parsed, judged_only=judged_only)
    return results.matrix(parsed[0])


def add_input_arguments(parser: argparse.ArgumentParser, *, min_runs: int) -> None:
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="QRELS RUN",
        help=f"qrels file then {min_runs} or more run files (or use --scores)",
    )
    parser.add_argument(
        "--scores",
        metavar="FILE",
        help="per-query score table with lines 'system query score' instead of QRELS and RUNs",
    )
    parser.add_argument(
        "-m",
        "--measure",
        help="measure to evaluate (required with QRELS and RUNs; a label with --scores)",
    )
    parser.add_argument(
        "-J",
        dest="judged_only",
        action="store_true",
        help="with QRELS and RUNs: leave unjudged documents out of each list (trec_eval -J)",
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")


def load_matrix(parser: argparse.ArgumentParser, args: argparse.Namespace, *, min_runs: int):
    """The ScoreMatrix the arguments point at; usage errors go through ``parser.error``."""
    if args.scores:
        if args.inputs:
            parser.error("give either --scores FILE or QRELS and RUN files, not both")
        if args.judged_only:
            parser.error("-J needs QRELS and RUN files: a score table is already scored")
        return read_score_table(args.scores, measure=args.measure or "score")
    if len(args.inputs) < 2:
        parser.error("expected QRELS and RUN file(s), or --scores FILE")
    if not args.measure:
        parser.error("-m/--measure is required with QRELS and RUN files")
    matrix = matrix_from_qrels_and_runs(
        args.inputs[0], args.inputs[1:], args.measure, judged_only=args.judged_only
    )
    if len(matrix.systems) < min_runs:
        raise InputError(
            f"{', '.join(args.inputs[1:])}: {len(matrix.systems)} run(s) in all; "
            f"at least {min_runs} are needed"
        )
    return matrix


def number(x: float) -> float | None:
    """A float for JSON: NaN and infinities become null."""
    x = float(x)
    return x if math.isfinite(x) else None


def json_safe(x):
    """Nested dicts and lists with every non-finite float replaced by None (JSON null)."""
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, list):
        return [json_safe(v) for v in x]
    if isinstance(x, float):
        return number(x)
    return x


def run_on_matrix(parser, ns, *, min_runs: int, needs: str, compute, text, csv) -> int:
    """Load the matrix the arguments name, compute on it and print it as ``--format`` says.

    ``needs`` completes "… needs at least 2 systems and 2 queries" in the error printed
    for a matrix too small to analyse. Input errors print and return 1.
    """
    try:
        matrix = load_matrix(parser, ns, min_runs=min_runs)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if len(matrix.systems) < 2 or len(matrix.queries) < 2:
        print(
            f"error: {needs} needs at least 2 systems and 2 queries, got "
            f"{len(matrix.systems)} × {len(matrix.queries)}",
            file=sys.stderr,
        )
        return 1
    result = compute(matrix, ns)
    if ns.format == "json":
        sys.stdout.write(json.dumps(json_safe(result), indent=2, ensure_ascii=False) + "\n")
    elif ns.format == "csv":
        sys.stdout.write(csv(result))
    else:
        sys.stdout.write(text(result))
    return 0
