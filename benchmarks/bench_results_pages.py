"""Results pages and status polls: server time per page, on SQLite and on PostgreSQL.

What is measured (issue 14): the time the server takes to answer each results page of
a collection whose results are stored — the overview, a leaderboard, a system, the
significance of every pair, the reliability study, a campaign's satisfaction mapping —
the status document the pages poll (``results/status.json``, also with ``?campaign=``)
and results URLs that do not exist (404), timed with the Django test client (the whole
request through middleware, session, view and template; no network) over several
repetitions after one warm-up request: median and 95th percentile of the wall-clock
time, and the median CPU time of the process (on a machine shared with other work the
wall clock also counts the time spent waiting for a core; with SQLite the CPU time is
all the server's work, with PostgreSQL it leaves out the database server's). Also the
number of SQL queries of each page, its size, on PostgreSQL the tables a query of the
page scans sequentially (``EXPLAIN`` of each query with its parameters), and for a
fresh process started as a gunicorn worker is (``import config.wsgi``) the time to start
and the time of its first request.

Two collections (``results_data.py``), each set up in a fresh database with the real
importers and the real recompute (``collection_results_compute``, the default measures,
bootstrap test with 10,000 resamples; then the campaign's ``campaign_mapping_compute``):

- **MIREX 2011**: ``import_mirex`` of the shared folder (18 systems × 100 queries × top 5,
  6,322 Fine judgments), plus 1,000 preference answers on pairs of its lists
  (``import_preference_answers``, answers drawn from the lists' Fine judgments, seed 0);
- **synthetic**: 100 systems × 1,000 queries × top 5 from a pool of 50 judged clips per
  query (seed 1, as ``bench_recompute.py``), written in the MIREX folder format and
  imported with ``import_mirex``, plus 1,000 answers likewise.

Each database runs in its own process (Django reads ``DATABASE_URL`` once): SQLite in a
temporary file, PostgreSQL in a throwaway cluster (``embedded/postgres.py``), with
production settings (``DEBUG`` off, static files from ``collectstatic``).

    python benchmarks/bench_results_pages.py [--code [LABEL=]DIR ...] [--database sqlite postgres]
        [--repeat 30] [--skip-synthetic] [--synthetic-size 100x1000] [--json FILE]

``--synthetic-size SxQ`` sets the synthetic collection's systems and queries (issue 34
measured the leaderboard page at 180 × 100).

``--code`` measures other checkouts of Earshot side by side in one run (e.g. an export of
``main`` as "before" and this one as "after"; each with ``DIR/.venv`` if it has one).
A URL that the code under test does not have (e.g. the significance page before it
existed) is reported as ``n/a``. Nothing is asserted: the figures go to
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("BENCH_CODE"):
    sys.path.insert(0, str(ROOT))

from results_data import MIREX, OWNER, set_up, synthetic_folder  # noqa: E402  (beside this file)


def storing(collection_id: int) -> dict[str, float]:
    """s to store one leaderboard of the collection again (median of 3): its payload
    alone, and as a recompute stores it now, with the parts the pages read (only for code
    that has ``leaderboard_store``)."""
    try:
        from evaluation.services.leaderboard_store import leaderboard_store
    except ImportError:
        return {}
    from evaluation.models import Leaderboard

    board = Leaderboard.objects.filter(collection_id=collection_id).order_by("measure").first()
    alone, whole = [], []
    for _ in range(3):
        started = time.perf_counter()
        Leaderboard.objects.filter(pk=board.pk).update(payload=board.payload)
        alone.append(time.perf_counter() - started)
        started = time.perf_counter()
        leaderboard_store(
            collection=board.collection, measure=board.measure, payload=board.payload,
            computed_at=board.computed_at,
        )  # fmt: skip
        whole.append(time.perf_counter() - started)
    return {
        "a leaderboard's payload stored": statistics.median(alone),
        "with its parts": statistics.median(whole),
    }


def urls(collection_id: int, campaign_id: int) -> dict[str, str]:
    from evaluation.models import Leaderboard

    board = Leaderboard.objects.filter(collection_id=collection_id).order_by("measure").first()
    measure = quote(board.measure)
    best = board.payload["rows"][0]["system"]
    # Systems are addressed by id (a checkout from before that change: by name).
    system = board.collection.systems.get(name=best).pk
    if "<path:system>" in Path(board._meta.app_config.path, "urls.py").read_text():
        system = quote(best)
    base = f"/collections/{collection_id}/results/"
    return {
        "overview": base,
        "leaderboard": f"{base}leaderboard/?measure={measure}",
        "system": f"{base}systems/{system}/?measure={measure}",
        "significance": f"{base}significance/?measure={measure}",
        "reliability": f"{base}reliability/?measure={measure}",
        "mapping": f"{base}mapping/?campaign={campaign_id}&measure={measure}",
        "status.json": f"{base}status.json",
        "status.json?campaign": f"{base}status.json?campaign={campaign_id}",
        "404 measure": f"{base}leaderboard/?measure=nope",
        "404 system": f"{base}systems/999999/?measure={measure}",
        "404 collection": "/collections/999999/results/",
    }


# --- timing ----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def login_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=OWNER))
    return client


def statements(client, url: str) -> list[tuple[str, tuple]]:
    """The SQL statements (with their parameters) of one request (Django resets
    ``connection.queries`` when a request starts, so they are caught by a wrapper)."""
    from django.db import connection

    made = []

    def catch(execute, sql, params, many, context):
        made.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(catch):
        client.get(url)
    return made


def sequential_scans(made: list[tuple[str, tuple]]) -> list[str]:
    """On PostgreSQL, the tables the plans of these SELECTs scan sequentially."""
    import re

    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    tables = set()
    with connection.cursor() as cursor:
        for sql, params in made:
            if sql.lstrip().upper().startswith("SELECT"):
                cursor.execute(f"EXPLAIN {sql}", params)
                plan = "\n".join(row[0] for row in cursor.fetchall())
                tables.update(re.findall(r"Seq Scan on (\w+)", plan))
    return sorted(tables)


def time_pages(targets: dict[str, str], *, repeat: int) -> dict[str, dict]:
    """Each page ``repeat`` times, taking the pages in turn (so that a burst of load from
    elsewhere on the machine falls on all of them alike), after one warm-up request each."""
    client = login_client()
    results, wall, cpu = {}, {}, {}
    for page, url in targets.items():
        response = client.get(url)  # warm-up (and the expected status)
        if response.status_code == 404 and not page.startswith("404"):
            results[page] = {"status": 404}  # the code under test has no such page
            continue
        made = statements(client, url)
        results[page] = {
            "status": response.status_code,
            "queries": len(made),
            "seq_scans": sequential_scans(made),
            "kb": len(response.content) / 1024,
        }
        wall[page], cpu[page] = [], []
    for _ in range(repeat):
        for page in wall:
            started, cpu_started = time.perf_counter(), time.process_time()
            client.get(targets[page])
            wall[page].append((time.perf_counter() - started) * 1000)
            cpu[page].append((time.process_time() - cpu_started) * 1000)
    for page in wall:
        results[page].update(
            median=statistics.median(wall[page]),
            p95=percentile(wall[page], 0.95),
            cpu=statistics.median(cpu[page]),
        )
    return results


FIRST_REQUEST = """
import sys, time
sys.path.insert(0, sys.argv[1])
started = time.perf_counter()
import config.wsgi  # what gunicorn loads when a worker starts
boot = time.perf_counter() - started
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
client = Client()
client.force_login(get_user_model().objects.get(username=sys.argv[3]))
cookie = client.cookies.output(header="", sep=";").strip()
environ = RequestFactory().get(sys.argv[2], HTTP_COOKIE=cookie).environ
statuses = []
started = time.perf_counter()
body = b"".join(config.wsgi.application(environ, lambda s, h, e=None: statuses.append(s)))
first = time.perf_counter() - started
print(statuses[0].split()[0], boot * 1000, first * 1000)
"""


def first_request(url: str) -> tuple[float, float]:
    """ms to start a fresh process as a gunicorn worker does (``import config.wsgi``),
    then ms of its first request, through that WSGI application as gunicorn calls it."""
    out = subprocess.run(
        [sys.executable, "-c", FIRST_REQUEST, os.environ["BENCH_CODE"], url, OWNER],
        check=True, capture_output=True, text=True, env=os.environ,
    )  # fmt: skip
    status, boot, first = out.stdout.strip().splitlines()[-1].split()
    if status not in ("200", "404"):
        raise RuntimeError(f"the first request of a fresh worker for {url} answered {status}")
    return float(boot), float(first)


def run_one(database: str, *, repeat: int, synthetic: bool, size: str = "100x1000") -> dict:
    """The child process: one database, both collections."""
    import logging

    import django

    django.setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # no line per 404
    from django.core.management import call_command

    from common.roles import ORGANISER, grant_role

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model

    grant_role(get_user_model().objects.create(username=OWNER), ORGANISER)
    collections = [("MIREX 2011", MIREX)]
    work = Path(tempfile.mkdtemp(prefix="bench-results-"))
    if synthetic:
        systems, queries = (int(x) for x in size.split("x"))
        folder = synthetic_folder(work / "synthetic", n_systems=systems, n_queries=queries)
        collections.append((f"synthetic {systems}×{queries}", folder))
    try:
        return {name: measure(name, folder, repeat=repeat) for name, folder in collections}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(name: str, folder: Path, *, repeat: int) -> dict:
    """Set up one collection, then time its pages."""
    ids = set_up(folder, name)
    ids["setup"].update(storing(ids["collection"]))
    targets = urls(ids["collection"], ids["campaign"])
    pages = time_pages(targets, repeat=repeat)
    for page in ("overview", "status.json", "404 measure"):
        pages[page]["boot"], pages[page]["first"] = first_request(targets[page])
    return {"setup": ids["setup"], "pages": pages}


# --- the parent: one child per database, then the table ---------------------------------


def bench_env(code: Path, work: Path) -> dict[str, str]:
    """The environment of a child measuring ``code`` with its files under ``work``
    (``DATABASE_URL`` aside)."""
    return dict(
        os.environ,
        BENCH_CODE=str(code),
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(code),
        # As in production: DEBUG off (no SQL log, plain 404 pages), static files from
        # collectstatic's manifest.
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 40,
        ALLOWED_HOSTS="testserver",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        STATIC_ROOT=str(work / "static"),
        EARSHOT_VAR_DIR=str(work / "var"),
        LOG_LEVEL="ERROR",
    )


def child(code: Path, database: str, args) -> dict:
    work = Path(tempfile.mkdtemp(prefix="bench-results-db-"))
    env = bench_env(code, work)
    cluster = None
    if database == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    else:
        from embedded.postgres import start_postgres

        cluster = start_postgres()
        env["DATABASE_URL"] = cluster.url
    python = code / ".venv" / "bin" / "python"
    out = work / "report.json"
    command = [str(python) if python.exists() else sys.executable, __file__,
               "--child", database, "--repeat", str(args.repeat), "--out", str(out)]  # fmt: skip
    if args.skip_synthetic:
        command.append("--skip-synthetic")
    command += ["--synthetic-size", args.synthetic_size]
    try:
        subprocess.run(command, check=True, env=env, cwd=code)
        return json.loads(out.read_text())
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


def table(reports: dict[str, dict]) -> str:
    """One table per database and collection: a row per page, a column group per code."""
    codes = list(reports)
    first = reports[codes[0]]
    lines = []
    for database, collections in first.items():
        for name, data in collections.items():
            lines.append(f"\n{database} · {name}\n")
            for code in codes:
                setup = reports[code][database][name]["setup"]
                timings = ", ".join(f"{k} {v:.2f} s" for k, v in setup.items())
                lines.append(f"- setup of {code}: {timings}")
            lines.append("")
            header = ["page"] + [
                f"{code}: {column}"
                for code in codes
                for column in ("median ms", "p95 ms", "CPU ms", "queries", "KB")
            ]
            lines.append("| " + " | ".join(header) + " | seq scans | fresh worker |")
            lines.append("|---|" + "---:|" * (len(header) - 1) + "---|---|")
            for page in data["pages"]:
                cells, scans, fresh = [page], "", []
                for code in codes:
                    r = reports[code][database][name]["pages"].get(page, {})
                    if "median" not in r:
                        cells += ["n/a", "", "", "", ""]
                        continue
                    cells += [f"{r['median']:.1f}", f"{r['p95']:.1f}", f"{r['cpu']:.1f}",
                              str(r["queries"]), f"{r['kb']:.0f}"]  # fmt: skip
                    scans = ", ".join(r.get("seq_scans", [])) if database == "postgres" else ""
                    if "first" in r:
                        fresh.append(f"{code}: start {r['boot']:.0f} ms, first {r['first']:.0f} ms")
                lines.append("| " + " | ".join(cells) + f" | {scans} | {'; '.join(fresh)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", nargs="+", default=[f"this={ROOT}"], metavar="[LABEL=]DIR",
                        help="checkouts of Earshot to measure (default: this one)")  # fmt: skip
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgres"],
                        default=["sqlite", "postgres"])  # fmt: skip
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--synthetic-size", default="100x1000", metavar="SxQ")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        sys.path.insert(0, os.environ["BENCH_CODE"])
        report = run_one(
            args.child, repeat=args.repeat, synthetic=not args.skip_synthetic,
            size=args.synthetic_size,
        )  # fmt: skip
        args.out.write_text(json.dumps(report))
        return 0
    print(f"load average at start: {os.getloadavg()}", flush=True)
    codes = dict(c.split("=", 1) if "=" in c else (Path(c).name, c) for c in args.code)
    reports = {
        label: {db: child(Path(code).resolve(), db, args) for db in args.database}
        for label, code in codes.items()
    }
    print(f"load average at end: {os.getloadavg()}")
    print(table(reports))
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
