"""``make run``: migrate, seed the demo, start Redis, two Celery workers and the web server
(gunicorn with a bounded pool of threads: :func:`web_command`).

Every process started here is stopped by PID on Ctrl-C (or when one of them dies),
so a second ``make run`` starts clean. With ``REDIS_URL`` set, no Redis is started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from embedded.redis import start_redis  # noqa: E402

HOST, PORT = os.environ.get("EARSHOT_HOST", "127.0.0.1"), os.environ.get("EARSHOT_PORT", "8000")
VAR = Path(os.environ.get("EARSHOT_VAR_DIR", ROOT / "var"))
FIRST_STEPS = [
    'First: log in as the organiser, open "Earshot demo" and play a few clips;',
    "then its Results; then log in as the assessor (another browser or a private",
    'window) and press "Get next query" to judge by ear.',
    'Low-cost judging: the assessor\'s "Get next pair" in "Demo low-cost judging"; the',
    "organiser's page of that campaign shows the estimates until they are confident.",
]


def demo_lines(base: str) -> list[str]:
    """The demo accounts and the crowd link, as the seeding module defines them."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from demo.seed import DEMO_LOGINS, demo_task_link

    return [f"{role:>10}: {user} / {password}" for role, user, password in DEMO_LOGINS] + [
        "",
        "Crowd task link (a new worker id in a new private window for each try; no account):",
        f"  {base}{demo_task_link(worker='demo-worker-1')}",
    ]


WORKER_QUEUES = ("interactive", "heavy")
"""One Celery worker per queue (work/queues.py), so that a big upload or recompute in the
heavy queue never holds a small one in the interactive queue."""


def worker_command(queue: str) -> list[str]:
    """The Celery worker of one queue; the interactive one also runs the schedule (the
    sweep that sends again what a dead broker or worker left undone)."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
               "--concurrency", "1", "--queues", queue, "--hostname", f"{queue}@%h"]  # fmt: skip
    if queue == WORKER_QUEUES[0]:
        command += ["--beat", "--schedule", str(VAR / "celerybeat-schedule")]
    return command


WEB_WORKERS = int(os.environ.get("EARSHOT_WEB_WORKERS", "2"))
WEB_THREADS = int(os.environ.get("EARSHOT_WEB_THREADS", "4"))
"""The web server's processes and threads per process: at most this many requests at once,
so at most ``WEB_WORKERS × WEB_THREADS`` database connections for the pages, however many
browsers keep connections open (Django keeps one per thread, ``CONN_MAX_AGE``)."""


def web_command() -> list[str]:
    """gunicorn with threads (``gthread``): a bounded pool of threads serves the requests and
    idle keep-alive connections wait without a thread. Django's development server started
    a thread, and so a database connection, for every open browser connection: 80 crowd
    browsers on PostgreSQL got 72 "too many clients already" (issue 28, item 8)."""
    return [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"{HOST}:{PORT}",
            "--worker-class", "gthread", "--workers", str(WEB_WORKERS),
            "--threads", str(WEB_THREADS), "--access-logfile", "-", "--timeout", "120",
            "--no-control-socket"]  # fmt: skip  # (gunicorn 27's socket in ~/.gunicorn: not ours)


def manage(*args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, check=True)


def banner(lines: list[str]) -> None:
    width = max(len(line) for line in lines) + 4
    print("\n" + "=" * width)
    for line in lines:
        print(f"  {line}")
    print("=" * width + "\n", flush=True)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _wait_for_server(server: subprocess.Popen, timeout: float = 60) -> None:
    """Return once the web server accepts connections (so the banner tells the truth)."""
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with socket.create_connection((HOST, int(PORT)), timeout=1):
                return
        except OSError:
            time.sleep(0.2)


def stop_group(child: subprocess.Popen, *, timeout: float = 10) -> None:
    """Stop ``child`` and every process it started (its process group, which it leads:
    ``start_new_session``): SIGTERM, then SIGKILL to whatever is left after ``timeout``.

    Stopping the Celery worker by its PID alone left its pool child running with parent 1
    when the worker was busy (issue 20); the group holds the pool and the beat too.
    """
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, timeout)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            break  # nothing of the group is left
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            child.poll()
            try:
                os.killpg(child.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            continue
        break
    child.wait(timeout=timeout)


def main() -> int:
    # Ctrl-C (and a plain kill) stop everything, even when started where SIGINT is ignored.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    VAR.mkdir(parents=True, exist_ok=True)
    children: list[subprocess.Popen] = []
    redis_server = None
    env = dict(os.environ)
    try:
        if "REDIS_URL" not in env:
            # The socket the settings expect by default (var/redis/redis.sock), so that
            # manage.py commands run in another terminal reach this Redis too.
            redis_server = start_redis(VAR / "redis", log=VAR / "redis.log")
            env["REDIS_URL"] = redis_server.url
            os.environ["REDIS_URL"] = redis_server.url
        manage("migrate", "--noinput", "-v", "0")
        manage("seed_demo")
        worker_log = open(VAR / "celery-worker.log", "ab")  # noqa: SIM115 - child keeps it
        for queue in WORKER_QUEUES:
            children.append(
                subprocess.Popen(
                    worker_command(queue),
                    cwd=ROOT,
                    env=env,
                    stdout=worker_log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: stopped with its children
                )
            )
        children.append(subprocess.Popen(web_command(), cwd=ROOT, env=env, start_new_session=True))
        _wait_for_server(children[-1])
        banner(
            [
                f"Earshot is running at http://{HOST}:{PORT}/",
                "",
                *demo_lines(f"http://{HOST}:{PORT}"),
                "",
                *FIRST_STEPS,
                "",
                f"Redis: {env['REDIS_URL']}   Celery log: {VAR / 'celery-worker.log'}",
                "Press Ctrl-C to stop everything.",
            ]
        )
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        print("A process stopped on its own; stopping the others.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nStopping Earshot…", flush=True)
        return 0
    finally:
        # A second Ctrl-C must not orphan children.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for child in reversed(children):
            stop_group(child)
        if redis_server is not None:
            redis_server.stop()
        print("Stopped every process Earshot started.", flush=True)


if __name__ == "__main__":
    sys.exit(main())
