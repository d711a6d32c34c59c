"""``make run``'s script brings the demo up with Redis, two Celery workers (one per queue)
and the web server, and Ctrl-C stops every process it started; a second start after that
works too."""

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

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


def start_and_stop(var: Path, port: int) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(EARSHOT_VAR_DIR=str(var), EARSHOT_PORT=str(port), PYTHONUNBUFFERED="1")
    log = var / "run.log"
    with open(log, "wb") as out:
        run = subprocess.Popen(
            [sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        deadline = time.monotonic() + 120
        while "Press Ctrl-C" not in log.read_text() and time.monotonic() < deadline:
            assert run.poll() is None, log.read_text()
            time.sleep(0.5)
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=30)
        assert page.status == 200
        children = children_of(run.pid)
        # redis-server, a Celery worker per queue (interactive, heavy), runserver
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
        time.sleep(0.2)
        assert worker.returncode == -signal.SIGKILL  # SIGTERM was ignored: killed, not waited
        assert not alive(pool_child)
    finally:
        worker.stdout.close()
        for pid in (worker.pid, pool_child):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
