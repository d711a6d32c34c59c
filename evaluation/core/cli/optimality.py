"""``python -m evaluation.core optimality``: which test, measure and scale to trust here.

Runs the split-half study of thesis chapter 5 (:mod:`evaluation.core.optimality`): the
queries split at random into two halves, every test on every pair of systems with each,
and the rates of §5.3 (non-significance, success, lack of power, minor, major and global
conflict) per test and per measure at the 32 levels of §5.4. The text prints them at
``--alpha`` with the verdicts in words; ``--format json`` prints the document the
"Choosing a test" results page stores (same keys), ``--format csv`` one row per test or
measure and level.

Without ``-m`` the measures are the 14 of thesis Table 5.2 the judgments can score (the
Broad ones need Broad judgments). The study states its cost first and refuses more than
``--max-resampled`` resampled differences.

Examples::

    python -m evaluation.core optimality judgments.tsv runs.tsv --trials 300 --seed 1
    python -m evaluation.core optimality qrels.txt runs/*.run -m "nDCG@10" -m "P@10" \\
        --tests t,wilcoxon,bootstrap --alpha 0.01 --format json
"""

from __future__ import annotations

import argparse
import csv
import io
import sys

from evaluation.core.cli.inputs import InputError, evaluate_inputs
from evaluation.core.cli.output import print_document
from evaluation.core.cli.scoretable import read_score_table
from evaluation.core.names import parse_measures
from evaluation.core.optimality import (
    ALPHA_LEVELS,
    OUTCOMES,
    TABLE_5_2,
    optimality_cost,
    split_half_optimality,
)
from evaluation.core.significance import TESTS

MAX_RESAMPLED = 10**12
"""The default refusal, the same number as the results' ``EARSHOT_LIMIT_RESAMPLED``."""


def _tests(text: str) -> list[str]:
    tests = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in tests if t not in TESTS]
    if unknown or not tests or len(set(tests)) != len(tests):
        raise argparse.ArgumentTypeError(f"name each of {', '.join(TESTS)} at most once")
    return tests


def _alphas(text: str) -> list[float]:
    if text == "all":
        return list(ALPHA_LEVELS)
    try:
        levels = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'all' or numbers, got {text!r}") from None
    if not levels or any(not 0 < a < 1 for a in levels):
        raise argparse.ArgumentTypeError("levels must be in (0, 1)")
    return levels


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m evaluation.core optimality",
        description="Split-half optimality of significance tests, measures and scales "
        "(thesis ch. 5, §5.3-5.4).",
    )
    p.add_argument("inputs", nargs="*", metavar="QRELS RUN", help="judgments then run files")
    p.add_argument("--scores", metavar="FILE", help="a 'system query score' table instead")
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        default=[],
        help="a measure (repeat for several; default: thesis Table 5.2's)",
    )
    p.add_argument("-J", dest="judged_only", action="store_true", help="trec_eval -J")
    p.add_argument("--tests", type=_tests, default=list(TESTS), help="default: all five")
    p.add_argument("--alpha", type=float, default=0.05, help="level of the text and verdicts")
    p.add_argument(
        "--alphas",
        type=_alphas,
        default=list(ALPHA_LEVELS),
        help="'all' (the 32 of §5.4) or a list",
    )
    p.add_argument("--trials", type=int, default=300, help="random splits (default 300)")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap/permutation resamples")
    p.add_argument("--seed", type=int, default=20130701)
    p.add_argument(
        "--baseline", choices=TESTS, default="bootstrap", help="the test the verdict compares"
    )
    p.add_argument("--max-resampled", type=int, default=MAX_RESAMPLED)
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    return p


def _matrices(parser, ns) -> list:
    if ns.scores:
        if ns.inputs or len(ns.measure) > 1:
            parser.error("--scores takes one table and at most one -m label, and no QRELS/RUN")
        return [read_score_table(ns.scores, measure=(ns.measure or ["score"])[0])]
    if len(ns.inputs) < 2:
        parser.error("expected QRELS and RUN file(s), or --scores FILE")
    names = ns.measure or list(TABLE_5_2)
    try:
        parsed = [m for name in names for m in parse_measures(name)]
    except ValueError as error:
        raise InputError(str(error)) from None
    try:
        results = evaluate_inputs(ns.inputs[0], ns.inputs[1:], parsed, judged_only=ns.judged_only)
    except InputError as error:
        if ns.measure or "'broad'" not in str(error):
            raise
        parsed = [m for m in parsed if "broad" not in m.label]  # no Broad judgments here
        results = evaluate_inputs(ns.inputs[0], ns.inputs[1:], parsed, judged_only=ns.judged_only)
    return [results.matrix(m) for m in parsed]


def compute(matrices, ns) -> dict:
    """The optimality document, as the results page stores it."""
    alphas = sorted({*ns.alphas, ns.alpha})
    result = split_half_optimality(
        matrices, tests=ns.tests, alphas=alphas, trials=ns.trials, resamples=ns.resamples,
        seed=ns.seed, max_resampled=ns.max_resampled,
    )  # fmt: skip
    return result.to_dict(alpha=ns.alpha, baseline=ns.baseline)


def _cell(x, se=None) -> str:
    if x is None:
        return "-"
    return f"{x:.4f}" + (f" ±{se:.4f}" if se is not None else "")


def text(doc: dict) -> str:
    verdict = doc["verdict"]
    i = doc["alphas"].index(verdict["alpha"])
    head = ["non-sig.", "success", "lack pow.", "minor", "major", "global"]
    lines = [
        f"Split-half optimality (thesis §5.3): {doc['trials']} splits of {doc['n_queries']} "
        f"queries into halves of {doc['half']}, {doc['n_systems']} systems ({doc['pairs']} "
        f"pairs), α = {verdict['alpha']:g}; rates ± standard error over the splits",
        f"cost: {doc['cost']}",
        "",
    ]
    for key, groups, width in (("test", doc["by_test"], 14), ("measure", doc["by_measure"], 24)):
        lines.append(f"{key:<{width}}" + "".join(f"{h:>18}" for h in head))
        for g in groups:
            lines.append(
                f"{g[key]:<{width}}"
                + "".join(f"{_cell(g['rates'][o][i], g['se'][o][i]):>18}" for o in OUTCOMES)
            )
        lines.append("")
    lines += verdict["tests"] + verdict["measures"] + [verdict["practical"]]
    return "\n".join(lines) + "\n"


def to_csv(doc: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ["group", "name", "alpha", "comparisons", "significant"]
        + [c for o in OUTCOMES for c in (o, f"{o}_se")]
    )
    for key, groups in (("test", doc["by_test"]), ("measure", doc["by_measure"])):
        for g in groups:
            for i, alpha in enumerate(doc["alphas"]):
                values = [g["rates"][o][i] for o in OUTCOMES]
                errors = [g["se"][o][i] for o in OUTCOMES]
                w.writerow(
                    [key, g[key], alpha, g["comparisons"], g["significant"][i]]
                    + [
                        "" if x is None else repr(x)
                        for pair in zip(values, errors, strict=True)
                        for x in pair
                    ]
                )
    return buf.getvalue()


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if not 0 < ns.alpha < 1:
        parser.error("--alpha must be in (0, 1)")
    if ns.trials < 1 or ns.resamples < 1:
        parser.error("--trials and --resamples must be positive")
    try:
        matrices = _matrices(parser, ns)
        first = matrices[0]
        cost = optimality_cost(
            n_systems=len(first.systems), n_queries=len(first.queries),
            n_measures=len(matrices), tests=ns.tests, trials=ns.trials, resamples=ns.resamples,
        )  # fmt: skip
        print(f"cost: {cost.statement}", file=sys.stderr)
        doc = compute(matrices, ns)
    except (InputError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print_document(doc, ns.format, text=text, csv=to_csv)
    return 0
