"""Groups from experts' rankings (issue 32): is recomputing a query's groups after each
submitted ranking cheap enough to do in the submission's request?

    PYTHONPATH=. .venv/bin/python benchmarks/bench_ranking_groups.py

For a query of n candidates ranked by m experts (each a strict order: a common order
with each expert's places disturbed by noise, seed 0), the median over 20 runs of
``groups_from_ranks`` under each rule (Typke et al.'s ``all`` compares a candidate with
every candidate of the current group: the most rank-sum tests) and of ``kendalls_w``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from evaluation.core.ordered_groups import groups_from_ranks, kendalls_w
from evaluation.core.ordered_groups.rankings import RULES

SIZES = [(10, 10), (30, 30), (60, 60)]


def study(n: int, m: int, noise: float, rng) -> tuple[dict[str, list[int]], list[list[str]]]:
    docs = [f"d{i:03d}" for i in range(n)]
    orders = [
        [docs[i] for i in np.argsort(np.arange(n) + rng.normal(0, noise, n))] for _ in range(m)
    ]
    ranks = {doc: [order.index(doc) + 1 for order in orders] for doc in docs}
    return ranks, orders


def median_ms(action, runs: int = 20) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(0)
    print(
        "| candidates × experts | noise | groups (all) | all ms | any ms | prev ms | Kendall's W ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for n, m in SIZES:
        for noise in (2.0, 20.0):  # agreeing experts (many groups), disagreeing (few, large)
            ranks, orders = study(n, m, noise, rng)
            groups = len(groups_from_ranks(ranks, rule="all").groups)
            cells = [
                median_ms(lambda r=rule, k=ranks: groups_from_ranks(k, rule=r)) for rule in RULES
            ]
            w = median_ms(lambda o=orders: kendalls_w(o))
            print(
                f"| {n} × {m} | {noise:g} | {groups} | "
                + " | ".join(f"{c:.1f}" for c in cells)
                + f" | {w:.1f} |"
            )


if __name__ == "__main__":
    main()
