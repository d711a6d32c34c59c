"""Benchmark of the all-pairs significance tests of ``evaluation.core.stats``.

(a) All-pairs permutation test, 10 systems × 1,000 queries × 1,000 permutations, side by
    side in one run with ranx's ``compare(..., stat_test="fisher", n_permutations=1000)``
    on the same per-query scores (ranx's own nDCG@10 of random runs). Goal: at most half
    of ranx's time.
(b) Thesis scale: 20 systems × 100 queries, 100,000 permutation and 100,000 bootstrap
    resamples per pair. Goal: a few seconds, peak memory under 1 GiB. Measured in a
    child process so that its peak resident memory is its own.

Run from the repository root::

    python benchmarks/bench_significance.py            # both parts
    python benchmarks/bench_significance.py --part b   # thesis scale only

Needs ranx for part (a): ``pip install ranx==0.3.21`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.core.stats import all_pairs  # noqa: E402


def timed(fn, repeats):
    times = []
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), out


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import scipy

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "load_average": os.getloadavg(),
    }


def part_a(repeats: int) -> dict:
    import ranx
    from ranx import Qrels, Run, compare, evaluate

    n_sys, n_q, depth = 10, 1000, 20
    rng = np.random.default_rng(2013)
    qrels = Qrels(
        {
            f"q{q}": {f"d{d}": int(rng.integers(1, 3)) for d in rng.choice(100, 15, replace=False)}
            for q in range(n_q)
        }
    )
    runs = []
    for s in range(n_sys):
        quality = 0.3 + 0.003 * s  # close systems, so that p-values spread over (0, 1)
        run = {}
        for q in range(n_q):
            rel = list(qrels[f"q{q}"].keys())
            docs = [
                rel[int(rng.integers(len(rel)))]
                if rng.random() < quality
                else f"d{int(rng.integers(100))}"
                for _ in range(depth)
            ]
            uniq = list(dict.fromkeys(docs))
            run[f"q{q}"] = {d: float(depth - i) for i, d in enumerate(uniq)}
        runs.append(Run(run, name=f"s{s}"))

    # Compile ranx's numba kernels first (cache=True may also hit its on-disk cache).
    compare(qrels, runs[:2], "ndcg@10", stat_test="fisher", n_permutations=10)

    def run_ranx():
        return compare(qrels, runs, "ndcg@10", stat_test="fisher", n_permutations=1000)

    def ranx_scores():
        return np.array([evaluate(qrels, r, "ndcg@10", return_mean=False) for r in runs])

    t_ranx, t_ranx_min, report = timed(run_ranx, repeats)
    t_eval, _, X = timed(ranx_scores, repeats)

    def ours():
        return all_pairs(X, test="permutation", resamples=1000, seed=1)

    ours()  # warm-up: imports, BLAS threads
    t_ours, t_ours_min, res = timed(ours, repeats)

    diffs = []
    informative = 0
    names = [r.name for r in runs]
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            p_ranx = report.comparisons[names[i], names[j]]["ndcg@10"]["p_value"]
            diffs.append(abs(p_ranx - res.pvalue[i, j]))
            informative += 0.01 < p_ranx < 0.99
    return {
        "design": f"{n_sys} systems × {n_q} queries, 1000 permutations, 45 pairs",
        "ranx_version": ranx.__version__ if hasattr(ranx, "__version__") else "0.3.21",
        "ranx_compare_s": t_ranx,
        "ranx_compare_min_s": t_ranx_min,
        "ranx_evaluate_only_s": t_eval,
        "ranx_tests_only_estimate_s": t_ranx - t_eval,
        "ours_all_pairs_s": t_ours,
        "ours_all_pairs_min_s": t_ours_min,
        "ratio_ours_over_ranx_compare": t_ours / t_ranx,
        "ratio_ours_over_ranx_tests_only": t_ours / max(t_ranx - t_eval, 1e-9),
        "max_abs_pvalue_difference": max(diffs),
        "mean_abs_pvalue_difference": float(np.mean(diffs)),
        "pairs_with_ranx_p_in_0.01_0.99": informative,
        "repeats": repeats,
    }


def part_b(repeats: int) -> dict:
    rng = np.random.default_rng(2013)
    X = np.clip(
        rng.beta(2, 3, (1, 100)) + rng.normal(0, 0.05, (20, 1)) + rng.normal(0, 0.1, (20, 100)),
        0,
        1,
    )
    out = {"design": "20 systems × 100 queries, 190 pairs, 100,000 resamples per pair"}
    for test in ("permutation", "bootstrap"):
        all_pairs(X, test=test, resamples=1000, seed=0)  # warm-up
        t, tmin, _ = timed(
            lambda test=test: all_pairs(X, test=test, resamples=100_000, seed=1), repeats
        )
        tracemalloc.start()
        all_pairs(X, test=test, resamples=100_000, seed=1)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[test] = {"median_s": t, "min_s": tmin, "traced_peak_MiB": peak / 2**20}
    out["max_rss_MiB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["repeats"] = repeats
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("a", "b", "all"), default="all")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print machine-readable results only")
    args = ap.parse_args(argv)
    results = {"machine": machine()}
    if args.part in ("a", "all"):
        results["a"] = part_a(args.repeats)
    if args.part == "b":
        results["b"] = part_b(args.repeats)
    elif args.part == "all":  # a fresh process, so that its peak memory is its own
        child = subprocess.run(
            [sys.executable, __file__, "--part", "b", "--repeats", str(args.repeats), "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        results["b"] = json.loads(child.stdout)["b"]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    m = results["machine"]
    print(
        f"machine: {m['cpu']}, {m['cores']} cores; Python {m['python']}, numpy {m['numpy']}, "
        f"scipy {m['scipy']}; load average {tuple(round(x, 2) for x in m['load_average'])}"
    )
    if "a" in results:
        a = results["a"]
        print(f"\n(a) {a['design']} (median of {a['repeats']})")
        print(f"  ranx compare(stat_test='fisher')    {a['ranx_compare_s']:8.3f} s")
        print(f"    of which ranx evaluate (nDCG@10)  {a['ranx_evaluate_only_s']:8.3f} s")
        print(f"  evaluation.core.stats.all_pairs     {a['ours_all_pairs_s']:8.3f} s")
        print(f"  ratio ours / ranx compare            {a['ratio_ours_over_ranx_compare']:8.4f}")
        print(f"  ratio ours / ranx tests only         {a['ratio_ours_over_ranx_tests_only']:8.4f}")
        print(
            f"  p-values |ours − ranx|: mean {a['mean_abs_pvalue_difference']:.4f}, "
            f"max {a['max_abs_pvalue_difference']:.4f} "
            f"({a['pairs_with_ranx_p_in_0.01_0.99']} of 45 pairs with 0.01 < p < 0.99)"
        )
    b = results["b"]
    print(f"\n(b) {b['design']} (median of {b['repeats']})")
    for test in ("permutation", "bootstrap"):
        print(
            f"  {test:<12} {b[test]['median_s']:7.3f} s   traced peak {b[test]['traced_peak_MiB']:7.1f} MiB"
        )
    print(f"  process peak RSS {b['max_rss_MiB']:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
