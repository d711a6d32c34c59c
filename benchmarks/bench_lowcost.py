"""Low-cost evaluation (issue 15): speed, and the MIREX 2011 tables side by side.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_lowcost.py [--quick]

(a) one ``next`` decision at MIREX 2011 scale (18 systems x 100 queries, 6,322 pairs):
    re-estimate with M_jud, score, weigh, pick; median of 50 over a half-judged state;
(b) a full ``simulate`` of MIREX 2011 (all 6,322 judgments, M_jud every 20) per
    measure, relative and absolute targets, with Tables 8.1, 8.3, 8.5 and 8.6 beside
    the thesis' figures;
(c) estimates and expected scores for 100 systems x 1,000 queries (synthetic, seed 0).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from evaluation.core.lowcost import (
    Metadata,
    Pool,
    ProbabilisticMeasure,
    RelevanceEstimator,
    read_metadata,
    simulate,
)
from evaluation.core.lowcost.published import TABLE_8_1, TABLE_8_3, TABLE_8_5, TABLE_8_6
from evaluation.core.lowcost.selection import best_pairs, judgment_weights
from evaluation.core.trec import Run, read_qrels, read_runs
from tests.helpers.shared_data import MIREX2011

MEASURES = ("CG@5", "DCG@5", "nDCG@5", "RBP@5")


def load():
    qrels = read_qrels(MIREX2011 / "judgments.tsv")
    runs = read_runs(MIREX2011 / "runs.tsv")
    metadata = read_metadata(MIREX2011 / "metadata.tsv")
    pool = Pool.from_runs(runs, depth=5, qrels=qrels)
    return pool, pool.judgments(qrels), metadata


def bench_next(pool, truth, metadata) -> None:
    rng = np.random.default_rng(0)
    judged = np.where(rng.random(pool.n_pairs) < 0.5, truth, np.nan)
    chain = RelevanceEstimator(pool, metadata)
    print("(a) one next decision, MIREX 2011, half judged (median of 50, ms)")
    print("| measure | re-estimate + score + weigh + pick | score + weigh + pick |")
    print("|---|---:|---:|")
    for name in MEASURES:
        kernel = ProbabilisticMeasure(pool, name)
        full, light = [], []
        estimates = chain.estimate(judged)
        for _ in range(50):
            t0 = time.perf_counter()
            est = chain.estimate(judged)
            t1 = time.perf_counter()
            weights = judgment_weights(kernel, est, target="relative", scores=kernel.scores(est))
            best_pairs(weights, est, 1)
            t2 = time.perf_counter()
            full.append(t2 - t0)
            light.append(t2 - t1)
        del estimates
        print(f"| {name} | {1000 * np.median(full):.1f} | {1000 * np.median(light):.1f} |")


def row(values: dict, columns) -> str:
    return " | ".join("-" if values.get(c) is None else _fmt(c, values[c]) for c in columns)


def _fmt(column, value):
    if column == "judgments":
        return f"{int(value)} ({value / 6322:.1%})"
    return f"{value:.3f}"


def bench_simulate(pool, truth, metadata, measures) -> None:
    print("\n(b) full simulate of MIREX 2011 (6,322 judgments, M_jud every 20)")
    c81 = ("confidence", "accuracy", "tau", "rmse_delta", "rho", "rmse")
    c83 = ("judgments", "accuracy", "tau", "rmse_delta")
    c85 = ("judgments", "mae", "rho")
    tables = {k: [] for k in ("8.1", "8.3", "8.5", "8.6")}
    for name in measures:
        for target in ("relative", "absolute"):
            t0 = time.perf_counter()
            result = simulate(pool, truth, name, metadata, target=target, every=1000)
            seconds = time.perf_counter() - t0
            print(f"simulate {name} --target {target}: {seconds:.1f} s, {len(result.steps)} steps")
            if target == "relative":
                tables["8.1"].append((name, result.steps[0].__dict__, TABLE_8_1[name], c81))
                stop = result.stops.get("confidence", {}).get("step", {})
                tables["8.3"].append((name, stop, TABLE_8_3[name], c83))
            else:
                for key, table, stop in (
                    ("8.5", TABLE_8_5, "uncorrected"),
                    ("8.6", TABLE_8_6, "corrected"),
                ):
                    got = result.stops.get(stop, {}).get("step", {})
                    tables[key].append((name, got, table[name], c85))
    for key, rows in tables.items():
        columns = rows[0][3]
        print(f"\nTable {key}, MIREX 2011, Fine: reproduced / thesis")
        print("| measure | | " + " | ".join(columns) + " |")
        print("|---|---|" + "---:|" * len(columns))
        for name, got, published, cols in rows:
            print(f"| {name} | ours | {row(got, cols)} |")
            print(f"| | thesis | {row(published, cols)} |")


def bench_large() -> None:
    rng = np.random.default_rng(0)
    n_sys, n_q, depth, n_docs = 100, 1000, 5, 20000
    artists = rng.integers(0, 2000, n_docs)
    genres = rng.integers(0, 10, n_docs)
    metadata = Metadata(
        {f"d{i}": f"a{artists[i]}" for i in range(n_docs)},
        {
            **{f"d{i}": f"g{genres[i]}" for i in range(n_docs)},
            **{f"q{q}": "g0" for q in range(n_q)},
        },
    )
    candidates = [rng.choice(n_docs, 60, replace=False) for _ in range(n_q)]
    runs = {}
    for s in range(n_sys):
        lists = {
            f"q{q}": [f"d{d}" for d in rng.choice(candidates[q], depth, replace=False)]
            for q in range(n_q)
        }
        runs[f"s{s}"] = Run.from_ranked_lists(lists, name=f"s{s}")
    t0 = time.perf_counter()
    pool = Pool.from_runs(runs, depth=depth)
    t1 = time.perf_counter()
    judged = np.where(rng.random(pool.n_pairs) < 0.1, rng.integers(0, 101, pool.n_pairs), np.nan)
    chain = RelevanceEstimator(pool, metadata)
    t2 = time.perf_counter()
    est = chain.estimate(judged)
    t3 = time.perf_counter()
    scores = ProbabilisticMeasure(pool, "nDCG@5").scores(est)
    t4 = time.perf_counter()
    print(f"\n(c) 100 systems x 1,000 queries: {pool.n_pairs} pairs")
    print("| step | seconds |")
    print("|---|---:|")
    print(f"| pool from 100 runs | {t1 - t0:.2f} |")
    print(f"| output features + M_out (once) | {t2 - t1:.2f} |")
    print(f"| judgment features + M_jud (10% judged) | {t3 - t2:.2f} |")
    print(f"| expected nDCG@5, 4,950 differences, confidences | {t4 - t3:.2f} |")
    print(f"(ranking confidence {scores.ranking_confidence:.3f}; sources {est.counts()})")


def main() -> None:
    pool, truth, metadata = load()
    bench_next(pool, truth, metadata)
    bench_large()
    measures = MEASURES[:1] if "--quick" in sys.argv else MEASURES
    bench_simulate(pool, truth, metadata, measures)


if __name__ == "__main__":
    main()
