"""The cost of counting audio by what was delivered (issue 29, item 5), on the real stack.

For each checkout given (``--root``, repeatable: main before the change and the branch
after it) this script starts, by itself and on this machine only, a throwaway PostgreSQL
(``embedded.postgres``), Redis (``embedded.redis``) and gunicorn on 127.0.0.1 as the
README's recipe runs it (``--workers 4``, ``DEBUG=false``); it makes a crowd campaign
whose clips are a 1.5 s tone (24 KB, the crowd capacity benchmark's) or a 13 s WAV of
1.15 MB (44.1 kHz mono, the size of the demo's clips), and a set of workers who arrived,
consented and opened a task, through the task link. Then the checkouts' stacks run side
by side and measured in turn (A B A B …, ``--rounds``):

- **one at a time**: ``--requests`` full downloads (``Range: bytes=0-``, each on its own
  connection, read to the end) of each clip: latency p50 / p95;
- **concurrently**: ``--clients`` threads downloading the short clip for ``--seconds``:
  downloads per second, and the server's CPU (gunicorn + PostgreSQL, from ``/proc``) per
  download;
- **hang-ups**: ``--hangups`` clients that read the long clip's response headers one byte
  at a time and close, and as many that keep the connection one second without reading:
  how many bytes the server then counted as sent (from the database), against the 573,322
  bytes (half the clip) that make a clip count as heard.

Run (from the repository root; ``git archive`` exports main without a new worktree)::

    mkdir /tmp/audio-before && git archive main | tar -x -C /tmp/audio-before
    ln -s "$PWD/.venv" /tmp/audio-before/.venv
    .venv/bin/python benchmarks/bench_audio_delivery.py --root /tmp/audio-before --root .

Figures and the command that produced them: ``docs/benchmarks.md`` ("Audio counted by
what was delivered").
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(1, str(ROOT))

from benchmarks.bench_crowd_load import _django, _tone_wav, cpu_seconds, percentile  # noqa: E402

LONG_SECONDS, RATE = 13.0, 44_100
HALF_OF_LONG = (44 + int(LONG_SECONDS * RATE) * 2) // 2  # the coverage rule's half: 573,322


# --- inside the served checkout ----------------------------------------------------------


def setup_data(root: str) -> dict:
    """A collection of 4 queries and 24 candidates, the short or the long clip each, and an
    open campaign with the listening check; its token."""
    _django(root)
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from catalog.models import Clip
    from tests.helpers.crowd_fixtures import build_crowd_collection, make_campaign

    owner = get_user_model().objects.create(username="bench")
    collection = build_crowd_collection(owner)
    media = Path(settings.MEDIA_ROOT) / "bench"
    media.mkdir(parents=True, exist_ok=True)
    (media / "short.wav").write_bytes(_tone_wav(1.5, 8000))
    (media / "long.wav").write_bytes(_tone_wav(LONG_SECONDS, RATE))
    clips = Clip.objects.filter(collection=collection)
    clips.filter(external_id__startswith="q").update(audio="bench/long.wav", duration=LONG_SECONDS)
    clips.exclude(external_id__startswith="q").update(audio="bench/short.wav", duration=1.5)
    campaign = make_campaign(
        collection, traps=0, listening_check=True, answers_per_example=10_000,
        max_answers_per_worker=100_000,
    )  # fmt: skip
    return {"token": campaign.token}


def counted(root: str, keys: list[str]) -> list[int]:
    """Bytes of the query clip (the long one) recorded as sent, per task key (0: none)."""
    _django(root)
    from listening.models import AudioServed

    sent = dict(
        AudioServed.objects.filter(
            task__key__in=keys, clip__external_id__startswith="q"
        ).values_list("task__key", "bytes_sent")
    )
    return [sent.get(key, 0) for key in keys]


# --- the stack ---------------------------------------------------------------------------


class Stack:
    """PostgreSQL, Redis and gunicorn for one checkout; ``stop()`` ends them by PID."""

    def __init__(self, root: Path, workers: int) -> None:
        self.root, self.gunicorn, self.postgres, self.redis = root, None, None, None
        self.tmp = Path(tempfile.mkdtemp(prefix="earshot-audio-"))
        try:  # whatever fails on the way, what was started is stopped
            self._start(workers)
        except BaseException:
            self.stop()
            raise

    def _start(self, workers: int) -> None:
        from embedded.postgres import start_postgres
        from embedded.redis import start_redis
        from tests.helpers.processes import free_port, wait_for_port

        root = self.root
        self.postgres = start_postgres()
        self.redis = start_redis(self.tmp / "redis", log=self.tmp / "redis.log")
        self.port = free_port()
        self.env = dict(
            os.environ, DEBUG="false", SECRET_KEY="audio-benchmark-" + "x" * 40,
            ALLOWED_HOSTS="127.0.0.1", DATABASE_URL=self.postgres.url, REDIS_URL=self.redis.url,
            EARSHOT_VAR_DIR=str(self.tmp / "var"), MEDIA_ROOT=str(self.tmp / "media"),
            STATIC_ROOT=str(self.tmp / "static"), LOG_LEVEL="WARNING", PYTHONPATH=str(root),
            EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR="1000000",
        )  # fmt: skip
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=root, env=self.env,
                           check=True, capture_output=True)  # fmt: skip
        self.token = json.loads(self.inside("setup"))["token"]
        log = self.tmp / "gunicorn.log"
        with open(log, "ab") as out:
            self.gunicorn = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi",
                 "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers)],
                cwd=root, env=self.env, stdout=out, stderr=out,
            )  # fmt: skip
        wait_for_port(self.port, self.gunicorn, log)
        self.postgres_pid = int((self.postgres.datadir / "postmaster.pid").read_text().split()[0])

    def inside(self, what: str, payload: str = "") -> str:
        done = subprocess.run(
            [sys.executable, __file__, "--inside", what, "--root", str(self.root)],
            cwd=self.root, env=self.env, input=payload, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"{what} failed in {self.root}: {done.stderr[-3000:]}")
        return done.stdout

    def cpu(self) -> float:
        return cpu_seconds(self.gunicorn.pid) + cpu_seconds(self.postgres_pid)

    def stop(self) -> None:
        from embedded.redis import stop_process

        if self.gunicorn is not None:
            stop_process(self.gunicorn, timeout=15)
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
        if sys.exc_info()[0] is None:  # after a failure its logs are kept, and said where
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            print(f"logs of {self.root} kept in {self.tmp}", file=sys.stderr)


# --- clients -----------------------------------------------------------------------------

AUDIO_SRC = re.compile(r'<audio[^>]* src="([^"]+)"')
KEY = re.compile(r'name="key" value="([^"]+)"')


def _get(port: int, path: str, cookie: str = "", headers: dict | None = None):
    """``(status, body, cookies set)`` of one GET on its own connection, read to the end."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers={"Cookie": cookie, **(headers or {})})
        response = connection.getresponse()
        cookies = [c.split(";", 1)[0] for c in response.msg.get_all("Set-Cookie") or []]
        return response.status, response.read(), "; ".join(cookies)
    finally:
        connection.close()


def a_worker(port: int, token: str, name: str) -> dict:
    """Arrive, consent and open a task through the link: the worker's cookie, task key and
    audio URLs by place (``query`` is the long clip, ``a1`` a short one)."""
    pid = hashlib.sha256(name.encode()).hexdigest()[:24]  # as Prolific's ids are
    query = urlencode({"PROLIFIC_PID": pid, "STUDY_ID": "bench", "SESSION_ID": name})
    _, _, cookie = _get(port, f"/t/{token}/?{query}")
    _, page, _ = _get(port, f"/t/{token}/consent/", cookie)
    signed = re.search(r'name="token" value="([^"]+)"', page.decode()).group(1)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = urlencode({"agree": "on", "token": signed})
    connection.request("POST", f"/t/{token}/consent/", body=body, headers={
        "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
    connection.getresponse().read()
    connection.close()
    _, page, _ = _get(port, f"/t/{token}/task/", cookie)
    html = page.decode()
    urls = {u.rsplit("/", 1)[1]: u for u in AUDIO_SRC.findall(html)}
    return {"cookie": cookie, "key": KEY.search(html).group(1), "urls": urls}


def download(port: int, worker: dict, slot: str) -> float:
    started = time.perf_counter()
    status, body, _ = _get(port, worker["urls"][slot], worker["cookie"], {"Range": "bytes=0-"})
    assert status == 206 and body, status
    return time.perf_counter() - started


def hang_up(port: int, worker: dict, *, hold: float) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        request = (f"GET {worker['urls']['query']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Cookie: {worker['cookie']}\r\n\r\n")  # fmt: skip
        connection.sendall(request.encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += connection.recv(1)
        time.sleep(hold)


def measure(stack: Stack, workers: list[dict], spare: list[dict], args) -> dict:
    port = stack.port
    one = {slot: [download(port, workers[0], slot) for _ in range(args.requests)]
           for slot in ("a1", "query")}  # fmt: skip
    done, stop = [], time.monotonic() + args.seconds

    def client(worker):
        while time.monotonic() < stop:
            download(port, worker, "a1")
            done.append(1)

    cpu_before, started = stack.cpu(), time.monotonic()
    threads = [threading.Thread(target=client, args=(w,)) for w in workers[: args.clients]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall, cpu = time.monotonic() - started, stack.cpu() - cpu_before
    hung = [spare.pop() for _ in range(args.hangups)]
    held = [spare.pop() for _ in range(args.hangups)]
    for worker in hung:
        hang_up(port, worker, hold=0)
    for worker in held:
        hang_up(port, worker, hold=1.0)
    time.sleep(args.drain)  # the server's streams end (the after: at most its 2 s drain)
    keys = [w["key"] for w in hung + held]
    bytes_counted = json.loads(stack.inside("counted", json.dumps(keys)))
    return {
        "one": {slot: [1000 * t for t in times] for slot, times in one.items()},
        "rate": len(done) / wall,
        "cpu_ms": 1000 * cpu / max(1, len(done)),
        "hung": bytes_counted[: len(hung)],
        "held": bytes_counted[len(hung) :],
    }


def summary(label: str, result: dict) -> str:
    one = result["one"]
    return (
        f"[{label}] one at a time p50/p95 ms: short {percentile(one['a1'], 50):.1f}/"
        f"{percentile(one['a1'], 95):.1f}, long {percentile(one['query'], 50):.1f}/"
        f"{percentile(one['query'], 95):.1f}; concurrent {result['rate']:.1f} downloads/s, "
        f"server CPU {result['cpu_ms']:.1f} ms per download; bytes counted of 1,146,644 "
        f"(heard from {HALF_OF_LONG:,}): hung up after the headers median "
        f"{statistics.median(result['hung']):,.0f} max {max(result['hung']):,}, held 1 s "
        f"unread median {statistics.median(result['held']):,.0f} max {max(result['held']):,}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", action="append", type=Path, help="checkout to serve")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--hangups", type=int, default=10)
    parser.add_argument("--drain", type=float, default=3)
    parser.add_argument("--gunicorn-workers", type=int, default=4)
    parser.add_argument("--inside", choices=["setup", "counted"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    roots = [r.resolve() for r in (args.root or [ROOT])]
    if args.inside:
        if args.inside == "setup":
            print(json.dumps(setup_data(str(roots[0]))))
        else:
            print(json.dumps(counted(str(roots[0]), json.loads(sys.stdin.read()))))
        return 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    stacks = {}
    try:
        for n, root in enumerate(roots):
            label = f"{chr(ord('A') + n)} {root.name or root.parent.name}"
            stacks[label] = stack = Stack(root, args.gunicorn_workers)
            need = args.clients + 2 * args.hangups * args.rounds
            stack.workers = [a_worker(stack.port, stack.token, f"{n}-{i}") for i in range(need)]
        lines = []
        for round_ in range(1, args.rounds + 1):
            for label, stack in stacks.items():
                spare = stack.workers[args.clients :]
                result = measure(stack, stack.workers[: args.clients], spare, args)
                stack.workers = stack.workers[: args.clients] + spare
                line = f"round {round_} (load {os.getloadavg()[0]:.2f}) " + summary(label, result)
                print(line, flush=True)
                lines.append(line)
    finally:
        for stack in stacks.values():
            stack.stop()
    print("\n===== summary =====")
    print("\n".join(lines))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
