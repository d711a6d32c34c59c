"""Benchmark of evaluation.core's measures against ranx and pytrec_eval (not a test).

    python benchmarks/bench_measures.py [--queries 10000] [--depth 1000] [--judged 100]

Generates (once, deterministically) ``benchmarks/data/{qrels,run}.txt`` with
:mod:`benchmarks.generate`, then times, side by side in one run:

(a) parsing the qrels and the run into each tool's in-memory form;
(b) computing nDCG@10, AP (map), P@10 and RR from parsed data — for ranx the second
    ``evaluate`` in the same process (numba compiled, cache warm);
(c) the whole thing as a process: our command line, a pytrec_eval script (parse +
    evaluate) and a ranx script, with wall time and peak memory (max RSS).

Each tool runs in its own subprocess so that memory figures do not mix. Prints a
Markdown table for ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
MEASURES = {
    "ours": ["nDCG@10", "map", "P@10", "recip_rank"],
    "ranx": ["ndcg@10", "map", "precision@10", "mrr"],
    "pytrec_eval": ["ndcg_cut.10", "map", "P.10", "recip_rank"],
}


def worker(tool: str, qrels_path: str, run_path: str) -> dict:
    """In-process timings of (a) parsing and (b) computing, plus the means found."""
    clock = time.perf_counter
    if tool == "ours":
        from evaluation.core import evaluate, read_qrels, read_runs

        t0 = clock()
        qrels, runs = read_qrels(qrels_path), read_runs(run_path)
        t1 = clock()
        results = evaluate(qrels, runs, MEASURES[tool])
        t2 = clock()
        means = next(iter(results.means().values()))
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate

        t0 = clock()
        qrels, run = Qrels.from_file(qrels_path, kind="trec"), Run.from_file(run_path, kind="trec")
        t1 = clock()
        evaluate(qrels, run, MEASURES[tool])  # first call: numba dispatch, caches
        t1b = clock()
        means = evaluate(qrels, run, MEASURES[tool])
        t2 = clock()
        t1, first = t1b, t1b - t1  # (b) is the repeated evaluate
    else:
        import pytrec_eval

        t0 = clock()
        with open(qrels_path) as q, open(run_path) as r:
            qrels, run = pytrec_eval.parse_qrel(q), pytrec_eval.parse_run(r)
        t1 = clock()
        per_query = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES[tool])).evaluate(run)
        t2 = clock()
        names = sorted({m for v in per_query.values() for m in v})
        means = {m: sum(v[m] for v in per_query.values()) / len(per_query) for m in names}
    out = {"parse": t1 - t0, "compute": t2 - t1, "means": {k: float(v) for k, v in means.items()}}
    if tool == "ranx":
        out["first_evaluate"] = first
    return out


SCRIPTS = {
    "ours": lambda q, r: [sys.executable, "-m", "evaluation.core", q, r]
    + [x for m in ["ndcg_cut.10", "map", "P.10", "recip_rank"] for x in ("-m", m)],
    "pytrec_eval": lambda q, r: [sys.executable, "-c", (
        "import pytrec_eval\n"
        f"q = pytrec_eval.parse_qrel(open({q!r}))\nr = pytrec_eval.parse_run(open({r!r}))\n"
        "res = pytrec_eval.RelevanceEvaluator(q, {'ndcg_cut.10','map','P.10','recip_rank'})"
        ".evaluate(r)\n"
        "for m in ('ndcg_cut_10','map','P_10','recip_rank'):\n"
        "    print(m, sum(v[m] for v in res.values()) / len(res))\n"
    )],
    "ranx": lambda q, r: [sys.executable, "-c", (
        "from ranx import Qrels, Run, evaluate\n"
        f"print(evaluate(Qrels.from_file({q!r}, kind='trec'), Run.from_file({r!r}, kind='trec'),"
        " ['ndcg@10', 'map', 'precision@10', 'mrr']))\n"
    )],
}  # fmt: skip


def run_process(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and stdout of a child process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{command[:3]} failed with status {status}")
    return wall, usage.ru_maxrss / 1024, output


def machine() -> str:
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
    cpu = next((x.split(":", 1)[1].strip() for x in cpuinfo if "model name" in x), "?")
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    memory = next(x.split()[1] for x in meminfo if x.startswith("MemTotal"))
    import numpy

    return (
        f"{cpu}, {os.cpu_count()} cores, {int(memory) // 1024 // 1024} GB RAM; Python "
        f"{platform.python_version()}, numpy {numpy.__version__}; load average at start "
        f"{os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--judged", type=int, default=100)
    parser.add_argument("--worker", choices=tuple(MEASURES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    qrels, run = DATA / "qrels.txt", DATA / "run.txt"
    if args.worker:
        print(json.dumps(worker(args.worker, str(qrels), str(run))))
        return
    if not run.exists():
        sys.path.insert(0, str(HERE))
        from generate import generate

        generate(args.queries, args.depth, args.judged, seed=0)
    print(f"Machine: {machine()}")
    print(f"Data: {run.stat().st_size:,} bytes of run, {qrels.stat().st_size:,} of qrels\n")
    # warm ranx's numba cache on a tiny collection so no timing includes compilation
    tiny = DATA / "tiny"
    tiny.mkdir(exist_ok=True)
    (tiny / "q").write_text("1 0 a 1\n")
    (tiny / "r").write_text("1 Q0 a 1 1.0 t\n")
    run_process(SCRIPTS["ranx"](str(tiny / "q"), str(tiny / "r")))
    rows = {}
    for tool in ("ours", "pytrec_eval", "ranx"):
        _, _, out = run_process([sys.executable, str(HERE / "bench_measures.py"), "--worker", tool])
        timings = json.loads(out)
        wall, rss, _ = run_process(SCRIPTS[tool](str(qrels), str(run)))
        rows[tool] = {**timings, "process": wall, "rss": rss}
        print(tool, json.dumps(rows[tool]), flush=True)
    print("\n| tool | (a) parse s | (b) compute s | (c) whole process s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|")
    for tool, r in rows.items():
        print(
            f"| {tool} | {r['parse']:.2f} | {r['compute']:.2f} | {r['process']:.2f} | "
            f"{r['rss']:.0f} |"
        )
    ours, ranx, pte = rows["ours"], rows["ranx"], rows["pytrec_eval"]
    print(
        f"\n(b) ours / ranx repeated evaluate: {ours['compute'] / ranx['compute']:.2f} (goal <= 0.5)"
    )
    print(f"(c) ours / pytrec_eval process: {ours['process'] / pte['process']:.2f} (goal <= 0.5)")
    print(f"peak memory ours / pytrec_eval: {ours['rss'] / pte['rss']:.2f} (goal <= 1)")


if __name__ == "__main__":
    main()
