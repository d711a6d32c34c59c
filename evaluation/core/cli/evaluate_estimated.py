"""``python -m evaluation.core evaluate QRELS RUN ... -m MEASURE --estimates EST``
(or ``--metadata META`` to estimate on the fly)

Evaluation with incomplete judgments (thesis §8.1): per system the expected mean score
E ± the half-width of its 95% interval (8.19) and Var; per system pair the expected
difference, its variance and the confidence in its sign (8.20); the confidence in the
whole ranking. The dispatcher (:func:`evaluation.core.cli.wants_estimates`) sends
``evaluate`` here when ``--estimates`` or ``--metadata`` is given; without them
``evaluate`` is the ordinary trec_eval-like one.
"""

from __future__ import annotations

import argparse
import json
import sys

from evaluation.core.cli._lowcost import add_measure_and_estimates, load_estimated, run_safely
from evaluation.core.lowcost import ProbabilisticMeasure, stopping_state


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core evaluate",
        description="Evaluate with estimated relevance (thesis §8.1).",
    )
    add_measure_and_estimates(parser)
    parser.add_argument("--level", type=float, default=0.95, help="interval level (0.95)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--digits", type=int, default=4)
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        if not 0 < options.level < 1:
            raise ValueError(f"--level must be in (0, 1), got {options.level}")
        inputs, estimates = load_estimated(options)
        kernel = ProbabilisticMeasure(inputs.pool, options.measure, scale=options.scale)
        scores = kernel.scores(estimates, level=options.level)
        board = scores.leaderboard()
        systems, differences = board["systems"], board["differences"]
        state = stopping_state(scores, target="relative")
        if options.format == "json":
            out = {
                "measure": kernel.spec.label,
                "judged": int(estimates.judged.sum()),
                "pairs": inputs.pool.n_pairs,
                "level": options.level,
                "ranking_confidence": scores.ranking_confidence,
                "systems": systems,
                "differences": differences,
            }
            sys.stdout.write(json.dumps(out, indent=2) + "\n")
            return 0
        d = options.digits
        pct = f"{options.level:.0%}"
        lines = [
            f"# {kernel.spec.label} estimated with {int(estimates.judged.sum())} of "
            f"{inputs.pool.n_pairs} pairs judged",
            f"system\tE\tVar\t{pct} low\t{pct} high",
        ]
        lines += [
            f"{r['system']}\t{r['expectation']:.{d}f}\t{r['variance']:.{d + 2}f}\t"
            f"{r['low']:.{d}f}\t{r['high']:.{d}f}"
            for r in systems
        ]
        lines += ["", "better\tworse\tE[diff]\tVar\tconfidence"]
        lines += [
            f"{r['better']}\t{r['worse']}\t{r['expectation']:.{d}f}\t{r['variance']:.{d + 2}f}\t"
            f"{r['confidence']:.{d}f}"
            for r in differences
        ]
        lines += [
            "",
            f"# confidence in the ranking: {scores.ranking_confidence:.{d}f} "
            f"({'confident' if state.stop else 'below'} {state.threshold:g})",
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0

    return run_safely(body)
