"""Peak memory of the importers on big files: streamed and bounded, never a whole file held.

Issue 11: "importers hold a whole file in memory (a 1 GB file peaks at ~2.3 GB)". Each
case runs the ``import_*`` command, as an organiser would, in a fresh process on a copy
of a freshly migrated SQLite database, and records the process's peak resident memory
while importing (Linux ``VmHWM``, reset after the setup with ``/proc/self/clear_refs``),
the wall time and how the import ended. Files are generated deterministically into the
git-ignored ``benchmarks/data/import-memory/``:

- ``answers-bad-line-3.csv`` — 1 GiB of preference answers whose third line is bad: the
  import must stop at once (the case the issue measured);
- ``answers.csv`` — 1 GiB of valid answers: stops at the importer's ``MAX_ROWS``;
- ``judgments.tsv``, ``runs.tsv`` — 1 GiB of ``query doc fine`` and ``system query doc``
  lines: stop at the importers' ``MAX_LINES``;
- ``judgments-at-limit.tsv``, ``runs-at-limit.tsv`` — exactly ``MAX_LINES`` lines: the
  biggest files that import, i.e. the most memory an import of that kind can take.

``--before PATH`` runs the same cases with the checkout at PATH (e.g. ``/work/main``)
for comparison; every child runs under an address-space limit (``--cap-gb``, default 6)
so that an unbounded importer fails with MemoryError instead of exhausting the machine.

Run: ``python benchmarks/bench_import_memory.py [--only NAME ...] [--before PATH]``.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "import-memory"
GIB = 1 << 30
QUERIES, CLIPS = 100, 2000

CHILD = r"""
import json, os, resource, sys, time
cap = int(os.environ["BENCH_CAP_BYTES"])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import call_command
from django.core.management.base import CommandError

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0

args = json.loads(os.environ["BENCH_ARGS"])
baseline = hwm()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak: measure the import only
start = time.monotonic()
try:
    call_command(*args, stdout=open(os.devnull, "w"))
    outcome = "imported"
except CommandError as error:
    outcome = "refused: " + str(error)[:160]
except MemoryError:
    outcome = "MemoryError at the cap"
print(json.dumps({"peak": hwm(), "baseline": baseline, "seconds": time.monotonic() - start,
                  "outcome": outcome}))
"""

SETUP = r"""
import os, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from catalog.models import Clip, Collection, Query
owner = get_user_model().objects.create(username="bench")
collection = Collection.objects.create(owner=owner, name="bench")
Clip.objects.bulk_create([Clip(collection=collection, external_id=f"q{i:03d}") for i in range(%(queries)d)]
                         + [Clip(collection=collection, external_id=f"d{i:05d}") for i in range(%(clips)d)])
queries = Clip.objects.filter(collection=collection, external_id__startswith="q")
Query.objects.bulk_create([Query(collection=collection, clip=c) for c in queries])
from catalog.models import RelevanceJudgment
try:  # the answers need a judgment of every (query, clip) they show
    from catalog.models import JudgmentSource
    source = JudgmentSource.objects.create(collection=collection, name="bench", kind="import")
except ImportError:
    source = "import:bench"
clips = list(Clip.objects.filter(collection=collection, external_id__startswith="d")[:10])
RelevanceJudgment.objects.bulk_create(
    [RelevanceJudgment(query=q.as_queries.get(), clip=c, source=source, fine=50)
     for q in queries for c in clips])
print(collection.pk)
"""


def _write(path: Path, lines, size: int | None = None, count: int | None = None) -> Path:
    """Write ``lines`` (an endless iterator of bytes) until ``size`` bytes or ``count`` lines."""
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    written = n = 0
    part = path.with_suffix(".part")
    with part.open("wb", buffering=1 << 22) as out:
        chunk = []
        for line in lines:
            chunk.append(line)
            written += len(line)
            n += 1
            if len(chunk) >= 100_000:
                out.write(b"".join(chunk))
                chunk.clear()
            if (size and written >= size) or (count and n >= count):
                break
        out.write(b"".join(chunk))
    part.rename(path)
    return path


def answers(bad_line: int | None = None):
    yield b"query,list_a,list_b,answer,worker\n"
    n = 0
    while True:
        n += 1
        if bad_line and n + 1 == bad_line:
            yield b"q000,d00000,d00001,not-an-answer,w\n"
            continue
        q = n % QUERIES
        yield (
            b"q%03d,d00000 d00001 d00002 d00003 d00004,d00005 d00006 d00007 d00008 d00009,a_better,w%d\n"
            % (
                q,
                n,
            )
        )


def judgments():
    n = 0
    while True:
        yield b"q%03d d%07d %d\n" % (n % QUERIES, n // QUERIES, n % 101)
        n += 1


def runs():
    n = 0
    while True:  # systems of 1,000 queries-ranks each: S0 q000..q099 × 10 ranks
        system, rest = divmod(n, QUERIES * 10)
        query, rank = divmod(rest, 10)
        yield b"S%d\tq%03d\td%07d\n" % (system, query, rank + 10 * system)
        n += 1


def cases(limits: dict) -> dict[str, tuple[Path, list[str]]]:
    jl, rl = limits["judgments"], limits["runs"]
    return {
        "answers-bad-line-3": (
            _write(DATA / "answers-bad-line-3.csv", answers(bad_line=3), size=GIB),
            ["import_preference_answers", "{collection}", "{file}"],
        ),
        "answers": (
            _write(DATA / "answers.csv", answers(), size=GIB),
            ["import_preference_answers", "{collection}", "{file}"],
        ),
        "judgments": (
            _write(DATA / "judgments.tsv", judgments(), size=GIB),
            ["import_judgments", "{collection}", "{file}", "--create-missing-clips"],
        ),
        "runs": (
            _write(DATA / "runs.tsv", runs(), size=GIB),
            ["import_runs", "{collection}", "{file}", "--create-missing-clips"],
        ),
        "judgments-at-limit": (
            _write(DATA / f"judgments-{jl}.tsv", judgments(), count=jl),
            ["import_judgments", "{collection}", "{file}", "--create-missing-clips"],
        ),
        "runs-at-limit": (
            _write(DATA / f"runs-{rl}.tsv", runs(), count=rl),
            ["import_runs", "{collection}", "{file}", "--create-missing-clips"],
        ),
    }


def template_database(checkout: Path, workdir: Path) -> tuple[Path, int]:
    database = workdir / f"template-{checkout.name}.sqlite3"
    env = _env(checkout, database, workdir)
    out = subprocess.run(
        [sys.executable, "-c", SETUP % {"queries": QUERIES, "clips": CLIPS}],
        cwd=checkout, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return database, int(out.stdout.strip().splitlines()[-1])


def _env(checkout: Path, database: Path, workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        EARSHOT_VAR_DIR=str(workdir / "var"),
        REDIS_URL=f"redis+socket://{workdir / 'no-redis.sock'}",  # no broker: sends fail fast
        PYTHONPATH=str(checkout),
    )
    return env


def run_case(checkout: Path, template: Path, collection: int, args: list[str], path: Path,
             workdir: Path, cap: int) -> dict:  # fmt: skip
    database = workdir / "case.sqlite3"
    shutil.copy(template, database)
    env = _env(checkout, database, workdir)
    env["BENCH_CAP_BYTES"] = str(cap)
    env["BENCH_ARGS"] = json.dumps([a.format(collection=collection, file=path) for a in args])
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=checkout, env=env,
                          capture_output=True, text=True)  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"peak": 0, "seconds": 0, "outcome": f"crashed: {done.stderr.strip()[-300:]}"}
    return json.loads(lines[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME")
    parser.add_argument("--before", type=Path, help="also run with the checkout at this path")
    parser.add_argument("--cap-gb", type=float, default=6.0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from ingest.importers import judgments as judgments_importer
    from ingest.importers import runs as runs_importer
    from pastanswers.importers import answers as answers_importer

    limits = {"judgments": judgments_importer.MAX_LINES, "runs": runs_importer.MAX_LINES,
              "answers": answers_importer.MAX_ROWS}  # fmt: skip
    print(f"limits: {limits}; cap {args.cap_gb} GB per process; data in {DATA}", flush=True)
    chosen = {k: v for k, v in cases(limits).items() if not args.only or k in args.only}
    checkouts = [("this checkout", ROOT)] + ([("before", args.before)] if args.before else [])
    cap = int(args.cap_gb * GIB)
    print("| case | file | checkout | peak MB while importing | s | outcome |")
    print("|---|---:|---|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        workdir = Path(tmp)
        for label, checkout in checkouts:
            template, collection = template_database(checkout, workdir)
            for name, (path, command) in chosen.items():
                if label == "before" and name.endswith("at-limit"):
                    continue
                result = run_case(checkout, template, collection, command, path, workdir, cap)
                size = path.stat().st_size / 1e6
                print(f"| {name} | {size:,.0f} MB | {label} | {result['peak'] / 1e6:,.0f} | "
                      f"{result['seconds']:.1f} | {result['outcome']} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    started = time.monotonic()
    status = main()
    print(f"({time.monotonic() - started:.0f} s)")
    sys.exit(status)
