"""Issue 34: the statistics against their floors, whole processes side by side (not a test).

    python benchmarks/bench_floors.py [compare|reliability|recompute|ties|tukey]
        [--repeat 5] [--before DIR] [--trec-eval PATH]

Each scenario runs its commands in turn, ``--repeat`` times (A B A B …, so that a change
in the machine's load falls on all of them alike), each as a whole process whose CPU
time (user + system, all threads) and peak resident memory come from ``wait4``
(:func:`bench_measures.run_process`); it prints the medians and, for each command, its
ratio to the reference of the scenario taken run by run (the median of those ratios):

- ``compare``: ``python -m evaluation.core compare --scores`` on 50 systems × 1,000
  queries (``--test permutation``) and 100 × 1,000 (``--test bootstrap``), 10,000
  resamples, against ``floors.py`` (the same tests and Holm done plainly); with
  ``--before DIR`` also that checkout's command (slow: Tukey's HSD ran on every cell);
- ``reliability``: ``python -m evaluation.core reliability --scores`` on 1,000 × 10,000
  (10 M lines) against ``floors.py reliability`` (pyarrow read + pivot + G/D-study);
  with ``--before DIR`` that checkout's (checked to print the same);
- ``recompute``: what a recompute of 180 systems × 100 queries computes after reading
  the database (the core's scores, leaderboards with the bootstrap test of 10,000
  resamples, G/D-studies of the default measures), this checkout against ``--before``
  (required); each prints a digest of the leaderboards' p-values and of the whole
  payloads, so that identical results show;
- ``ties``: the measures command line on the 10 M-line run and on the same run with
  every 10 ranks tied (``generate.py --ties 10``), with ``--trec-eval PATH`` trec_eval on
  both (``--before DIR``: that checkout on the tied run too), and ``floors.py read-run``,
  pyarrow reading the untied run's three columns and nothing else;
- ``tukey``: not timed — Tukey's HSD p-values of every pair of MIREX 2011 (CG_l@5) and of
  the random 50-system matrix of ``compare`` against ``scipy.stats.studentized_range``,
  the largest difference printed, and the CPU time of both for the 50 systems.

Data goes to the git-ignored ``benchmarks/data/`` (generated in a child process, whose
peak memory is not passed on to the commands measured).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_measures import load, machine, run_process  # beside this file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
PY = sys.executable

RECOMPUTE = """
import hashlib, json, os, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
import bench_recompute as b
started = time.process_time()  # after the imports, which a Celery worker does once
fits = [0.0]
try:  # the score distributions' study, added after the kernels' change: timed apart
    from evaluation.services import leaderboards as lb
    plain_fits = lb.leaderboard_fits
    def timed_fits(*args, **kwargs):
        t = time.process_time()
        try:
            return plain_fits(*args, **kwargs)
        finally:
            fits[0] += time.process_time() - t
    lb.leaderboard_fits = timed_fits
except (ImportError, AttributeError):
    pass
runs, qrels = b.synthetic(int(sys.argv[1]), int(sys.argv[2]))
config = b.ResultsConfig(resamples=10000)
core_qrels, core_runs = b.core_inputs(runs, qrels)
results = b.evaluate(core_qrels, core_runs, b.default_measures(qrels))
whole, pvalues = hashlib.sha256(), hashlib.sha256()
for label in results.labels:
    matrix = results.matrix(label, missing="zero")
    board = b.leaderboard_payload(matrix, config=config, mapping=b.published_mapping_for(label))
    study = b.reliability_payload(matrix, target=config.reliability_target)
    whole.update(json.dumps([board, study], sort_keys=True, default=str).encode())
    pvalues.update(json.dumps([(p["p"], p["p_adjusted"]) for p in board["pairs"]]).encode())
print("work CPU", time.process_time() - started, "score distributions", fits[0])
print("p-values", pvalues.hexdigest()[:16], "payloads", whole.hexdigest()[:16])
"""


def data(*arguments: str) -> None:
    subprocess.run([PY, str(HERE / "generate.py"), *arguments], check=True)


def side_by_side(commands: dict[str, tuple[list[str], Path]], *, reference: str, repeat: int):
    """Run the commands in turn ``repeat`` times; print medians and paired ratios."""
    cpu = {name: [] for name in commands}
    peak = {name: [] for name in commands}
    outputs = {name: set() for name in commands}
    work = {name: [] for name in commands}  # "work CPU s … score distributions s" lines
    for i in range(repeat):
        for name, (command, cwd) in commands.items():
            _, seconds, rss, output = run_process(command, cwd)
            cpu[name].append(seconds)
            peak[name].append(rss)
            for line in output.splitlines():
                if line.startswith("work CPU"):
                    work[name].append([float(word) for word in line.split()[2::3]])
            outputs[name].add(output.strip().splitlines()[-1] if output.strip() else "")
            print(
                f"run {i + 1}: {name}: CPU {seconds:.2f} s, {rss:.0f} MiB (load {load()})",
                flush=True,
            )
    print(
        f"\n| command | CPU s, median (range) | peak MiB | CPU / {reference} (per run) | memory / {reference} |"
    )
    print("|---|---:|---:|---:|---:|")
    for name in commands:
        ratios = [a / b for a, b in zip(cpu[name], cpu[reference], strict=True)]
        memory = statistics.median(peak[name]) / statistics.median(peak[reference])
        print(
            f"| {name} | {statistics.median(cpu[name]):.2f} ({min(cpu[name]):.2f}–{max(cpu[name]):.2f}) "
            f"| {statistics.median(peak[name]):.0f} | {statistics.median(ratios):.2f} "
            f"({', '.join(f'{r:.2f}' for r in ratios)}) | {memory:.2f} |"
        )
    for name, seen in outputs.items():
        print(f"{name} printed last: {' / '.join(sorted(seen))[:160]}")
    if all(len(work[name]) == repeat for name in commands):
        # The work after the process's imports, and that work less what only one side does
        print(f"\n| command | work CPU s, median | less score distributions | / {reference} |")
        print("|---|---:|---:|---:|")
        less = {n: [w - f for w, f in work[n]] for n in commands}
        for name in commands:
            ratios = [a / b for a, b in zip(less[name], less[reference], strict=True)]
            print(
                f"| {name} | {statistics.median(w for w, _ in work[name]):.2f} "
                f"| {statistics.median(less[name]):.2f} | {statistics.median(ratios):.2f} "
                f"({', '.join(f'{r:.2f}' for r in ratios)}) |"
            )


def core(*arguments: str) -> list[str]:
    return [PY, "-m", "evaluation.core", *arguments]


def compare(args) -> None:
    for size, test in (("50x1000", "permutation"), ("100x1000", "bootstrap")):
        table = DATA / f"scores_{size}.txt"
        if not table.exists():
            data("--scores", size)
        ours = core("compare", "--scores", str(table), "--test", test, "--seed", "1")
        commands = {
            f"compare {test} {size}": (ours, ROOT),
            f"floor {test} {size}": ([PY, str(HERE / "floors.py"), test, str(table)], ROOT),
        }
        if args.before:
            commands[f"before {test} {size}"] = (ours, Path(args.before))
        print(f"\n## compare, {size.replace('x', ' systems × ')} queries, --test {test}\n")
        side_by_side(commands, reference=f"floor {test} {size}", repeat=args.repeat)


def reliability(args) -> None:
    table = DATA / "scores_1000x10000.txt"
    if not table.exists():
        data("--scores", "1000x10000")
    commands = {
        "reliability": (core("reliability", "--scores", str(table)), ROOT),
        "floor": ([PY, str(HERE / "floors.py"), "reliability", str(table)], ROOT),
    }
    if args.before:
        commands["before"] = (commands["reliability"][0], Path(args.before))
    print("\n## reliability, 1,000 systems × 10,000 queries (10 M lines)\n")
    side_by_side(commands, reference="floor", repeat=args.repeat)


def recompute(args) -> None:
    if not args.before:
        sys.exit("recompute compares with --before DIR (a checkout of main)")
    command = [PY, "-c", RECOMPUTE, "180", "100"]
    commands = {"recompute": (command, ROOT), "before": (command, Path(args.before))}
    print("\n## recompute, 180 systems × 100 queries, bootstrap with 10,000 resamples\n")
    side_by_side(commands, reference="before", repeat=args.repeat)


def ties(args) -> None:
    qrels, untied, tied = DATA / "qrels.txt", DATA / "run.txt", DATA / "run_ties.txt"
    if not tied.exists():
        data("--ties", "10")
    measures = [x for m in ("ndcg_cut.10", "map", "P.10", "recip_rank") for x in ("-m", m)]
    commands = {
        "untied run": (core(str(qrels), str(untied), *measures), ROOT),
        "tied run": (core(str(qrels), str(tied), *measures), ROOT),
    }
    if args.before:
        commands["before, tied run"] = (commands["tied run"][0], Path(args.before))
    # The floor of the reading alone (pyarrow, the three columns, nothing else)
    commands["read the run (floor)"] = (
        [PY, str(HERE / "floors.py"), "read-run", str(untied)],
        ROOT,
    )
    if args.trec_eval:
        commands["trec_eval untied"] = ([args.trec_eval, *measures, str(qrels), str(untied)], ROOT)
        commands["trec_eval tied"] = ([args.trec_eval, *measures, str(qrels), str(tied)], ROOT)
    print("\n## the measures on 10 M lines, untied and tied in tens\n")
    side_by_side(commands, reference="untied run", repeat=args.repeat)


def tukey(args) -> None:
    import numpy as np
    from scipy import stats as sps

    sys.path.insert(0, str(ROOT))
    from evaluation.core.cli.scoretable import read_score_table
    from evaluation.core.multiple import anova_two_way, tukey_hsd
    from evaluation.core.studentized_range import ACCURACY
    from evaluation.core.tests.conftest import _rows
    from tests.helpers.shared_data import MIREX2011

    fine = {(q, d): int(f) for q, d, f in _rows(MIREX2011 / "judgments.tsv")}
    lists: dict[tuple[str, str], list[str]] = {}
    for system, query, doc in _rows(MIREX2011 / "runs.tsv"):
        lists.setdefault((system, query), []).append(doc)
    systems = sorted({s for s, _ in lists})
    queries = sorted({q for _, q in lists})
    mirex = np.array(
        [[sum(fine[(q, d)] / 100 for d in lists[(s, q)][:5]) / 5 for q in queries] for s in systems]
    )
    table = DATA / "scores_50x1000.txt"
    if not table.exists():
        data("--scores", "50x1000")
    random50 = read_score_table(table).scores
    for name, X in (("MIREX 2011, CG_l@5, 18 × 100", mirex), ("random 50 × 1,000", random50)):
        k, n = X.shape
        started = time.process_time()
        ours = tukey_hsd(X)
        ours_cpu = time.process_time() - started
        a = anova_two_way(X)
        se = np.sqrt(a.residual.ms / n)
        i, j = np.triu_indices(k, 1)
        means = X.mean(axis=1)
        started = time.process_time()
        reference = sps.studentized_range.sf(np.abs(means[i] - means[j]) / se, k, a.residual.df)
        scipy_cpu = time.process_time() - started
        worst = float(np.max(np.abs(ours.pvalue[i, j] - reference)))
        print(
            f"{name}: {len(i)} pairs, df {a.residual.df}; largest |ours − scipy| {worst:.2e} "
            f"(stated accuracy {ACCURACY:g}); CPU ours {ours_cpu:.3f} s, scipy {scipy_cpu:.1f} s"
        )
        assert worst <= ACCURACY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "scenario", choices=("compare", "reliability", "recompute", "ties", "tukey")
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", metavar="DIR", help="a checkout to run alongside (main)")
    parser.add_argument("--trec-eval", metavar="PATH", default=os.environ.get("TREC_EVAL"))
    args = parser.parse_args()
    print(f"Machine: {machine()}; load at the start: {load()}")
    scenarios = {"compare": compare, "reliability": reliability, "recompute": recompute,
                 "ties": ties, "tukey": tukey}  # fmt: skip
    if args.scenario != "all":
        scenarios[args.scenario](args)
    for name, scenario in scenarios.items():
        if args.scenario == "all" and (name != "recompute" or args.before):
            scenario(args)
    print(f"\nLoad at the end: {load()}")


if __name__ == "__main__":
    main()
