"""``python -m evaluation.core features QRELS RUN ... --metadata META``

Every feature of thesis §7.2.3 for every pair of the pool, as a tab-separated table with
a header: ``query doc relevance fSYS fTEAM OV aRANK sGEN fGEN fART aSYS aDOC aGEN aART``
(``NA`` where a feature cannot be computed or the pair is unjudged), to check models or
fit new ones elsewhere. Judgment-based features leave the pair's own judgment out
unless ``--include-own`` (how the thesis fitted M_jud).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from evaluation.core.cli._lowcost import add_depth, add_inputs, load_inputs, run_safely
from evaluation.core.lowcost import FEATURES, all_features


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core features",
        description="Features of every (query, document) pair (thesis §7.2.3).",
    )
    add_inputs(parser)
    add_depth(parser)
    parser.add_argument("--include-own", action="store_true", help="count a pair's own judgment")
    parser.add_argument("--digits", type=int, default=4, help="decimals (default 4)")
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        inputs = load_inputs(options, depth=options.depth)
        features = all_features(
            inputs.pool, inputs.judged, inputs.metadata, teams=inputs.teams, own=options.include_own
        )
        d = options.digits

        def show(value: float) -> str:
            return "NA" if np.isnan(value) else f"{value:.{d}f}".rstrip("0").rstrip(".")

        lines = ["\t".join(("query", "doc", "relevance", *FEATURES))]
        names = inputs.pool.pair_names(range(inputs.pool.n_pairs))
        columns = [inputs.judged] + [features[f] for f in FEATURES]
        for p, (query, doc) in enumerate(names):
            lines.append("\t".join([query, doc, *(show(c[p]) for c in columns)]))
        sys.stdout.write("\n".join(lines) + "\n")
        return 0

    return run_safely(body)
