"""``python -m evaluation.core simulate QRELS RUNS --metadata META -m MEASURE [--format json]``

Replay a complete collection the low-cost way (thesis §8.2–8.4): start with no
judgments, judge the most informative pair each time, re-estimate with M_jud every
``--update-every`` judgments (20), and compare the estimates with the truth after every
judgment. ``--format json`` prints ``{"total_judgments": N, "steps": [...], ...}`` with
one step per ``--every`` judgments (each with ``judgments``, ``confidence``,
``accuracy``, ``tau``, ``rmse_delta``, ``rho``, ``rmse``, ``mae``, ``root_variance``;
the first step has no judgments) and the stopping points (``stops``). The text format
prints the Table 8.1, 8.3, 8.5 and 8.6-style rows; ``--published`` puts the thesis'
MIREX 2011 (Fine) figures beside them.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from evaluation.core.cli._lowcost import (
    add_estimator,
    add_inputs,
    depth_for,
    load_inputs,
    read_models,
    run_safely,
)
from evaluation.core.lowcost import simulate
from evaluation.core.lowcost.published import (
    TABLE_8_1,
    TABLE_8_3,
    TABLE_8_5,
    TABLE_8_6,
    published_key,
)

COLUMNS = ("judgments", "confidence", "accuracy", "tau", "rmse_delta", "rho", "rmse", "mae")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core simulate",
        description="Simulate low-cost judging on a complete collection (thesis §8.2-8.4).",
    )
    add_inputs(parser, metadata_required=True)
    add_estimator(parser)
    parser.add_argument("-m", "--measure", required=True, help="CG@5, DCG@5, nDCG@5, RBP(p=0.8)@5")
    parser.add_argument("--target", choices=("relative", "absolute"), default="relative")
    parser.add_argument("--update-every", type=int, default=20, help="re-estimate every N (20)")
    parser.add_argument("--every", type=int, default=1, help="record a step every N (1)")
    parser.add_argument("--max-judgments", type=int, help="stop after N judgments")
    parser.add_argument("--confidence", type=float, default=0.95, help="relative stop (0.95)")
    parser.add_argument("--half-width", type=float, default=0.05, help="absolute stop (0.05)")
    parser.add_argument("--published", action="store_true", help="print MIREX 2011's figures")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        inputs = load_inputs(options, depth=depth_for(options.measure))
        missing = np.isnan(inputs.judged) & inputs.pool.retrieved
        if missing.any():
            q, d = inputs.pool.pair_names([int(np.flatnonzero(missing)[0])])[0]
            raise ValueError(
                f"{options.qrels}: simulate needs every ranked document judged; "
                f"{int(missing.sum())} are not, e.g. query {q} document {d}"
            )
        result = simulate(
            inputs.pool,
            inputs.judged,
            options.measure,
            inputs.metadata,
            scale=options.scale,
            target=options.target,
            estimator=options.estimator,
            update_every=options.update_every,
            every=options.every,
            max_judgments=options.max_judgments,
            confidence=options.confidence,
            half_width=options.half_width,
            models=read_models(options.model, options.scale),
            teams=inputs.teams,
        )
        if options.format == "json":
            sys.stdout.write(json.dumps(result.to_dict(), indent=1) + "\n")
            return 0
        sys.stdout.write(_text(result, options.published))
        return 0

    return run_safely(body)


def _row(label: str, values: dict, total: int) -> str:
    cells = []
    for column in COLUMNS:
        value = values.get(column)
        if value is None:
            cells.append("-")
        elif column == "judgments":
            cells.append(f"{int(value)} ({value / total:.1%})")
        else:
            cells.append(f"{value:.3f}")
    return "\t".join([label, *cells])


def _text(result, published: bool) -> str:
    total, label = result.total_judgments, result.measure
    key = published_key(label)
    lines = [
        f"# {label}, target {result.target}, {total} judgments in all, "
        f"M_jud re-estimates every {result.update_every}",
        "\t".join(("point", *COLUMNS)),
    ]
    points = [
        ("Table 8.1 (none judged)", result.steps[0].__dict__, TABLE_8_1),
        ("Table 8.3 (95% confidence)", result.stops.get("confidence", {}).get("step"), TABLE_8_3),
        ("Table 8.5 (±0.05 uncorr.)", result.stops.get("uncorrected", {}).get("step"), TABLE_8_5),
        ("Table 8.6 (±0.05 corr.)", result.stops.get("corrected", {}).get("step"), TABLE_8_6),
    ]
    for name, values, table in points:
        lines.append(_row(name, values or {}, total) if values else f"{name}\tnot reached")
        if published and key in table:
            lines.append(_row("  thesis 2011 Fine", table[key], 6322))
    lines += ["", "\t".join(COLUMNS)]
    for step in result.steps:
        lines.append(
            "\t".join(
                str(step.judgments) if c == "judgments" else f"{getattr(step, c):.4f}"
                for c in COLUMNS
            )
        )
    return "\n".join(lines) + "\n"
