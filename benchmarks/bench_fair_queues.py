"""One organiser's burst of small uploads and another's one upload right after, before and after.

Issue 28, item 6: "one organiser's 20 small runs uploads sent at once held another
organiser's 15-line upload from 0.6 s to 35.8 s (same interactive queue, first in first
out)". For each checkout — ``main`` (exported with ``git archive`` into a temporary
folder) and this branch — on a fresh SQLite database and its own embedded Redis:

1. set up (not measured): migrate; organisers A and B, a collection each;
2. start the workers as ``make run`` does: one per queue (``interactive``, ``heavy``),
   prefork pool, concurrency 1;
3. A sends 20 runs uploads at once (each 4,000 ``system query doc`` lines, 60 KB: a small
   upload, imported on the interactive queue in about a second), then B one upload of
   15 lines; all through the upload services, as the pages do (``steps burst``);
4. every job's creation, start and end are read back once all have ended.

Only the uploads are measured: the results recompute the imports ask for is delayed by 10
minutes (``EARSHOT_RECOMPUTE_DELAY_MS``), so it does not run on the interactive worker
during the measurement (on this busy machine such a recompute took 20–30 s and every
upload sent meanwhile waited for it, before and after alike).

Reported per run: B's upload from its start to its end, and when A's last upload ended.
Runs alternate between the checkouts (``--rounds``, default 2 each: before, after,
before, after) so that the machine's load falls on both alike. Nothing is asserted.

Run: ``python benchmarks/bench_fair_queues.py [--before REF] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BURST, LINES, SMALL_LINES = 20, 4_000, 15


def export(ref: str, into: Path) -> Path:
    """The tree of ``ref`` in ``into`` (nothing of the working tree or other worktrees)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "benchmarks").mkdir(exist_ok=True)
    shutil.copy(__file__, into / "benchmarks" / Path(__file__).name)  # these steps, there
    return into


@contextmanager
def stack(checkout: Path):
    """A fresh database and Redis, the set-up done, and the two workers started: env."""
    from embedded.redis import start_redis, stop_process

    folder = Path(tempfile.mkdtemp(prefix="earshot-fair-"))
    var = folder / "var"
    redis = start_redis(var / "redis", log=var / "redis.log")
    env = dict(os.environ, EARSHOT_VAR_DIR=str(var), REDIS_URL=redis.url,
               DATABASE_URL=f"sqlite:///{var / 'db.sqlite3'}", PYTHONPATH=str(checkout),
               EARSHOT_RECOMPUTE_DELAY_MS="600000")  # fmt: skip  # (below)
    workers = []
    me = [sys.executable, str(checkout / "benchmarks" / Path(__file__).name)]
    try:
        subprocess.run([*me, "steps", "setup"], cwd=checkout, env=env, check=True)
        log = open(var / "workers.log", "wb")  # noqa: SIM115 - the workers keep it
        for queue in ("interactive", "heavy"):
            workers.append(subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
                 "--concurrency", "1", "--without-gossip", "--without-mingle",
                 "--queues", queue, "--hostname", f"{queue}@%h"],
                cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT,
            ))  # fmt: skip
        deadline = time.monotonic() + 120
        while (var / "workers.log").read_bytes().count(b"ready.") < 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.5)
        yield env, me
    finally:
        for worker in workers:
            stop_process(worker)
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


def run_once(label: str, checkout: Path) -> dict:
    with stack(checkout) as (env, me):
        done = subprocess.run([*me, "steps", "burst"], cwd=checkout, env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"| {label} | {result['b_waited']:.1f} | {result['b_queued']:.1f} | "
          f"{result['a_before_b']} | {result['a_last']:.1f} | {result['a_median']:.1f} |",
          flush=True)  # fmt: skip
    return result


# --- the steps, run inside a checkout --------------------------------------------------


def steps(step: str) -> None:
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.db import transaction

    from catalog.models import Collection
    from ingest.services.uploads import upload_create, upload_start
    from work.models import Job

    users = get_user_model().objects
    if step == "setup":
        call_command("migrate", "--noinput", "-v", "0")
        for name in ("organiser-a", "organiser-b"):
            owner = users.create_user(name, password="x")
            Collection.objects.create(owner=owner, name=f"{name}'s collection")
        return

    def upload(owner, n: int, lines: int) -> Job:
        text = "".join(f"S{n}\tq{i % 50}\td{i}\n" for i in range(lines))
        with transaction.atomic():
            stored = upload_create(
                kind="runs", owner=owner, collection=Collection.objects.get(owner=owner),
                files={"runs": [SimpleUploadedFile(f"run{n}.tsv", text.encode())]},
                options={"format": "ranked", "create_missing_clips": True,
                         "create_missing_queries": True},
            )  # fmt: skip
            return upload_start(upload=stored)

    a, b = users.get(username="organiser-a"), users.get(username="organiser-b")
    burst = [upload(a, n, LINES) for n in range(BURST)]  # sent at once
    small = upload(b, 99, SMALL_LINES)
    deadline = time.monotonic() + 600
    ids = [job.pk for job in [*burst, small]]
    while Job.objects.filter(pk__in=ids, state__in=Job.ACTIVE).exists():
        assert time.monotonic() < deadline, "the jobs did not end"
        time.sleep(0.2)
    jobs = {job.pk: job for job in Job.objects.filter(pk__in=ids)}
    assert all(job.state == Job.DONE for job in jobs.values()), [j.error for j in jobs.values()]
    start = min(job.created_at for job in jobs.values())
    ends = sorted((jobs[j.pk].finished_at - start).total_seconds() for j in burst)
    b = jobs[small.pk]
    print(json.dumps({
        "b_waited": (b.finished_at - b.created_at).total_seconds(),
        "b_queued": (b.started_at - b.created_at).total_seconds(),
        "a_before_b": sum(jobs[j.pk].started_at > b.created_at and jobs[j.pk].started_at < b.started_at
                          for j in burst),
        "a_last": ends[-1], "a_median": ends[len(ends) // 2],
    }))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["steps"]:
        steps(sys.argv[2])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git ref of the 'before' checkout")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    print("| run | B's 15-line upload, start to end (s) | of which waiting in the queue (s) "
          "| A's uploads started while B's waited | A's 20th upload ended (s) "
          "| A's median upload ended (s) |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="earshot-before-") as tree:
        before = export(args.before, Path(tree) / "src")
        for n in range(args.rounds):
            run_once(f"before ({args.before}), round {n + 1}", before)
            run_once(f"after (this branch), round {n + 1}", ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
