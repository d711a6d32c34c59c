"""One organiser's poison file and another's small upload right after it, before and after.

Issue 21: a 60 KB runs file naming 3,018 systems on one query (``q1 Q0 d{i} 1 1 sys{i}``,
uploaded with "create missing queries and clips") made the only Celery worker compute
the bootstrap test on every pair (4.5 million pairs) for more than 18 minutes while its
memory climbed to 6.3 GB, and another organiser's upload waited behind it all along.

For each checkout — ``main`` (exported with ``git archive`` into a temporary folder) and
this branch — on a fresh SQLite database and its own embedded Redis:

1. set up (not measured, ``poison_steps.py setup``): organiser A's collection of 3
   systems × 5 queries × 10 clips, judged, so that its leaderboards test every pair;
   organiser B's empty collection;
2. start the workers as that checkout's ``make run`` does: one worker on ``main``; one
   per queue (``interactive``, ``heavy``) on the branch; prefork pool, concurrency 1,
   each under an address-space limit (``--cap-gb``, default 4) so that an unbounded
   computation fails with MemoryError instead of exhausting the shared machine;
3. wait for A's first results, then A uploads the poison file, and B a small runs file
   right after the poison's work started (A's import done and the results recompute it
   asked for claimed by a worker, or already ended; ``poison_steps.py race``); every 0.2 s: B's job, A's job and A's
   results recompute, and the resident memory of every worker process (summed per
   worker: its main process and its pool child);
4. stop when B's upload is done and A's recompute has ended (done or failed), or after
   ``--seconds`` (default 240).

Reported: how long B's small upload took from its start to its end, how A's poison
ended and when, and the peak memory of each worker. Nothing is asserted.

``--admit``: the same race with the branch's limits raised (``EARSHOT_LIMIT_PAIRS``,
``EARSHOT_LIMIT_RESAMPLED``), so that the poison recompute is admitted and computes in
the heavy queue while B's small upload goes through the interactive one.

``--kill``: A uploads the poison alone with the branch's limits raised so that its
recompute is admitted; whenever a new claim of the recompute has computed for 3 s, the
pool process of the worker computing it is killed with SIGKILL (at most 3 times). Reported: the kills,
the computations started (``Recompute.computations``) and how the recompute stands at the end.

Run: ``python benchmarks/bench_poison.py [--before REF] [--only before|after] [--kill]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from embedded.redis import start_redis, stop_process  # noqa: E402

STEPS = ROOT / "benchmarks" / "poison_steps.py"
GIB = 1 << 30
MAX_KILLS = 3
"""Kills of the ``--kill`` case: one more than the runs a branch's recompute may have."""


def export(ref: str, into: Path) -> Path:
    """The tree of ``ref`` in ``into`` (nothing of the working tree or other worktrees)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def worker_commands(queues: list[str]) -> list[list[str]]:
    base = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
            "--concurrency", "1", "--without-gossip", "--without-mingle"]  # fmt: skip
    if not queues:
        return [base]  # main: one worker on the default queue
    return [[*base, "--queues", q, "--hostname", f"{q}@%h"] for q in queues]


class Memory:
    """Peak resident memory of each worker (its process and its children), sampled."""

    def __init__(self, workers: dict[str, subprocess.Popen]) -> None:
        self.workers = workers
        self.peak = dict.fromkeys(workers, 0)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self.stopped.wait(0.2):
            for name, worker in self.workers.items():
                try:
                    root = psutil.Process(worker.pid)
                    rss = sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
                except psutil.Error:
                    continue
                self.peak[name] = max(self.peak[name], rss)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.thread.join()


def capped(gib: float):
    limit = int(gib * GIB)
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@contextmanager
def stack(checkout: Path, *, queues: list[str], cap_gb: float, extra_env: dict | None = None):
    """A fresh database and Redis, the set-up done, and the workers started: (env, workers)."""
    folder = Path(tempfile.mkdtemp(prefix="earshot-poison-"))
    var = folder / "var"
    redis = start_redis(var / "redis", log=var / "redis.log")
    env = dict(os.environ, EARSHOT_VAR_DIR=str(var), REDIS_URL=redis.url,
               DATABASE_URL=f"sqlite:///{var / 'db.sqlite3'}", PYTHONPATH=str(checkout),
               **(extra_env or {}))  # fmt: skip
    workers: dict[str, subprocess.Popen] = {}
    try:
        subprocess.run([sys.executable, str(STEPS), "setup"], cwd=checkout, env=env, check=True)
        log = open(var / "workers.log", "wb")  # noqa: SIM115 - the workers keep it
        for command in worker_commands(queues):
            name = command[command.index("--queues") + 1] if "--queues" in command else "celery"
            workers[name] = subprocess.Popen(command, cwd=checkout, env=env, stdout=log,
                                             stderr=subprocess.STDOUT, preexec_fn=capped(cap_gb))  # fmt: skip
        time.sleep(8)  # the workers start and compute A's first results (3 systems)
        yield env, workers
    finally:
        for worker in workers.values():
            for child in pool_of(worker):
                child.kill()
            stop_process(worker)
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


def pool_of(worker: subprocess.Popen) -> list[psutil.Process]:
    try:
        return psutil.Process(worker.pid).children(recursive=True)
    except psutil.Error:
        return []


ADMIT = {"EARSHOT_LIMIT_PAIRS": str(10**8), "EARSHOT_LIMIT_RESAMPLED": str(10**16)}
"""The branch's limits raised so that the poison recompute is admitted (main has none)."""


def run_case(
    label: str, checkout: Path, *, queues: list[str], seconds: float, cap_gb: float, admit=False
):
    lines: list[dict] = []
    extra = ADMIT if admit else None
    with (
        stack(checkout, queues=queues, cap_gb=cap_gb, extra_env=extra) as (env, workers),
        Memory(workers) as memory,
    ):
        race = subprocess.Popen([sys.executable, str(STEPS), "race", str(seconds)],
                                cwd=checkout, env=env, stdout=subprocess.PIPE, text=True)  # fmt: skip
        for raw in race.stdout:
            lines.append(json.loads(raw))
        race.wait()
    report(label, lines, memory.peak, seconds=seconds)


def run_kills(
    label: str, checkout: Path, *, queues: list[str], seconds: float, cap_gb: float, admit=True
):
    """The poison recompute admitted (the branch's limits raised), and its worker's pool
    process killed with SIGKILL each time a new claim of it has computed for 3 s."""
    kills, claims_killed, last = 0, set(), {}
    with stack(checkout, queues=queues, cap_gb=cap_gb, extra_env=ADMIT) as (env, workers):
        steps = subprocess.Popen([sys.executable, str(STEPS), "poison", str(seconds)],
                                 cwd=checkout, env=env, stdout=subprocess.PIPE, text=True)  # fmt: skip
        running_since: dict[int, float] = {}
        for raw in steps.stdout:
            last = json.loads(raw)
            claim = last["runs"]
            if last["status"] != "running" or claim in claims_killed or kills == MAX_KILLS:
                continue
            running_since.setdefault(claim, last["t"])
            if last["t"] - running_since[claim] >= 3:
                worker = workers[last["claimed_by"].split("@")[0]]
                for child in pool_of(worker):
                    child.kill()  # kill -9 of the process computing it
                kills += 1
                claims_killed.add(claim)
                print(f"  t = {last['t']:.1f} s: kill -9 of the {last['claimed_by']} pool "
                      f"process computing claim {claim}", flush=True)  # fmt: skip
        steps.wait()
    print(f"\n## kill -9 during the poison recompute: {label}")
    print(f"kills: {kills}; computations started (Recompute.computations): {last.get('runs')}")
    print(f"after {last.get('t', 0):.0f} s the recompute is {last.get('status')}"
          + (f": {last['error']}" if last.get("error") else ""))  # fmt: skip


def report(label: str, lines: list[dict], peak: dict[str, int], *, seconds: float) -> None:
    head, last = lines[0], lines[-1]
    small = last["small"]
    if small["finished"]:
        waited = f"{small['finished'] - small['created']:.1f} s ({small['state']})"
    else:
        waited = f"not finished after {last['t']:.0f} s ({small['state']})"
    recompute = last["recompute"] or {}
    if recompute.get("status") in ("done", "failed") and recompute.get("finished"):
        ended = f"{recompute['status']} after {recompute['finished'] - head['started']:.1f} s"
        if recompute.get("error"):
            ended += f": {recompute['error']}"
    else:
        ended = f"still {recompute.get('status')} after {last['t']:.0f} s (stopped there)"
    print(f"\n## {label}")
    print(
        f"poison file: {head['poison_bytes']:,} bytes; A's upload: {last['poison_upload']['state']}"
    )
    print(
        f"B's small upload, started {head['small_started']:.1f} s after A's; start to end: {waited}"
    )
    print(f"A's results recompute: {ended}")
    for name, rss in peak.items():
        print(f"peak resident memory of the {name} worker: {rss / GIB:.2f} GiB")
    print(f"peak of all workers together (sampled): {sum(peak.values()) / GIB:.2f} GiB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git ref of the 'before' checkout")
    parser.add_argument("--only", choices=["before", "after"])
    parser.add_argument("--seconds", type=float, default=240)
    parser.add_argument("--cap-gb", type=float, default=4)
    parser.add_argument("--kill", action="store_true", help="the kill -9 case instead")
    parser.add_argument("--admit", action="store_true", help="the branch's limits raised")
    args = parser.parse_args(argv)
    case = run_kills if args.kill else functools.partial(run_case, admit=args.admit)
    if args.only != "after":
        with tempfile.TemporaryDirectory(prefix="earshot-before-") as tree:
            checkout = export(args.before, Path(tree) / "src")
            case(f"before ({args.before})", checkout, queues=[], seconds=args.seconds,
                 cap_gb=args.cap_gb)  # fmt: skip
    if args.only != "before":
        case("after (this branch)", ROOT, queues=["interactive", "heavy"], seconds=args.seconds,
             cap_gb=args.cap_gb)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
