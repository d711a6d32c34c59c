"""Real processes for the fault tests: Celery workers, gunicorn, and crowd workers over HTTP.

Every process is started here with its own log and stopped by PID (``stop_process``),
whatever the test does; nothing is faked.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from embedded.redis import stop_process

ROOT = Path(__file__).resolve().parents[2]


TEST_WORKER_NICENESS = 1
"""The tests' Celery workers are niced by 1, not the product's 10: two test passes fill
both cores, and a worker niced by 10 would wait behind them (weight 110 against 1024)
while a test waits for it. The niceness is still applied and checked
(``tests/test_celery_worker.py``)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            pass
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.2)


def environment(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL=redis_url, LOG_LEVEL="INFO")
    env.setdefault("EARSHOT_WORKER_NICENESS", str(TEST_WORKER_NICENESS))
    env.update(extra)
    return env


@dataclass
class Processes:
    """The processes a test started, stopped in reverse order at the end."""

    folder: Path
    started: list[subprocess.Popen] = field(default_factory=list)

    def worker(
        self, env: dict, *, name: str, hostname: str, beat: bool = False, pool: str = "solo"
    ):
        """A Celery worker of both queues; ``pool="prefork"``: one pool process under the
        worker, as ``make run`` starts them (killing that process is a worker lost)."""
        log = self.folder / f"{name}.log"
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", pool,
                   "--concurrency", "1", "--without-gossip", "--without-mingle",
                   "--loglevel", "INFO", "--hostname", hostname,
                   "--queues", "interactive,heavy"]  # fmt: skip
        if beat:
            command += ["--beat", "--schedule", str(self.folder / f"{name}-beat")]
        with open(log, "ab") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                       stderr=subprocess.STDOUT)  # fmt: skip
        self.started.append(process)
        deadline = time.monotonic() + 60
        while b"ready." not in log.read_bytes():
            if process.poll() is not None:
                raise AssertionError(f"the worker exited: {log.read_text()[-2000:]}")
            assert time.monotonic() < deadline, (
                f"the worker did not start: {log.read_text()[-2000:]}"
            )
            time.sleep(0.2)
        return process

    def web(self, env: dict, *, workers: int = 2) -> str:
        port = free_port()
        log = self.folder / "gunicorn.log"
        with open(log, "ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
                 "--workers", str(workers), "--timeout", "60"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.started.append(process)
        wait_for_port(port, process, log)
        return f"http://127.0.0.1:{port}"

    def kill(self, process: subprocess.Popen) -> None:
        """``kill -9``: no goodbye, no acknowledgement, nothing cleaned up."""
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    @staticmethod
    def pool_process(worker: subprocess.Popen) -> int:
        """The process id of a prefork worker's (only) pool process."""
        children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
        assert len(children) == 1, children
        return int(children[0])

    def stop_all(self) -> None:
        for process in reversed(self.started):
            stop_process(process)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@dataclass
class CrowdClient:
    """A crowd worker in a browser: arrives by the task link, consents, answers tasks.

    ``acknowledged`` holds the task keys whose answer the server confirmed (a redirect
    after the POST); a failure (a 5xx or no connection) is retried with the same key,
    as a browser's resubmission would be: answers are idempotent by key.
    """

    base: str
    token: str
    worker: str
    choose: Callable[[str], str] = lambda key: "a_better"
    acknowledged: list[str] = field(default_factory=list)
    failures: int = 0

    def __post_init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def _request(self, path: str, data: dict | None = None) -> tuple[int, str, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        try:
            with self.opener.open(request, timeout=30) as response:
                return (
                    response.status,
                    response.read().decode(),
                    response.headers.get("Location", ""),
                )
        except urllib.error.HTTPError as error:
            return (
                error.code,
                error.read().decode(errors="replace"),
                error.headers.get("Location", ""),
            )

    def _retrying(
        self, path: str, data: dict | None = None, tries: int = 60
    ) -> tuple[int, str, str]:
        for _ in range(tries):
            try:
                status, text, location = self._request(path, data)
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                status, text, location = 0, "", ""
            if status and status < 500:
                return status, text, location
            self.failures += 1
            time.sleep(0.5)
        raise AssertionError(f"{self.worker}: {path} kept failing")

    def start(self) -> None:
        self._retrying(f"/t/{self.token}/?worker={self.worker}")
        _, page, _ = self._retrying(f"/t/{self.token}/consent/")
        consent = re.search(r'name="token" value="([^"]+)"', page).group(1)
        self._retrying(f"/t/{self.token}/consent/", {"agree": "on", "token": consent})

    def answer_one(self) -> bool:
        """Answer the open task; ``False`` when there is none left."""
        status, page, _ = self._retrying(f"/t/{self.token}/task/")
        if status == 302:
            return False  # done
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        status, _, _ = self._retrying(f"/t/{self.token}/task/",
                                             {"key": key, "choice": self.choose(key), "comment": ""})  # fmt: skip
        assert status == 302, status
        self.acknowledged.append(key)
        return True
