"""``python -m evaluation.core estimate QRELS RUN ... --metadata META``

E[R] and Var[R] of every unjudged (query, document) pair of the runs' pool (thesis
§7.1–7.2), one ``query<TAB>doc<TAB>E<TAB>Var`` line each, what ``evaluate --estimates``
and ``next --estimates`` read. ``--all`` adds the judged pairs (E = judgment, Var = 0)
and ``--source`` a fifth column naming the model that estimated each pair.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from evaluation.core.cli._lowcost import (
    add_depth,
    add_estimator,
    add_inputs,
    estimator_for,
    load_inputs,
    run_safely,
)
from evaluation.core.lowcost import SOURCES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core estimate",
        description="Estimate the relevance of unjudged pairs (thesis ch. 7, appendix A).",
    )
    add_inputs(parser)
    add_estimator(parser)
    add_depth(parser)
    parser.add_argument("--all", action="store_true", help="list judged pairs too")
    parser.add_argument("--source", action="store_true", help="add the estimating model")
    parser.add_argument("--digits", type=int, default=4, help="decimals (default 4)")
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        inputs = load_inputs(options, depth=options.depth)
        estimates = estimator_for(inputs, options).estimate(inputs.judged)
        rows = np.arange(inputs.pool.n_pairs)
        if not options.all:
            rows = rows[~estimates.judged]
        d = options.digits
        out = []
        for p, (query, doc) in zip(rows.tolist(), inputs.pool.pair_names(rows), strict=True):
            fields = [
                query,
                doc,
                f"{estimates.expectation[p]:.{d}f}",
                f"{estimates.variance[p]:.{d}f}",
            ]
            if options.source:
                fields.append(SOURCES[estimates.source[p]])
            out.append("\t".join(fields))
        sys.stdout.write("".join(line + "\n" for line in out))
        return 0

    return run_safely(body)
