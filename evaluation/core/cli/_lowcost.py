"""Shared by the low-cost sub-commands (estimate, evaluate --estimates, next, features,
simulate, fit): reading the inputs, building the pool and estimates, reporting errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from evaluation.core.lowcost import (
    ESTIMATORS,
    Metadata,
    OrdinalModel,
    Pool,
    RelevanceEstimates,
    RelevanceEstimator,
    read_metadata,
)
from evaluation.core.lowcost.measures import UnsupportedMeasure, measure_spec
from evaluation.core.names import MeasureNameError
from evaluation.core.trec import FormatError, Qrels, read_qrels, read_run_files
from evaluation.core.trec.tokens import read_buffer, split_columns

ERRORS = (FormatError, MeasureNameError, UnsupportedMeasure, ValueError, OSError)


def run_safely(body: Callable[[], int]) -> int:
    """Run a command; known errors become one ``error:`` line and exit status 2."""
    try:
        return body()
    except ERRORS as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def add_inputs(parser: argparse.ArgumentParser, *, metadata_required: bool = False) -> None:
    parser.add_argument("qrels", help="known judgments: MIREX 'query doc fine [broad]' or TREC")
    parser.add_argument("runs", nargs="+", help="runs: MIREX 'system query doc' or TREC runs")
    parser.add_argument(
        "--metadata",
        required=metadata_required,
        help="'doc<TAB>artist<TAB>genre' lines (queries too); without it only fSYS-based "
        "features exist and unjudged pairs get the fixed distribution",
    )
    parser.add_argument("--teams", help="'system<TAB>team' lines, for the fTEAM feature")
    parser.add_argument(
        "--scale", choices=("fine", "broad"), default="fine", help="judgments' scale (fine)"
    )


def add_estimator(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--estimator",
        choices=ESTIMATORS,
        default="mjud",
        help="mjud: M_jud -> M_out -> fixed (default); mout: M_out -> fixed; or a fixed "
        "distribution (thesis §7.2, §7.4)",
    )
    parser.add_argument(
        "--fallback",
        choices=("historical", "uniform"),
        default="historical",
        help="the fixed distribution at the end of the chain (historical)",
    )
    parser.add_argument(
        "--model",
        action="append",
        metavar="FILE",
        help="a model written by 'fit' (JSON) replacing the published M_out or M_jud of "
        "Table A.1 (repeatable)",
    )


@dataclass
class Inputs:
    qrels: Qrels
    pool: Pool
    judged: np.ndarray
    metadata: Metadata
    teams: dict[str, str] | None


def load_inputs(options, *, depth: int) -> Inputs:
    qrels = read_qrels(options.qrels, format="auto", scale=options.scale)
    if options.scale not in qrels.columns and "raw" not in qrels.columns:
        raise ValueError(f"{options.qrels} has no {options.scale} judgments")
    runs = read_run_files(options.runs)
    if not runs:
        raise ValueError(f"no rankings in {', '.join(options.runs)}")
    pool = Pool.from_runs(runs, depth=depth, qrels=qrels)
    judged = pool.judgments(qrels)
    top = 100.0 if options.scale == "fine" else 2.0
    bad = judged > top
    if bad.any():
        q, d = pool.pair_names([int(np.flatnonzero(bad)[0])])[0]
        raise ValueError(
            f"{options.qrels}: judgment {judged[bad][0]:g} of {q} {d} is above the "
            f"{options.scale} scale's maximum {top:g} (wrong --scale?)"
        )
    metadata = read_metadata(options.metadata) if options.metadata else Metadata.empty()
    teams = read_teams(options.teams) if getattr(options, "teams", None) else None
    return Inputs(qrels, pool, judged, metadata, teams)


def read_teams(path: str) -> dict[str, str]:
    table = split_columns(str(path), read_buffer(path), 2)
    systems, teams = table.strings(0), table.strings(1)
    return {s.decode(): t.decode() for s, t in zip(systems.tolist(), teams.tolist(), strict=True)}


def read_models(paths: list[str] | None, scale: str) -> dict[str, OrdinalModel]:
    models: dict[str, OrdinalModel] = {}
    for path in paths or []:
        with open(path, encoding="utf-8") as handle:
            try:
                data = json.load(handle)
            except json.JSONDecodeError as error:
                raise FormatError(path, error.lineno, f"not JSON: {error.msg}") from None
        entries = data.get("models", [data]) if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise FormatError(path, None, "expected a model object or {'models': [...]}")
        for entry in entries:
            try:
                model = OrdinalModel.from_dict(entry.get("model", entry))
            except (ValueError, AttributeError) as error:
                raise FormatError(path, None, str(error)) from None
            if model.name not in ("M_out", "M_jud"):
                raise FormatError(
                    path, None, f"model name must be M_out or M_jud, not {model.name!r}"
                )
            if model.scale != scale:
                raise FormatError(
                    path, None, f"{model.name} is for the {model.scale} scale, not {scale}"
                )
            models[model.name] = model
    return models


def estimator_for(inputs: Inputs, options) -> RelevanceEstimator:
    return RelevanceEstimator(
        inputs.pool,
        inputs.metadata,
        scale=options.scale,
        estimator=options.estimator,
        fallback=options.fallback,
        models=read_models(options.model, options.scale),
        teams=inputs.teams,
    )


def read_estimates(path: str, inputs: Inputs, scale: str) -> RelevanceEstimates:
    """``query doc E Var`` lines (what ``estimate`` writes) aligned with the pool."""
    table = split_columns(str(path), read_buffer(path), 4)
    queries, docs = table.strings(0), table.strings(1)
    e = table.numbers(2, "expectation")
    v = table.numbers(3, "variance")
    top = 100.0 if scale == "fine" else 2.0
    for column, name, upper in ((e, "expectation", top), (v, "variance", top**2 / 4)):
        bad = np.flatnonzero(~np.isfinite(column) | (column < 0) | (column > upper))
        if len(bad):
            raise FormatError(
                str(path),
                table.line(int(bad[0])),
                f"{name} {column[bad[0]]:g} is outside [0, {upper:g}]",
            )
    pool = inputs.pool
    index = {q: i for i, q in enumerate(pool.queries)}
    codes = np.array([index.get(q.decode(), -1) for q in queries.tolist()], dtype=np.int64)
    pairs = pool.lookup(codes, docs)
    expectation = np.full(pool.n_pairs, np.nan)
    variance = np.full(pool.n_pairs, np.nan)
    found = pairs >= 0
    expectation[pairs[found]] = e[found]
    variance[pairs[found]] = v[found]
    judged = ~np.isnan(inputs.judged)
    expectation[judged], variance[judged] = inputs.judged[judged], 0.0
    missing = np.flatnonzero(np.isnan(expectation))
    if len(missing):
        q, d = pool.pair_names([int(missing[0])])[0]
        raise ValueError(
            f"{path}: no estimate for query {q} document {d} (and {len(missing) - 1} more "
            "unjudged pairs); run 'estimate' on these runs first"
        )
    source = np.where(judged, 0, 1)
    return RelevanceEstimates(expectation, variance, source, judged, scale)


def depth_for(measure: str) -> int:
    return measure_spec(measure).k


def add_measure_and_estimates(parser: argparse.ArgumentParser) -> None:
    """Inputs, estimator options, ``-m MEASURE`` and ``--estimates`` (next, evaluate)."""
    add_inputs(parser)
    add_estimator(parser)
    parser.add_argument("-m", "--measure", required=True, help="CG@5, DCG@5, nDCG@5, RBP(p=0.8)@5")
    parser.add_argument("--estimates", help="'query doc E Var' lines from 'estimate'")


def load_estimated(options) -> tuple[Inputs, RelevanceEstimates]:
    """The pool cut at the measure's depth and its estimates: read from ``--estimates``
    or computed with the chosen estimator."""
    inputs = load_inputs(options, depth=depth_for(options.measure))
    if options.estimates:
        return inputs, read_estimates(options.estimates, inputs, options.scale)
    return inputs, estimator_for(inputs, options).estimate(inputs.judged)


def add_depth(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--depth", type=int, default=5, help="pool depth k (default 5)")


def number(value: float, digits: int) -> str:
    return "nan" if value != value else f"{value:.{digits}f}"
