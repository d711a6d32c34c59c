"""Inputs of the ``compare`` and ``reliability`` commands: a per-query score table, or
qrels and runs evaluated by the measures of :mod:`evaluation.core`.

The score table is the long format ``system query score``: one line per system and
query, whitespace-separated (tabs or spaces), CRLF line ends accepted, blank lines and
lines starting with ``#`` ignored, an optional header line ``system query score``.
Every system must have a score for every query.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from evaluation.core.evaluate import evaluate
from evaluation.core.names import MeasureNameError
from evaluation.core.scores import ScoreMatrix
from evaluation.core.trec import FormatError, read_qrels, read_run_files

FORMATS = ("text", "csv", "json")


class InputError(Exception):
    """A problem with an input file; the message names the file (and line)."""


def read_score_table(path: str | Path, *, measure: str = "score") -> ScoreMatrix:
    """Read a ``system query score`` table into a :class:`ScoreMatrix`.

    Systems and queries keep the order of their first appearance.

    Raises
    ------
    InputError
        With ``path:line:`` for malformed lines, non-numeric or non-finite scores and
        repeated (system, query) pairs, and naming the system and query when the
        table is incomplete.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read the score table: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None
    cells: dict[tuple[str, str], float] = {}
    systems: dict[str, None] = {}
    queries: dict[str, None] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 3:
            raise InputError(
                f"{path}:{lineno}: expected 3 columns 'system query score', found {len(fields)}"
            )
        system, query, value = fields
        if not cells and [f.lower() for f in fields] == ["system", "query", "score"]:
            continue  # header
        try:
            score = float(value)
        except ValueError:
            raise InputError(f"{path}:{lineno}: score {value!r} is not a number") from None
        if not math.isfinite(score):
            raise InputError(f"{path}:{lineno}: score {value!r} is not finite")
        if (system, query) in cells:
            raise InputError(
                f"{path}:{lineno}: second score for system {system!r} on query {query!r}"
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
                    f"{path}: system {s!r} has no score for query {q!r} "
                    f"({missing} of {len(Q)} queries missing); every system needs every query"
                ) from None
    return ScoreMatrix(measure=measure, systems=S, queries=Q, scores=X)


def matrix_from_qrels_and_runs(qrels_path: str, run_paths: list[str], measure: str) -> ScoreMatrix:
    """Evaluate runs against qrels with the measures of ``evaluation.core``.

    Read and measure errors become :class:`InputError`, naming the file and line.
    """
    try:
        qrels = read_qrels(qrels_path)
        runs = read_run_files(run_paths)
        return evaluate(qrels, runs, [measure]).matrix(measure)
    except (FormatError, MeasureNameError, OSError) as error:
        raise InputError(str(error)) from None


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
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")


def load_matrix(parser: argparse.ArgumentParser, args: argparse.Namespace, *, min_runs: int):
    """The ScoreMatrix the arguments point at; usage errors go through ``parser.error``."""
    if args.scores:
        if args.inputs:
            parser.error("give either --scores FILE or QRELS and RUN files, not both")
        return read_score_table(args.scores, measure=args.measure or "score")
    if len(args.inputs) < 2:
        parser.error("expected QRELS and RUN file(s), or --scores FILE")
    if not args.measure:
        parser.error("-m/--measure is required with QRELS and RUN files")
    matrix = matrix_from_qrels_and_runs(args.inputs[0], args.inputs[1:], args.measure)
    if len(matrix.systems) < min_runs:
        raise InputError(
            f"{len(matrix.systems)} run(s) in the RUN file(s); at least {min_runs} are needed"
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
