"""What unrelated requests see on ``make run``'s SQLite while a million-line runs import runs.

An attack report (issue 20): during a 1,000,000-line import on SQLite, a crowd worker's
task page, job status polls and ``/api/collections/`` waited 43–56 s and then got a 500
"database is locked". This module is long because it starts, drives and checks a whole
``make run`` stack for each checkout measured side by side, and stops it again; the steps
read best in one place. For each checkout given (``--root``, repeatable: the code before a
change and after it, side by side in one run) this script starts, by itself and on this
machine only, what ``make run`` starts (``scripts/run.py``), in a temporary
``EARSHOT_VAR_DIR`` (so the default database, ``var/earshot.sqlite3``, is a new SQLite
file there):

- Redis (``embedded.redis``, on a unix socket in the temporary folder);
- the Celery worker of ``make run`` (``--concurrency 1 --beat``, its own process group);
- ``manage.py runserver 127.0.0.1:<free port> --noreload`` with ``DEBUG`` true, as
  ``make run`` serves (threaded: one thread per request).

It migrates, imports the MIREX 2011 collection with a crowd campaign whose listening
check is off (``bench_crowd_load.setup_data``), and makes its user an organiser with an
empty collection. It writes a TREC run file of ``--systems`` × ``--queries`` × ``--docs``
lines (default 1,000 × 100 × 10 = 1,000,000) into a temporary folder, then:

- **upload** (the default, what an organiser of ``make run`` does): logs in, posts the
  file on the collection's "Upload files → runs" page (format TREC, make missing queries
  and create missing clips), which starts the import as a job of the Celery worker; when
  that POST is answered with a 5xx, the organiser finds the job on the collection's
  uploads page, or else uploads again (at most 3 times);
- **command** (``--via command``): runs ``manage.py import_runs <collection> <file>
  --format trec --create-missing-clips --create-missing-queries`` as a subprocess.

For the whole import (until the job is done or failed, or the command has exited, at
most ``--max-import-seconds``) it keeps up, on 127.0.0.1 only:

- ``--crowd-workers`` simulated crowd workers (``crowd_load_client.Worker``: arrive,
  consent, task page, an answer posted twice as a double click, the next task page),
  each answering every ``--think`` seconds (0.8–1.2×);
- the job page's poll, ``GET /jobs/<id>/status.json``, every second (as ``job.js``);
  with ``--via command``, the same poll of a finished job made in the setup;
- ``GET /api/collections/`` (the organiser's session) every ``--api-every`` seconds.

It prints, per request kind, the number of requests, of 5xx responses, and p50/p95/max
latency (client side, connect to last byte), how long the import took (the job's own
``started_at``/``finished_at``, or the command's wall time) and the load, and stops
everything it started by PID (the worker's and the server's process groups, which they
lead). Every loop is bounded in count and time.

Run (from the repository root; ~3 min per checkout with the defaults on a shared 2-core
machine; ``git worktree add /work/wtbefore <commit>`` for the code before)::

    .venv/bin/python benchmarks/bench_sqlite_under_import.py --root /work/wtbefore --root .
        [--via upload|command] [--systems 1000] [--crowd-workers 4] [--think 2]

Figures and the command that produced them: ``docs/benchmarks.md`` ("SQLite under a long
import").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(1, str(HERE))

from bench_crowd_load import _free_port, _git_head, cpu_seconds, percentile  # noqa: E402
from crowd_load_client import Tally, Worker, request  # noqa: E402

PASSWORD = "bench-sqlite-import-1"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
KINDS = {  # the table's rows: request kind → what it is called in the docs
    "task GET": "crowd task page GET",
    "answer POST": "crowd answer POST",
    "status poll": "job status poll (`/jobs/<id>/status.json`)",
    "api collections": "GET `/api/collections/`",
    "upload POST": "the organiser's upload POST itself",
}
UPLOAD_TRIES = 3
MAX_STEPS = 100_000
"""Upper bound of any client loop's iterations (time bounds them first)."""


# --- inside the served checkout (a subprocess with its code on sys.path) -----------------


def setup_inside(root: str) -> dict:
    """MIREX 2011 with the crowd campaigns of bench_crowd_load, its user an organiser with
    an empty collection for the runs, and a finished job to poll in ``--via command``."""
    from bench_crowd_load import setup_data

    tokens = setup_data(root)  # calls django.setup() with ``root`` first on sys.path
    from django.contrib.auth import get_user_model

    from catalog.models import Collection
    from common.roles import ORGANISER, grant_role
    from work.models import Job

    user = get_user_model().objects.get(username="bench")
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])
    grant_role(user, ORGANISER)
    collection = Collection.objects.create(owner=user, name="bench runs")
    idle = Job.objects.create(
        kind="upload_runs", owner=user, collection=collection, state=Job.DONE, result={}
    )
    return {"token": tokens["closed"], "collection": collection.pk, "idle_job": idle.pk}


def counts_inside(root: str, collection: int) -> dict:
    """What the collection holds after the import."""
    sys.path.insert(0, root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from catalog.models import Clip, Query, RunEntry, System
    from work.models import Job

    jobs = Job.objects.filter(
        collection_id=collection, state__in=[Job.DONE, Job.FAILED, *Job.ACTIVE]
    )
    return {
        "run entries": RunEntry.objects.filter(system__collection_id=collection).count(),
        "systems": System.objects.filter(collection_id=collection).count(),
        "queries": Query.objects.filter(collection_id=collection).count(),
        "clips": Clip.objects.filter(collection_id=collection).count(),
        "jobs": [  # created → finished, in seconds, of every job (not the setup's)
            f"job {job.pk} {job.state} after {job.runs} run(s), "
            f"{(job.finished_at - job.created_at).total_seconds():.0f} s from its upload"
            if job.finished_at
            else f"job {job.pk} {job.state}"
            for job in jobs.order_by("pk")
            if job.started_at
        ],
    }


# --- the run file --------------------------------------------------------------------------


def write_run_file(path: Path, *, systems: int, queries: int, docs: int, clips: int) -> int:
    """A TREC run: ``systems`` × ``queries`` ranked lists of ``docs`` documents (of ``clips``
    clip ids; ``docs`` distinct ones per list); the number of lines."""
    step = clips // docs
    n = 0
    with path.open("w", buffering=1 << 22) as out:
        for s in range(systems):
            lines = []
            for q in range(queries):
                for r in range(docs):
                    doc = (7 * q + s + r * step) % clips
                    lines.append(f"q{q:03d} Q0 d{doc:05d} {r + 1} {docs - r} S{s:04d}\n")
            out.write("".join(lines))
            n += len(lines)
    return n


# --- the stack -----------------------------------------------------------------------------


def _stop_group():
    """``scripts/run.py``'s ``stop_group`` (SIGTERM, then SIGKILL, to the group a child leads)."""
    spec = importlib.util.spec_from_file_location("earshot_make_run", ROOT / "scripts" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.stop_group


class SqliteStack:
    """``make run``'s processes for one checkout on a new SQLite file; ``stop()`` ends them."""

    def __init__(self, root: Path, args) -> None:
        sys.path.insert(0, str(ROOT))
        from embedded.redis import start_redis

        self.root, self.args, self.processes = root, args, {}
        self.tmp = Path(tempfile.mkdtemp(prefix="earshot-sqlite-import-"))
        self.redis = start_redis(self.tmp / "redis", log=self.tmp / "redis.log")
        self.port = _free_port()
        drop = ("DATABASE_URL", "REDIS_URL", "PYTHONPATH", "DJANGO_SETTINGS_MODULE", "DEBUG")
        self.env = {
            k: v for k, v in os.environ.items() if k not in drop and not k.startswith("EARSHOT_")
        }
        self.env.update(
            DEBUG="true" if args.debug else "false",
            ALLOWED_HOSTS="127.0.0.1",
            SECRET_KEY="sqlite-import-benchmark-" + "x" * 40,
            REDIS_URL=self.redis.url,
            EARSHOT_VAR_DIR=str(self.tmp / "var"),
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(root),
        )
        (self.tmp / "var").mkdir()
        self.manage("migrate", "--noinput")
        self.setup = json.loads(self.inside("setup"))
        log = self.tmp / "var"
        # make run's workers: one per queue where the checkout has queues (work/queues.py),
        # the interactive one running the schedule; else its one worker
        queues = ["interactive", "heavy"] if (self.root / "work" / "queues.py").exists() else [None]
        for n, queue in enumerate(queues):
            command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel",
                       "INFO", "--concurrency", "1",
                       "--hostname", f"bench-{queue or 'all'}-{uuid.uuid4().hex[:8]}@%h"]  # fmt: skip
            if queue:
                command += ["--queues", queue]
            if n == 0:
                command += ["--beat", "--schedule", str(log / "celerybeat-schedule")]
            self.spawn(f"celery-{queue}" if queue else "celery", command)
        self.spawn(
            "runserver",
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"],
        )
        self._wait_for_port()

    def manage(self, *command: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=self.root,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def inside(self, what: str, *extra: str) -> str:
        """Run this script's ``what`` inside the served checkout; its stdout."""
        return subprocess.run(
            [sys.executable, __file__, "--inside", what, "--root", str(self.root), *extra],
            cwd=self.root,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        ).stdout

    def spawn(self, name: str, command: list[str]) -> None:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - kept by the child
        self.processes[name] = subprocess.Popen(
            command,
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as make run starts it
        )

    def _wait_for_port(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.processes.values()):
                break
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"runserver did not listen on {self.port}; see {self.tmp}")

    def cpu(self) -> dict[str, float]:
        return {name: cpu_seconds(p.pid) for name, p in self.processes.items()}

    def stop(self) -> None:
        stop_group = _stop_group()
        for name in ["runserver", *(n for n in self.processes if n.startswith("celery"))]:
            if name in self.processes:
                stop_group(self.processes[name], timeout=15)
        self.redis.stop()
        if not self.args.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)


# --- the clients ---------------------------------------------------------------------------


class Record:
    """Latency and status of every request, by kind, with when it ended."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.events: list[tuple[float, str, int, float]] = []  # (end, kind, status, seconds)
        self.t0 = time.monotonic()

    def add(self, kind: str, status: int, seconds: float) -> None:
        self.tally.latencies[kind].append(seconds)
        self.statuses[kind][status] += 1
        self.events.append((time.monotonic() - self.t0, kind, status, seconds))


class CountingWorker(Worker):
    """A crowd worker whose every response's status is counted, not only its latency."""

    def __init__(self, port: int, token: str, pid: str, record: Record) -> None:
        super().__init__(port, token, pid, record.tally, listen=False)
        self.record, self.consented = record, False

    async def _do(self, kind: str, method: str, path: str, **kwargs):
        started = time.perf_counter()
        try:
            response = await request(self.port, method, path, cookies=self.cookies, **kwargs)
        except (OSError, IndexError, ValueError):
            self.record.add(kind, 0, time.perf_counter() - started)  # no HTTP answer at all
            raise
        self.record.add(kind, response.status, time.perf_counter() - started)
        self.cookies.update(response.cookies)
        if kind == "consent POST" and response.status == 302:
            self.consented = True
        return response


async def crowd_worker(
    port: int, token: str, pid: str, record: Record, *, stop: asyncio.Event, think: float, seed: int
) -> None:
    """Arrive and answer every ``think`` s until ``stop``; a failed step is tried again."""
    rng = random.Random(seed)
    worker = CountingWorker(port, token, pid, record)
    await asyncio.sleep(rng.uniform(0, think))
    ready = False
    for _ in range(MAX_STEPS):
        if stop.is_set():
            return
        try:
            if not ready:
                ready = await (worker.open_task() if worker.consented else worker.start())
            else:
                await asyncio.sleep(rng.uniform(0.8, 1.2) * think)
                if stop.is_set():
                    return
                ready = await worker.answer(rng)
                if not ready and record.tally.finished_workers:
                    return  # the campaign has nothing left for this worker
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
            ready = False
        if not ready:
            await asyncio.sleep(1)


async def _wait(event: asyncio.Event, seconds: float) -> None:
    """Until ``event`` is set, at most ``seconds``."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout=seconds)


async def poll(
    port: int,
    path: str,
    kind: str,
    cookies: dict,
    record: Record,
    *,
    stop: asyncio.Event,
    every: float,
    until_done: bool = False,
) -> dict:
    """GET ``path`` every ``every`` s (after each answer, as ``job.js`` waits) until ``stop``;
    with ``until_done``, set ``stop`` once the job is no longer active. The last JSON seen."""
    last: dict = {}
    for _ in range(MAX_STEPS):
        if stop.is_set():
            break
        started = time.perf_counter()
        try:
            response = await request(
                port, "GET", path, cookies=cookies, headers={"Accept": "application/json"}
            )
            record.add(kind, response.status, time.perf_counter() - started)
            if response.status == 200 and until_done:
                last = json.loads(response.body)
                if not last.get("active", True):
                    stop.set()
                    break
        except (OSError, IndexError, ValueError):
            record.add(kind, 0, time.perf_counter() - started)
        await _wait(stop, every)
    return last


async def login(port: int) -> dict[str, str]:
    """The organiser's session cookies (``/login/`` with its CSRF token)."""
    cookies: dict[str, str] = {}
    page = await request(port, "GET", "/login/", cookies=cookies)
    cookies.update(page.cookies)
    token = CSRF.search(page.body.decode()).group(1)
    data = {"username": "bench", "password": PASSWORD, "csrfmiddlewaretoken": token}
    done = await request(port, "POST", "/login/", cookies=cookies, data=data)
    cookies.update(done.cookies)
    if done.status != 302 or "sessionid" not in cookies:
        raise RuntimeError(f"login failed: {done.status}")
    return cookies


async def upload(
    port: int, collection: int, run_file: Path, cookies: dict
) -> tuple[int, int | None, str]:
    """Post the run file on the runs upload page as a browser does: the status, the job's
    id (None if refused) and what the page said was wrong."""
    path = f"/collections/{collection}/uploads/runs/"
    page = await request(port, "GET", path, cookies=cookies)
    cookies.update(page.cookies)
    fields = {
        "csrfmiddlewaretoken": CSRF.search(page.body.decode()).group(1),
        "format": "trec",
        "create_missing_queries": "on",
        "create_missing_clips": "on",
    }
    boundary = "----bench" + uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="runs"; '
        f'filename="{run_file.name}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
        + run_file.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    body = b"".join(parts)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        "Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()),
        f"Content-Type: multipart/form-data; boundary={boundary}",
        f"Content-Length: {len(body)}",
    ]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout=300)
    finally:
        writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    status = int(status_line.split()[1])
    found = re.search(rb"\r\nlocation: */jobs/(\d+)/", rest, re.IGNORECASE)
    if found is not None:
        return status, int(found.group(1)), ""
    problem = re.findall(
        rb'class="(?:error|errorlist|exception_value)"[^>]*>(?:<li>)?([^<]+)', rest
    )
    return status, None, b" ".join(problem).decode(errors="replace").strip()[:300]


async def job_listed(port: int, setup: dict, cookies: dict, record: Record) -> int | None:
    """The newest job on the collection's uploads page (not the setup's finished one)."""
    sent = time.perf_counter()
    page = await request(
        port, "GET", f"/collections/{setup['collection']}/uploads/", cookies=cookies
    )
    record.add("uploads page GET", page.status, time.perf_counter() - sent)
    jobs = [int(pk) for pk in re.findall(r"/jobs/(\d+)/", page.body.decode(errors="replace"))]
    newest = max(jobs, default=None)
    return newest if newest != setup["idle_job"] else None


async def measure(stack: SqliteStack, run_file: Path, args) -> dict:
    """Start the import and keep the clients up for as long as it runs."""
    port, setup = stack.port, stack.setup
    cookies = await login(port)
    record = Record()
    stop = asyncio.Event()
    clients = [
        asyncio.create_task(
            crowd_worker(
                port, setup["token"], f"w{i:03d}", record, stop=stop, think=args.think, seed=i
            )
        )
        for i in range(args.crowd_workers)
    ]
    clients.append(
        asyncio.create_task(
            poll(
                port,
                "/api/collections/",
                "api collections",
                cookies,
                record,
                stop=stop,
                every=args.api_every,
            )
        )
    )
    await asyncio.sleep(min(3.0, args.think))  # the workers have arrived before the import
    started = time.monotonic()
    command = None
    if args.via == "upload":
        # An organiser whose upload ends in an error page looks for its job on the
        # collection's uploads page, and else presses Upload again.
        for _ in range(UPLOAD_TRIES):
            sent = time.monotonic()
            status, job, problem = await upload(port, setup["collection"], run_file, cookies)
            record.add("upload POST", status, time.monotonic() - sent)
            print(f"   upload POST {status} after {time.monotonic() - sent:.1f} s {problem}")
            if job is None and status >= 500:
                job = await job_listed(port, setup, cookies, record)
            if job is not None:
                break
            await asyncio.sleep(2)
        else:
            raise RuntimeError(f"the upload was refused {UPLOAD_TRIES} times")
    else:
        job = setup["idle_job"]
        command = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "import_runs",
                str(setup["collection"]),
                str(run_file),
                "--format",
                "trec",
                "--create-missing-clips",
                "--create-missing-queries",
            ],
            cwd=stack.root,
            env=stack.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    poller = asyncio.create_task(
        poll(
            port,
            f"/jobs/{job}/status.json",
            "status poll",
            cookies,
            record,
            stop=stop,
            every=1.0,
            until_done=args.via == "upload",
        )
    )
    deadline = started + args.max_import_seconds
    while not stop.is_set() and time.monotonic() < deadline:
        if command is not None and command.poll() is not None:
            break
        await _wait(stop, 0.5)
    wall = time.monotonic() - started
    stop.set()
    outcome: dict = {"wall": wall, "finished": wall < args.max_import_seconds}
    if command is not None:
        if command.poll() is None:
            command.kill()  # over the time bound: its transaction is rolled back
        output, _ = command.communicate(timeout=60)
        outcome.update(exit=command.returncode, output=output.decode()[-600:])
    _, pending = await asyncio.wait([*clients, poller], timeout=args.think + 180)
    for task in pending:
        task.cancel()
    outcome["clients still waiting, cancelled"] = len(pending)
    if args.via == "upload":
        outcome["job"] = poller.result() if poller.done() and not poller.cancelled() else {}
    outcome["record"] = record
    return outcome


# --- reporting -----------------------------------------------------------------------------


def _seconds(iso_from: str | None, iso_to: str | None) -> float:
    from datetime import datetime

    if not iso_from or not iso_to:
        return float("nan")
    return (datetime.fromisoformat(iso_to) - datetime.fromisoformat(iso_from)).total_seconds()


def summarise(label: str, outcome: dict, counts: dict) -> tuple[list[str], dict]:
    record: Record = outcome["record"]
    rows = {}
    for kind in sorted(record.tally.latencies):
        ms = [1000 * v for v in record.tally.latencies[kind]]
        statuses = record.statuses[kind]
        rows[kind] = {
            "n": len(ms),
            "5xx": sum(n for s, n in statuses.items() if s >= 500),
            "no answer": statuses.get(0, 0),
            "statuses": dict(sorted(statuses.items())),
            "p50": percentile(ms, 50),
            "p95": percentile(ms, 95),
            "max": max(ms),
        }
    job = outcome.get("job") or {}
    if job:
        took = _seconds(job.get("started_at"), job.get("finished_at"))
        how = f"job {job.get('state')} ({job.get('error') or 'no error'}), its last run "
        how += (
            f"{took:.0f} s, created {_seconds(job.get('created_at'), job.get('started_at')):.1f} s"
        )
        how += f" before; {outcome['wall']:.0f} s from the first upload POST to the end seen"
    else:
        took = outcome["wall"]
        how = f"command exit {outcome.get('exit')}, {took:.0f} s: {outcome.get('output', '')!r}"
    lines = [
        f"[{label}] import: {how}; "
        f"finished within the bound: {outcome['finished']}; stored {counts}; clients still "
        f"waiting at the end, cancelled: {outcome['clients still waiting, cancelled']}",
    ]
    for kind, row in rows.items():
        lines.append(
            f"  {kind:15s} n={row['n']:5d} 5xx={row['5xx']:3d} statuses {row['statuses']}  "
            f"p50 {row['p50']:8.1f} ms  p95 {row['p95']:8.1f} ms  max {row['max']:8.1f} ms"
        )
    slow = [e for e in record.events if e[3] >= 5 or e[2] >= 500 or e[2] == 0]
    if slow:
        lines.append(
            "  slow (≥ 5 s) or failed, (ended at s, kind, status, took s): "
            + ", ".join(f"({t:.0f}, {k}, {s}, {d:.1f})" for t, k, s, d in slow[:40])
            + (" …" if len(slow) > 40 else "")
        )
    return lines, {"rows": rows, "import seconds": took, "how": how}


def table(results: list[tuple[str, dict]]) -> list[str]:
    out = [
        "| request | code | requests | 5xx | p50 ms | p95 ms | max ms |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for kind, name in KINDS.items():
        for label, result in results:
            row = result["rows"].get(kind)
            if row:
                out.append(
                    f"| {name} | {label} | {row['n']} | {row['5xx']} | {row['p50']:,.0f} "
                    f"| {row['p95']:,.0f} | {row['max']:,.0f} |"
                )
    for label, result in results:
        out.append(f"| the import | {label} | {result['how']} |  |  |  |  |")
    return out


def bench_root(root: Path, run_file: Path, args) -> tuple[list[str], dict]:
    label = f"{root.name} ({_git_head(root)})"
    print(f"== {label}: starting make run's processes for {root}", flush=True)
    started = time.monotonic()
    stack = SqliteStack(root, args)
    try:
        print(
            f"== {label}: set up in {time.monotonic() - started:.0f} s; importing via "
            f"{args.via} (load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
        cpu_before = stack.cpu()
        outcome = asyncio.run(measure(stack, run_file, args))
        cpu = {k: v - cpu_before[k] for k, v in stack.cpu().items()}
        counts = json.loads(stack.inside("counts", "--collection", str(stack.setup["collection"])))
    finally:
        stack.stop()
    lines, result = summarise(label, outcome, counts)
    lines.insert(
        1,
        "  CPU s over the import: "
        + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
        + f"; load {os.getloadavg()[0]:.2f} at its end",
    )
    print("\n".join(lines), flush=True)
    return lines, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", action="append", type=Path, help="checkout to serve")
    parser.add_argument("--via", choices=["upload", "command"], default="upload")
    parser.add_argument("--systems", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--docs", type=int, default=10)
    parser.add_argument("--clips", type=int, default=2000, help="document ids used")
    parser.add_argument("--crowd-workers", type=int, default=4)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--api-every", type=float, default=2.0)
    parser.add_argument("--max-import-seconds", type=float, default=480)
    parser.add_argument(
        "--no-debug",
        dest="debug",
        action="store_false",
        help="DEBUG false (make run's default is true)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    parser.add_argument("--inside", choices=["setup", "counts"], help=argparse.SUPPRESS)
    parser.add_argument("--collection", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    roots = [r.resolve() for r in args.root or [ROOT]]
    if args.inside == "setup":
        print(json.dumps(setup_inside(str(roots[0]))))
        return 0
    if args.inside == "counts":
        print(json.dumps(counts_inside(str(roots[0]), args.collection)))
        return 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    data = Path(tempfile.mkdtemp(prefix="earshot-runs-"))
    try:
        run_file = data / "runs.txt"
        lines = write_run_file(
            run_file, systems=args.systems, queries=args.queries, docs=args.docs, clips=args.clips
        )
        print(f"{run_file}: {lines:,} lines, {run_file.stat().st_size / 1e6:.1f} MB", flush=True)
        summary, results = [], []
        for root in roots:
            root_lines, result = bench_root(root, run_file, args)
            summary += root_lines
            results.append((f"{root.name} ({_git_head(root)})", result))
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("\n===== summary =====")
    print("\n".join(summary))
    print("\n".join(table(results)))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
