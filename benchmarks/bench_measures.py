"""Benchmark of evaluation.core's measures against trec_eval, pytrec_eval and ranx (not a test).

    python benchmarks/bench_measures.py [--trec-eval PATH] [--before DIR] [--repeat 3]
                                        [--phases] [--queries 10000] [--depth 1000]

Generates (once, deterministically) ``benchmarks/data/{qrels,run}.txt`` with
:mod:`benchmarks.generate`, then measures, side by side in one run:

(c) the whole thing as a process — our command line (``python -m evaluation.core``),
    trec_eval itself when ``--trec-eval PATH`` (or the ``TREC_EVAL`` environment
    variable) names a binary, a pytrec_eval script (parse + evaluate) and a ranx script
    (each when installed), and with ``--before DIR`` our command line from another
    checkout (e.g. ``git worktree add DIR main``) — with wall time and peak memory
    (``ru_maxrss`` through ``wait4``) and CPU time (user + system, all threads, which
    depends less on the machine's load). Each is run ``--repeat`` times, the tools in
    turn, and the median is reported (with the spread), so that a change in the
    machine's load hits all of them alike;
(a), (b) with ``--phases``, in-process timings of parsing the qrels and the run into
    each tool's in-memory form, and of computing nDCG@10, AP (map), P@10 and RR from
    parsed data (for ranx the second ``evaluate``, numba compiled and cache warm).

Every process's means are checked against ours (to trec_eval's 4 printed decimals).
Each tool runs in its own subprocess so that memory figures do not mix. Prints
Markdown tables for ``docs/benchmarks.md``. trec_eval is not part of the project:
build it yourself from https://github.com/usnistgov/trec_eval (``make``, with -O2).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
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
TREC_NAMES = ["ndcg_cut.10", "map", "P.10", "recip_rank"]  # trec_eval's -m names
OUTPUT_NAMES = ["ndcg_cut_10", "map", "P_10", "recip_rank"]  # and as it prints them


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


def ours(q: str, r: str) -> list[str]:
    return [sys.executable, "-m", "evaluation.core", q, r] + [
        x for m in TREC_NAMES for x in ("-m", m)
    ]


SCRIPTS = {
    "ours": ours,
    "pytrec_eval": lambda q, r: [sys.executable, "-c", (
        "import pytrec_eval\n"
        f"q = pytrec_eval.parse_qrel(open({q!r}))\nr = pytrec_eval.parse_run(open({r!r}))\n"
        "res = pytrec_eval.RelevanceEvaluator(q, {'ndcg_cut.10','map','P.10','recip_rank'})"
        ".evaluate(r)\n"
        "for m in ('ndcg_cut_10','map','P_10','recip_rank'):\n"
        "    print(m, 'all', sum(v[m] for v in res.values()) / len(res))\n"
    )],
    "ranx": lambda q, r: [sys.executable, "-c", (
        "from ranx import Qrels, Run, evaluate\n"
        f"m = evaluate(Qrels.from_file({q!r}, kind='trec'), Run.from_file({r!r}, kind='trec'),"
        " ['ndcg@10', 'map', 'precision@10', 'mrr'])\n"
        "for a, b in zip(('ndcg_cut_10', 'map', 'P_10', 'recip_rank'),"
        " ('ndcg@10', 'map', 'precision@10', 'mrr')):\n"
        "    print(a, 'all', m[b])\n"
    )],
}  # fmt: skip


def run_process(command: list[str], pythonpath: Path = ROOT) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak RSS in MiB and stdout of a child."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=pythonpath, env=env, stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{command[:3]} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def means_printed(output: str) -> dict[str, float]:
    """``{measure: mean}`` from trec_eval-style lines ``measure all value``."""
    found = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "all" and fields[0] in OUTPUT_NAMES:
            found[fields[0]] = float(fields[2])
    return found


def machine() -> str:
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
    cpu = next((x.split(":", 1)[1].strip() for x in cpuinfo if "model name" in x), "?")
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    memory = next(x.split()[1] for x in meminfo if x.startswith("MemTotal"))
    import numpy
    import pyarrow

    return (
        f"{cpu}, {os.cpu_count()} cores, {int(memory) // 1024 // 1024} GB RAM; Python "
        f"{platform.python_version()}, numpy {numpy.__version__}, pyarrow {pyarrow.__version__}"
    )


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def installed(tool: str) -> bool:
    module = {"pytrec_eval": "pytrec_eval", "ranx": "ranx"}.get(tool)
    return module is None or importlib.util.find_spec(module) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--judged", type=int, default=100)
    parser.add_argument(
        "--trec-eval",
        default=os.environ.get("TREC_EVAL"),
        metavar="PATH",
        help="a trec_eval binary to run alongside (default: $TREC_EVAL; skipped if unset)",
    )
    parser.add_argument(
        "--before", metavar="DIR", help="also run the command line of this checkout"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each whole process")
    parser.add_argument("--phases", action="store_true", help="also time (a) and (b)")
    parser.add_argument("--worker", choices=tuple(MEASURES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    qrels, run = DATA / "qrels.txt", DATA / "run.txt"
    if args.worker:
        print(json.dumps(worker(args.worker, str(qrels), str(run))))
        return
    if not run.exists():
        # In a child process: generating takes ~1.7 GiB, and a parent that big would
        # pass its peak resident size on to every tool it starts (Linux keeps
        # ru_maxrss across fork and exec), hiding the tools' own peaks.
        generator = [sys.executable, str(HERE / "generate.py"), "--queries", str(args.queries)]
        generator += ["--depth", str(args.depth), "--judged", str(args.judged), "--seed", "0"]
        subprocess.run(generator, check=True)
    print(f"Machine: {machine()}")
    print(f"Data: {run.stat().st_size:,} bytes of run, {qrels.stat().st_size:,} of qrels")
    print(f"Load average (1/5/15 min) at the start: {load()}\n")
    commands = {"evaluation.core": (ours(str(qrels), str(run)), ROOT)}
    if args.before:
        before = Path(args.before).resolve()
        commands["evaluation.core (before)"] = (ours(str(qrels), str(run)), before)
    if args.trec_eval:
        te = [args.trec_eval, *[x for m in TREC_NAMES for x in ("-m", m)], str(qrels), str(run)]
        commands["trec_eval"] = (te, ROOT)
    for tool in ("pytrec_eval", "ranx"):
        if installed(tool):
            commands[tool] = (SCRIPTS[tool](str(qrels), str(run)), ROOT)
    if installed("ranx"):  # warm numba's cache so that no timing includes compilation
        tiny = DATA / "tiny"
        tiny.mkdir(exist_ok=True)
        (tiny / "q").write_text("1 0 a 1\n")
        (tiny / "r").write_text("1 Q0 a 1 1.0 t\n")
        run_process(SCRIPTS["ranx"](str(tiny / "q"), str(tiny / "r")))
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, list[float]] = {name: [] for name in commands}
    reference = None
    for i in range(args.repeat):
        for name, (command, path) in commands.items():
            wall, cpu, rss, output = run_process(command, path)
            walls[name].append(wall)
            cpus[name].append(cpu)
            peaks[name].append(rss)
            means = means_printed(output)
            reference = reference or means
            digits = 4 if name == "trec_eval" else 9
            for m, value in reference.items():
                if abs(means.get(m, float("nan")) - value) > 0.6 * 10**-digits:
                    raise RuntimeError(f"{name} gives {m} = {means.get(m)}, ours {value}")
            print(
                f"run {i + 1}: {name}: {wall:.2f} s, CPU {cpu:.2f} s, {rss:.0f} MiB "
                f"(load {load()})",
                flush=True,
            )
    print(f"\nLoad average at the end: {load()}")
    print(f"Means (all agree): {json.dumps(reference)}\n")
    print(f"(c) whole process, median of {args.repeat} (min–max):\n")
    print("| tool | wall s | CPU s (user + system) | peak RSS MiB |")
    print("|---|---:|---:|---:|")
    median = {name: statistics.median(w) for name, w in walls.items()}
    cpu = {name: statistics.median(c) for name, c in cpus.items()}
    for name in commands:
        w, p = walls[name], peaks[name]
        print(
            f"| {name} | {median[name]:.2f} ({min(w):.2f}–{max(w):.2f}) | {cpu[name]:.2f} "
            f"| {statistics.median(p):.0f} |"
        )
    if "trec_eval" in commands:
        te_peak = statistics.median(peaks["trec_eval"])
        print("\n| ours / trec_eval | wall time (goal ≤ 0.4) | CPU time | peak memory (goal ≤ 1) |")
        print("|---|---:|---:|---:|")
        for name in commands:
            if name.startswith("evaluation.core"):
                time_ratio = median[name] / median["trec_eval"]
                per_run = [a / b for a, b in zip(walls[name], walls["trec_eval"], strict=True)]
                print(
                    f"| {name} | {time_ratio:.2f} (runs: "
                    f"{', '.join(f'{x:.2f}' for x in per_run)}) "
                    f"| {cpu[name] / cpu['trec_eval']:.2f} "
                    f"| {statistics.median(peaks[name]) / te_peak:.2f} |"
                )
    if args.phases:
        phases()


def phases() -> None:
    rows = {}
    for tool in ("ours", "pytrec_eval", "ranx"):
        if installed(tool):
            command = [sys.executable, str(HERE / "bench_measures.py"), "--worker", tool]
            rows[tool] = json.loads(run_process(command)[3])
    print("\n| tool | (a) parse s | (b) compute s |")
    print("|---|---:|---:|")
    for tool, r in rows.items():
        print(f"| {tool} | {r['parse']:.2f} | {r['compute']:.2f} |")


if __name__ == "__main__":
    main()
