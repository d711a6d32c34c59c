"""``python -m evaluation.core next QRELS RUN ... -m MEASURE [--metadata META | --estimates EST]``

The ``-n`` unjudged pairs most worth judging next for ``MEASURE`` (thesis §8.3 for
``--target relative``, the ranking; §8.4 for ``absolute``, the scores), one
``query<TAB>doc<TAB>E<TAB>Var<TAB>weight`` line each, best first, after comment lines
with the stopping rule's state. Nothing is listed once the rule says stop (unless
``--ignore-stop``).
"""

from __future__ import annotations

import argparse
import json
import sys

from evaluation.core.cli._lowcost import add_measure_and_estimates, load_estimated, run_safely
from evaluation.core.lowcost import ProbabilisticMeasure, stopping_state
from evaluation.core.lowcost.selection import best_pairs, judgment_weights


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core next",
        description="Which (query, document) pairs to judge next (thesis §8.3-8.4).",
    )
    add_measure_and_estimates(parser)
    parser.add_argument("-n", type=int, default=10, help="how many pairs (default 10)")
    parser.add_argument("--target", choices=("relative", "absolute"), default="relative")
    parser.add_argument("--confidence", type=float, default=0.95, help="relative stop (0.95)")
    parser.add_argument("--half-width", type=float, default=0.05, help="absolute stop (0.05)")
    parser.add_argument("--uncorrected", action="store_true", help="absolute: eq. 8.19 as is")
    parser.add_argument("--ignore-stop", action="store_true", help="list pairs even when done")
    parser.add_argument("--format", choices=("tsv", "json"), default="tsv")
    parser.add_argument("--digits", type=int, default=4)
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        if options.n < 1:
            raise ValueError(f"-n must be at least 1, got {options.n}")
        inputs, estimates = load_estimated(options)
        kernel = ProbabilisticMeasure(inputs.pool, options.measure, scale=options.scale)
        scores = kernel.scores(estimates)
        state = stopping_state(
            scores,
            target=options.target,
            confidence=options.confidence,
            half_width=options.half_width,
            corrected=not options.uncorrected,
        )
        pairs = []
        if not state.stop or options.ignore_stop:
            weights = judgment_weights(kernel, estimates, target=options.target, scores=scores)
            chosen = best_pairs(weights, estimates, options.n)
            names = inputs.pool.pair_names(chosen)
            pairs = [
                {
                    "query": q,
                    "doc": d,
                    "expectation": float(estimates.expectation[p]),
                    "variance": float(estimates.variance[p]),
                    "weight": float(weights[p]),
                }
                for p, (q, d) in zip(chosen.tolist(), names, strict=True)
            ]
        if options.format == "json":
            out = {
                "measure": kernel.spec.label,
                "target": options.target,
                "stop": state.stop,
                "value": state.value,
                "threshold": state.threshold,
                "rule": state.rule,
                "judged": int(estimates.judged.sum()),
                "pairs": pairs,
            }
            sys.stdout.write(json.dumps(out, indent=2) + "\n")
            return 0
        d = options.digits
        lines = [
            f"# {kernel.spec.label}, target {options.target}: {state.rule}",
            f"# now {state.value:.{d}f} -> {'stop' if state.stop else 'keep judging'}"
            f" ({int(estimates.judged.sum())} of {inputs.pool.n_pairs} pairs judged)",
        ]
        lines += [
            f"{r['query']}\t{r['doc']}\t{r['expectation']:.{d}f}\t{r['variance']:.{d}f}\t{r['weight']:.{d}f}"
            for r in pairs
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0

    return run_safely(body)
