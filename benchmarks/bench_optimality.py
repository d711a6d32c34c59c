"""Benchmark of the split-half optimality study (``evaluation.core.optimality``, issue 33).

The issue's target: 300 trials × 153 pairs × 5 tests × 14 measure/scale combinations at
1,000 resamples within minutes on one core. Two sizes:

``mirex``
    MIREX 2011 (18 systems, 153 pairs, 100 queries): the 8 combinations of thesis Table
    5.2 its Fine judgments score, and 6 more on the artificial 3-level scale of §3.1.2
    (``graded3``) standing in for Broad, which MIREX 2011 lacks: 14 in all.
``large``
    100 systems (4,950 pairs) × 1,000 queries of synthetic scores in [0, 1], 1 measure.

``driver`` runs :func:`split_half_optimality`; ``naive`` runs the same study as it would
be written without the driver — :func:`evaluation.core.pairwise.all_pairs` on each half
of each split, each measure and each test, Wilcoxon's one pair at a time through scipy —
the floor the driver's vectorisation is measured against (run them interleaved with
``farm-bench``, see ``docs/benchmarks.md``). Both print their CPU time and the rates they
found at α = 0.05, which agree.

Run from the repository root::

    python benchmarks/bench_optimality.py driver --size mirex --trials 300
    farm-bench -n 3 --timeout 900 -- .venv/bin/python benchmarks/bench_optimality.py \\
        driver --size mirex --trials 10 \\
        --vs ".venv/bin/python benchmarks/bench_optimality.py naive --size mirex --trials 10"
    python benchmarks/bench_optimality.py driver --size large --trials 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.core.cli.inputs import evaluate_inputs  # noqa: E402
from evaluation.core.names import parse_measures  # noqa: E402
from evaluation.core.optimality import (  # noqa: E402
    TABLE_5_2,
    random_splits,
    split_half_optimality,
    trial_seed,
)
from evaluation.core.pairwise import all_pairs  # noqa: E402
from evaluation.core.scores import ScoreMatrix  # noqa: E402
from evaluation.core.significance import TESTS  # noqa: E402

MIREX = ROOT.parent / "shared" / "data" / "mirex2011-ams"
SEED = 20130701


def mirex_matrices() -> list[ScoreMatrix]:
    fine = [m for m in TABLE_5_2 if "broad" not in m]
    graded3 = [m.replace("broad", "graded3") for m in TABLE_5_2 if "broad" in m]
    parsed = [parse_measures(m)[0] for m in fine + graded3]
    results = evaluate_inputs(str(MIREX / "judgments.tsv"), [str(MIREX / "runs.tsv")], parsed)
    return [results.matrix(m) for m in parsed]


def large_matrices() -> list[ScoreMatrix]:
    rng = np.random.default_rng(SEED)
    quality = rng.uniform(0.2, 0.6, size=(100, 1))
    X = np.clip(quality + rng.normal(0, 0.2, size=(100, 1000)), 0, 1)
    systems = tuple(f"s{i}" for i in range(100))
    return [ScoreMatrix("score", systems, tuple(f"q{j}" for j in range(1000)), X)]


def naive(matrices, *, trials: int, resamples: int) -> dict:
    """§5.3 written plainly: all_pairs per split, half, measure and test (per-pair Wilcoxon)."""
    n = len(matrices[0].queries)
    splits = random_splits(n, trials=trials, seed=SEED)
    root = np.random.SeedSequence(SEED)
    counts = {t: [0, 0] for t in TESTS}  # significant with Q1, confirmed
    for t, (q1, q2) in enumerate(splits):
        for m in matrices:
            for test in TESTS:
                halves = [
                    all_pairs(
                        ScoreMatrix(m.measure, m.systems, m.queries[: len(q)], m.scores[:, q]),
                        test=test,
                        resamples=resamples,
                        seed=trial_seed(root, t, h),
                    )
                    for h, q in enumerate((q1, q2))
                ]
                iu = np.triu_indices(len(m.systems), 1)
                p1, p2 = halves[0].pvalue[iu], halves[1].pvalue[iu]
                same = halves[0].mean_difference[iu] * halves[1].mean_difference[iu] > 0
                counts[test][0] += int((p1 <= 0.05).sum())
                counts[test][1] += int(((p1 <= 0.05) & (p2 <= 0.05) & same).sum())
    return {t: {"significant": s, "success": c / s if s else None} for t, (s, c) in counts.items()}


def driver(matrices, *, trials: int, resamples: int) -> dict:
    result = split_half_optimality(matrices, trials=trials, resamples=resamples, seed=SEED)
    print(f"cost: {result.cost.statement}", file=sys.stderr)
    doc = result.to_dict(alpha=0.05)
    i = doc["alphas"].index(0.05)
    return {
        g["test"]: {"significant": g["significant"][i], "success": g["rates"]["success"][i]}
        for g in doc["by_test"]
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("how", choices=("driver", "naive"))
    parser.add_argument("--size", choices=("mirex", "large"), default="mirex")
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--resamples", type=int, default=1000)
    ns = parser.parse_args()
    matrices = mirex_matrices() if ns.size == "mirex" else large_matrices()
    start = time.process_time()
    figures = (driver if ns.how == "driver" else naive)(
        matrices, trials=ns.trials, resamples=ns.resamples
    )
    cpu = time.process_time() - start
    k, n = matrices[0].scores.shape
    print(
        json.dumps(
            {
                "how": ns.how,
                "size": f"{k} systems × {n} queries × {len(matrices)} measures",
                "trials": ns.trials,
                "resamples": ns.resamples,
                "cpu_seconds": round(cpu, 2),
                "at_alpha_0.05": figures,
            },
            ensure_ascii=False,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
