"""A throwaway PostgreSQL cluster from the machine's binaries, for tests.

``initdb`` + ``pg_ctl`` in a temporary directory on a free loopback port. When the
current user is root the server runs as the ``postgres`` user (PostgreSQL refuses
to run as root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def postgres_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, newest version first."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for directory in candidates:
        if Path(directory, "initdb").exists() and Path(directory, "postgres").exists():
            return Path(directory)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ThrowawayPostgres:
    bindir: Path
    datadir: Path
    port: int
    user: str | None  # the OS user that runs the server, when not ourselves

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/earshot"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, text=True)

    def restart(self) -> None:
        """Stop (fast: every connection is cut) and start again with the same options."""
        # -l: the new server must not write to (and so hold open) this process's pipes.
        log = str(self.datadir.parent / "log")
        self._run("pg_ctl", "-D", str(self.datadir), "-l", log, "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.datadir), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.datadir.parent, ignore_errors=True)


def start_postgres() -> ThrowawayPostgres:
    bindir = postgres_bindir()
    if bindir is None:
        raise FileNotFoundError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    root = Path(tempfile.mkdtemp(prefix="earshot-pg-"))
    datadir = root / "data"
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    cluster = ThrowawayPostgres(bindir=bindir, datadir=datadir, port=_free_port(), user=user)
    try:
        cluster._run("initdb", "-D", str(datadir), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = f"-h 127.0.0.1 -p {cluster.port} -k {root} -c fsync=off -c full_page_writes=off -c shared_preload_libraries=pg_stat_statements,auto_explain -c auto_explain.log_min_duration=3"
        cluster._run(
            "pg_ctl", "-D", str(datadir), "-o", options, "-l", str(root / "log"), "-w", "start"
        )
        cluster._run(
            "createdb", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "earshot"
        )
    except subprocess.CalledProcessError as error:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {error.stderr or error.stdout}") from error
    return cluster
