"""``python -m evaluation.core leaderboard``: the results pages' leaderboard, on files.

The same document as the leaderboard API and JSON export
(:func:`evaluation.core.results.leaderboard`, its keys in
:mod:`evaluation.core.results`): means with intervals within bounds, P(Sat) through the
published Table 4.3 mapping when the measure has one, every pair's difference and
p-value, each system's letters and the warnings; ``--target`` adds the D-study's
"fewer queries than needed" warning. Given QRELS and RUN files, each row's ``judged`` is
its Judged@k on the measure's scale and depth, and the warning about unjudged documents
is the pages' (:mod:`evaluation.core.judged`). ``score_distributions`` is the pages' "Score
distributions" study (thesis §4.2.2, :func:`evaluation.core.goodness_of_fit.leaderboard_fits`).

Examples::

    python -m evaluation.core leaderboard qrels.txt runs.tsv -m 'CG(scale=fine)@5' --test bootstrap
    python -m evaluation.core leaderboard --scores per_query.tsv --format json
"""

from __future__ import annotations

import argparse
import csv
import io

from evaluation.core import stats
from evaluation.core.cli.judged import judged_of_inputs
from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix
from evaluation.core.goodness_of_fit import leaderboard_fits
from evaluation.core.published_mappings import published_mapping_for
from evaluation.core.results import leaderboard, reliability

COLUMNS = (
    "rank", "system", "mean", "ci_low", "ci_high", "ci_method", "psat_mean", "psat_low",
    "psat_high", "psat_method", "psucc", "psat_floor", "pred_low", "pred_high", "pred_family",
    "letters",
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m evaluation.core leaderboard",
        description="The leaderboard of the results pages: intervals within bounds, P(Sat), "
        "pairs, letters and warnings (thesis ch. 4-6).",
    )
    add_input_arguments(p, min_runs=2)
    p.add_argument("--test", choices=stats.TESTS, default="bootstrap", help="(bootstrap)")
    p.add_argument("--resamples", type=int, default=10_000, help="(10000)")
    p.add_argument("--seed", type=int, default=20130701, help="(20130701, as the pages)")
    p.add_argument("--adjust", choices=stats.ADJUSTMENTS, default="holm", help="(holm)")
    p.add_argument("--alpha", type=float, default=0.05, help="level of the letters (0.05)")
    p.add_argument("--target", type=float, default=0.95, help="D-study target Eρ² (0.95)")
    p.add_argument(
        "--mapping",
        choices=("published", "none"),
        default="published",
        help="P(Sat) through the published Table 4.3 mapping of the measure, if any",
    )
    return p


def _compute(matrix, ns) -> dict:
    mapping = published_mapping_for(matrix.measure) if ns.mapping == "published" else None
    needed = reliability(matrix, target=ns.target).needed["erho2"]
    document = leaderboard(
        matrix, test=ns.test, resamples=ns.resamples, seed=ns.seed, adjustment=ns.adjust,
        alpha=ns.alpha, mapping=mapping, judged=judged_of_inputs(matrix, ns),
        judged_only=ns.judged_only, queries_needed=needed, reliability_target=ns.target,
    ).to_dict()  # fmt: skip
    document["score_distributions"] = leaderboard_fits(matrix, seed=ns.seed)  # as the pages'
    return document


def _text(r: dict) -> str:
    width = max(len(row["system"]) for row in r["rows"])
    lines = [r["report"], ""]
    lines += [f"warning: {w['message']}" for w in r["warnings"]]
    lines.append(f"{'rank':>4}  {'system':<{width}}  {'mean':>7}  {'95% CI':^18}  letters")
    for row in r["rows"]:
        method = "t" if row["ci_method"] == "t" else "bootstrap"
        lines.append(
            f"{row['rank']:>4}  {row['system']:<{width}}  {row['mean']:>7.4f}  "
            f"[{row['ci_low']:.4f}, {row['ci_high']:.4f}] {method:<9}  {row['letters']}"
        )
    lines.append(
        f"(systems that share a letter are not significantly different at α = {r['alpha']})"
    )
    return "\n".join(lines) + "\n"


def _csv(r: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for row in r["rows"]:
        w.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
    return buf.getvalue()


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.resamples < 1:
        parser.error("--resamples must be positive")
    for name in ("alpha", "target"):
        if not 0 < getattr(ns, name) < 1:
            parser.error(f"--{name} must be in (0, 1)")
    return run_on_matrix(
        parser, ns, min_runs=2, needs="a leaderboard", compute=_compute, text=_text, csv=_csv
    )
