"""``python -m evaluation.core distributions``: which distribution describes the scores.

Runs the goodness-of-fit study of thesis §4.2.2 (:mod:`evaluation.core.goodness_of_fit`):
for random samples of ``--sizes`` queries, the Normal, truncated Normal, Beta and
Empirical distributions fitted on the sample are compared with the held-out queries by
the ω̂ of eq. 4.7 (lower is better), averaged over systems and ``--trials`` samples. The
JSON has the keys of the leaderboard page's "Score distributions" panel. (The low-cost
relevance models are fitted by ``fit``.)

Examples::

    python -m evaluation.core distributions judgments.tsv runs.tsv -m "CG(scale=fine)@5"
    python -m evaluation.core distributions --scores per_query.tsv --sizes 20 --format json
"""

from __future__ import annotations

import argparse
import csv
import io

from evaluation.core.cli.output import integer_list
from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix
from evaluation.core.goodness_of_fit import FAMILIES, fit_study

_sizes = integer_list(minimum=2, problem="sample sizes must be at least 2")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m evaluation.core distributions",
        description="Goodness of fit of the Normal, truncated Normal, Beta and Empirical "
        "distributions on held-out queries (thesis §4.2.2, eq. 4.7).",
    )
    add_input_arguments(p, min_runs=1)
    p.add_argument(
        "--sizes", type=_sizes, default=None, help="queries fitted on (default: half, and 20)"
    )
    p.add_argument("--trials", type=int, default=200, help="random samples per size (200)")
    p.add_argument("--seed", type=int, default=20130701)
    return p


def _compute(matrix, ns) -> dict:
    held = len(matrix.queries)
    for size in ns.sizes or ():
        if size > held - 2:
            raise SystemExit(
                f"error: --sizes {size} leaves fewer than 2 of {held} queries held out"
            )
    return fit_study(matrix, sizes=ns.sizes, trials=ns.trials, seed=ns.seed).to_dict()


def _text(doc: dict) -> str:
    lines = [
        f"{doc['measure']}: goodness of fit on held-out queries (thesis §4.2.2, eq. 4.7), "
        f"{doc['n_systems']} systems × {doc['trials']} samples; average ω̂ (lower is better)",
        "",
        f"{'fitted':>7}{'held out':>10}" + "".join(f"{f:>18}" for f in FAMILIES) + f"{'best':>18}",
    ]
    for row in doc["sizes"]:
        cells = "".join(
            f"{'-' if row['omega'][f] is None else format(row['omega'][f], '.4f'):>18}"
            for f in FAMILIES
        )
        lines.append(f"{row['fitted']:>7}{row['held_out']:>10}{cells}{row['best'] or '-':>18}")
        if row["left_out"]:
            lines.append(f"  ({row['left_out']} system samples could not be fitted by all four)")
    lines += ["", doc["report"]]
    lines.append(f"Thesis §4.2.3 recommends at this collection's size: {doc['recommended']}.")
    return "\n".join(lines) + "\n"


def _csv(doc: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["fitted", "held_out", "family", "omega", "omega_squared", "omega_se", "cases"])
    for row in doc["sizes"]:
        for f in FAMILIES:
            values = (row["omega"][f], row["omega_squared"][f], row["omega_se"][f])
            w.writerow(
                [row["fitted"], row["held_out"], f]
                + ["" if v is None else repr(v) for v in values]
                + [row["cases"]]
            )
    return buf.getvalue()


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.trials < 1:
        parser.error("--trials must be positive")
    return run_on_matrix(
        parser, ns, min_runs=1, needs="the goodness-of-fit study", compute=_compute,
        text=_text, csv=_csv,
    )  # fmt: skip
