"""Run the whole test suite twice: on SQLite (the embedded default) and on PostgreSQL.

Pass 1 runs every test on SQLite, browser and Celery-worker tests included.
Pass 2 runs the Django-side tests (not the browser ones) on PostgreSQL: the server
given by ``DATABASE_URL``, or else a throwaway cluster started here and stopped at the end.
Extra arguments go to both pytest runs.
"""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from embedded.postgres import postgres_bindir, start_postgres  # noqa: E402


def pytest(args: list[str], env: dict[str, str], title: str) -> int:
    print(f"\n===== {title} =====", flush=True)
    return subprocess.call([sys.executable, "-m", "pytest", *args], cwd=ROOT, env=env)


def main() -> int:
    extra = sys.argv[1:]
    in_ci = os.environ.get("CI", "").lower() == "true"
    sqlite_env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    status = pytest(extra, sqlite_env, "pass 1: every test on SQLite")

    cluster = None
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        if postgres_bindir() is None:
            message = "*** PostgreSQL pass NOT run: no PostgreSQL server binaries on this machine"
            print(message, file=sys.stderr)
            return status or (1 if in_ci else 0)
        cluster = start_postgres()
        database_url = cluster.url
    try:
        pg_env = dict(os.environ, DATABASE_URL=database_url, EARSHOT_EXPECT_POSTGRES="1")
        pg_status = pytest(
            ["tests", "-m", "not browser", *extra], pg_env, "pass 2: Django tests on PostgreSQL"
        )
    finally:
        if cluster is not None:
            cluster.stop()
    return status or pg_status


if __name__ == "__main__":
    sys.exit(main())
