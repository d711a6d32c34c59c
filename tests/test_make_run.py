"""``make run``'s script brings the demo up with Redis, two Celery workers (one per queue)
and the web server, and Ctrl-C stops every process it started; a second start after that
works too."""

import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http import client
from pathlib import Path

import psycopg
import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children_of(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return {int(p) for p in out.stdout.split()}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return not state.stdout.strip().startswith("Z")


def command_of(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


STARTUP_SECONDS = 300
"""How long ``make run`` may take to migrate, seed the demo and start everything: on a
machine whose two cores are busy with both test passes (and more) it has taken over
two minutes."""


def wait_for_the_banner(run: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while "Press Ctrl-C" not in log.read_text():
        assert run.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, (
            f"no banner after {STARTUP_SECONDS} s: {log.read_text()[-3000:]}"
        )
        time.sleep(0.5)


def start_and_stop(var: Path, port: int) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(EARSHOT_VAR_DIR=str(var), EARSHOT_PORT=str(port), PYTHONUNBUFFERED="1")
    log = var / "run.log"
    with open(log, "wb") as out:
        run = subprocess.Popen(
            [sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        wait_for_the_banner(run, log)
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=30)
        assert page.status == 200
        children = children_of(run.pid)
        # redis-server, a Celery worker per queue (interactive, heavy), gunicorn
        assert len(children) == 4, log.read_text()
        commands = [command_of(pid) for pid in children]
        assert sum("--queues interactive" in c for c in commands) == 1, commands
        assert sum("--queues heavy" in c for c in commands) == 1, commands
        # And theirs: the workers' pool processes and the beat (issue 20: one was left
        # running with parent 1 after two of three stops).
        started = children | {pid for child in children for pid in children_of(child)}
        assert len(started) > 4, log.read_text()
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=60)
    time.sleep(0.5)
    assert not [pid for pid in started if alive(pid)], log.read_text()
    return log.read_text()


def test_it_serves_the_demo_and_ctrl_c_leaves_no_process_behind(tmp_path):
    text = start_and_stop(tmp_path, free_port())
    assert "organiser / earshot-organiser" in text
    assert "assessor / earshot-assessor" in text
    assert "/t/" in text and "PROLIFIC_PID=" in text  # the crowd link
    assert "Stopped every process Earshot started." in text
    # The interactive worker also runs the schedule (the sweep after a dead broker or worker).
    assert "beat: Starting" in (tmp_path / "celery-worker.log").read_text()

    again = start_and_stop(tmp_path, free_port())  # same var/: the demo is already there
    assert "already" in again


BUSY_WORKER = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a Celery worker in warm shutdown waits
child = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"])
print(child.pid, flush=True)
time.sleep(120)
"""


def test_a_busy_worker_that_ignores_the_stop_request_is_killed_with_its_pool_child():
    """What stop_group does when a worker is busy: a Celery worker in warm shutdown
    finishes its task first and its pool child keeps running. Both ignore SIGTERM here,
    as a long task would; after the grace time the whole group is killed."""
    spec = importlib.util.spec_from_file_location("earshot_run_script", ROOT / "scripts/run.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    worker = subprocess.Popen(
        [sys.executable, "-c", BUSY_WORKER], stdout=subprocess.PIPE, start_new_session=True
    )
    pool_child = int(worker.stdout.readline())
    try:
        assert alive(worker.pid) and alive(pool_child)
        script.stop_group(worker, timeout=1)
        assert worker.returncode == -signal.SIGKILL  # SIGTERM was ignored: killed, not waited
        deadline = time.monotonic() + 10  # killed at once; gone once the scheduler runs it
        while alive(pool_child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(pool_child)
    finally:
        worker.stdout.close()
        for pid in (worker.pid, pool_child):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


CLIENTS, REQUESTS = 80, 4
"""Keep-alive crowd browsers and the requests each sends over its one connection."""


@pytest.mark.django_db
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="runs in the PostgreSQL pass: its connections"
)
def test_on_postgresql_many_keep_alive_browsers_hold_a_bounded_number_of_connections(tmp_path):
    """Issue 28, item 8: under ``make run`` on PostgreSQL, 80 keep-alive crowd browsers got
    72 × 500 "too many clients already": Django's development server held a thread, and a
    database connection (``CONN_MAX_AGE``), per open browser connection. ``make run`` now
    serves with gunicorn's threads (2 processes × 4 threads): 80 browsers, each arriving
    through the demo's task link and opening its consent page on one kept-alive
    connection, get no 5xx, and the database never sees more than those 8 connections for
    the pages and a few for the Celery workers (sampled from ``pg_stat_activity``)."""
    name = f"earshot_run_{os.getpid()}"
    params = connection.get_connection_params()
    admin = psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    user, password = params.get("user", ""), params.get("password") or ""
    url = f"postgresql://{user}:{password}@{params.get('host', '127.0.0.1')}:{params.get('port', 5432)}/{name}"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL"}}
    env.update(EARSHOT_VAR_DIR=str(tmp_path), EARSHOT_PORT=str(port), DATABASE_URL=url,
               PYTHONUNBUFFERED="1", EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR="1000")  # fmt: skip
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        run = subprocess.Popen([sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=out,
                               stderr=out, start_new_session=True)  # fmt: skip
    peak, statuses, stop = [0], [], threading.Event()

    def sample():
        while not stop.is_set():
            (count,) = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
            ).fetchone()
            peak[0] = max(peak[0], count)
            stop.wait(0.05)

    def browser(n: int):
        http = client.HTTPConnection("127.0.0.1", port, timeout=120)
        path, cookies = link.replace("demo-worker-1", f"pg-{n}"), {}
        for _ in range(REQUESTS):
            cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
            http.request("GET", path, headers={"Cookie": cookie} if cookie else {})
            response = http.getresponse()
            response.read()
            statuses.append(response.status)
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, value = header.split(";")[0].partition("=")
                cookies[name] = value
            path = f"/t/{token}/consent/"  # where the arrival sends its browser
        http.close()

    try:
        wait_for_the_banner(run, log)
        link = re.search(r"http://\S+?(/t/\S+)", log.read_text()).group(1)
        token = link.split("/")[2]
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        browsers = [threading.Thread(target=browser, args=(n,)) for n in range(CLIENTS)]
        for thread in browsers:
            thread.start()
        for thread in browsers:
            thread.join(timeout=300)
        stop.set()
        sampler.join()
    finally:
        stop.set()
        run.send_signal(signal.SIGINT)
        run.wait(timeout=60)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    assert len(statuses) == CLIENTS * REQUESTS and max(statuses) < 500, sorted(set(statuses))
    # 2 × 4 threads for the pages; the workers' processes and the beat: a few more
    assert peak[0] <= 8 + 6, f"{peak[0]} connections at once"
