"""The leaderboard page at 180 systems: its table made, kept and stored (issue 34, item 5).

The table's HTML is stored with the leaderboard when the recompute stores it
(``evaluation.leaderboard_table``) and, when it must be made on a page (no stored table
matches), kept per process (``evaluation.leaderboard_rows.kept``). One process alternates
the three cases, so that the machine's changing speed falls on all alike: per round the
stored tables are blanked and the kept ones dropped, and the leaderboard requested
(**made**: a leaderboard stored before the table was, or a site under another URL
prefix), the other results pages requested, the leaderboard requested again (**kept**),
the other pages; then the stored tables put back, the kept ones dropped, and the
leaderboard requested (**stored**: the first request after a recompute, in any process),
the other pages. The collection is
``bench_results_pages``'s synthetic one, set up the same way (real importers and
recompute, SQLite, production settings); CPU time of each request through the Django
test client.

    python benchmarks/bench_leaderboard_kept.py [--rounds 25] [--size 180x100]

(It measured "cold" and "warm" before the table was stored: cold is now "made", warm
"kept".)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_results_pages as pages  # noqa: E402


def measure(rounds: int, size: str) -> None:
    import logging

    import django

    django.setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from common.roles import ORGANISER, grant_role
    from evaluation import leaderboard_rows
    from evaluation.models import Leaderboard

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    grant_role(get_user_model().objects.create(username=pages.OWNER), ORGANISER)
    systems, queries = (int(x) for x in size.split("x"))
    work = Path(tempfile.mkdtemp(prefix="bench-kept-"))
    folder = pages.synthetic_folder(work / "synthetic", n_systems=systems, n_queries=queries)
    ids = pages.set_up(folder, "synthetic")
    urls = pages.urls(ids["collection"], ids["campaign"])
    client = pages.login_client()
    board, others = urls["leaderboard"], [u for name, u in urls.items() if name != "leaderboard"]
    for url in urls.values():
        client.get(url)

    def cpu_ms(url: str) -> float:
        started = time.process_time()
        client.get(url)
        return (time.process_time() - started) * 1000

    tables = dict(Leaderboard.objects.values_list("pk", "table"))
    assert all(tables.values()), "the recompute stored no table"
    made, kept, stored = [], [], []
    for _ in range(rounds):
        Leaderboard.objects.update(table="")
        leaderboard_rows._kept.clear()
        made.append(cpu_ms(board))
        for url in others:
            client.get(url)
        kept.append(cpu_ms(board))
        for url in others:
            client.get(url)
        for pk, table in tables.items():
            Leaderboard.objects.filter(pk=pk).update(table=table)
        leaderboard_rows._kept.clear()
        stored.append(cpu_ms(board))
        for url in others:
            client.get(url)
    m, k, s = (statistics.median(x) for x in (made, kept, stored))
    print(f"{size} leaderboard, CPU ms median of {rounds}: made {m:.1f}, kept {k:.1f}, "
          f"stored {s:.1f}; stored / made {s / m:.2f}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--size", default="180x100", metavar="SxQ")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure(args.rounds, args.size)
        return 0
    print(f"load average at start: {os.getloadavg()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="bench-kept-db-"))
    env = pages.bench_env(ROOT, work) | {"DATABASE_URL": f"sqlite:///{work / 'bench.sqlite3'}"}
    try:
        command = [sys.executable, __file__, "--child", "--rounds", str(args.rounds),
                   "--size", args.size]  # fmt: skip
        return subprocess.run(command, env=env, cwd=ROOT).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
