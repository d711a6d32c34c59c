"""Run the whole test suite twice: on SQLite (the embedded default) and on PostgreSQL.

Pass 1 runs every test on SQLite, browser and Celery-worker tests included.
Pass 2 runs the Django-side tests (not the browser ones) on PostgreSQL: the server
given by ``DATABASE_URL``, or else a throwaway cluster started here and stopped at the end.
Extra arguments go to both pytest runs; test files or folders among them replace pass 2's
test folders, every app's (pytest's ``testpaths``; so ``scripts/run_tests.py
crowd/tests/test_x.py`` runs that file on both databases).

The two passes run side by side, one per core (they share nothing: each has its own
test database, Redis socket folder, temporary folders and ports), so ``make test`` takes
about as long as the longer pass. Pass 1 prints as it goes; pass 2's output is kept in
a file and printed when both have ended. ``EARSHOT_TESTS_SERIAL=1`` runs them one after
the other instead (pass 2 then prints as it goes too).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from embedded.postgres import postgres_bindir, start_postgres  # noqa: E402

SQLITE_TITLE = "pass 1: every test on SQLite"
POSTGRES_TITLE = "pass 2: Django tests on PostgreSQL"


def pytest_command(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", *args]


def run(args: list[str], env: dict[str, str], title: str) -> int:
    print(f"\n===== {title} =====", flush=True)
    return subprocess.call(pytest_command(args), cwd=ROOT, env=env)


def run_side_by_side(sqlite: tuple, postgres: tuple) -> int:
    """Start pass 2 in the background with its output in a file, run pass 1 in the
    foreground, then print pass 2's output and return the worse status."""
    folder = tempfile.mkdtemp(prefix="earshot-pass2-")
    log_path = os.path.join(folder, "pass2.log")
    try:
        with open(log_path, "wb") as log:
            background = subprocess.Popen(
                pytest_command(postgres[0]), cwd=ROOT, env=postgres[1], stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                status = run(*sqlite)
            finally:
                pg_status = background.wait()
        print(f"\n===== {POSTGRES_TITLE} (ran beside pass 1) =====", flush=True)
        with open(log_path, "rb") as log:
            shutil.copyfileobj(log, sys.stdout.buffer)
        sys.stdout.flush()
        return status or pg_status
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    extra = sys.argv[1:]
    in_ci = os.environ.get("CI", "").lower() == "true"
    serial = os.environ.get("EARSHOT_TESTS_SERIAL", "") == "1"
    sqlite_env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    sqlite = (extra, sqlite_env, SQLITE_TITLE)

    cluster = None
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        if postgres_bindir() is None:
            status = run(*sqlite)
            message = "*** PostgreSQL pass NOT run: no PostgreSQL server binaries on this machine"
            print(message, file=sys.stderr)
            return status or (1 if in_ci else 0)
        cluster = start_postgres()
        database_url = cluster.url
    try:
        # Both passes know that the other runs: the tests that use no database run once,
        # in the pass that keeps the two about the same length (tests/helpers/fixtures.py).
        sqlite_env["EARSHOT_TWO_PASSES"] = "1"
        pg_env = dict(os.environ, DATABASE_URL=database_url, EARSHOT_EXPECT_POSTGRES="1",
                      EARSHOT_TWO_PASSES="1")  # fmt: skip
        paths = [a for a in extra if not a.startswith("-") and os.path.exists(a.split("::")[0])]
        options = [a for a in extra if a not in paths]
        postgres = ([*paths, "-m", "not browser", *options], pg_env, POSTGRES_TITLE)
        if serial:
            status = run(*sqlite)
            return status or run(*postgres)
        return run_side_by_side(sqlite, postgres)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
