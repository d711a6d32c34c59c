"""Simulated crowd workers for ``bench_crowd_load.py``: plain HTTP over asyncio streams.

Each worker is one browser (its own cookies) that does what a person's browser does on
the task link: arrive with a Prolific id, read the consent page and post it, open the
task, listen as the listening rule asks (the query and the first clip of each list, one
after the other, each fetched as an ``<audio>`` element would and heard for the rule's
time per clip: issue 34, item 6), post an answer — twice, as a double click does — and
follow the redirect to the next task. Only 127.0.0.1 is spoken to; every
loop is bounded by a deadline and a count.

Nothing here reads the database: what counts as *acknowledged* is what a browser sees
(a 302 after an answer that leads anywhere but back to the same task with a refusal).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

KEY = re.compile(r'name="key" value="([^"]+)"')
CONSENT_TOKEN = re.compile(r'name="token" value="([^"]+)"')
AUDIO_SRC = re.compile(r'<audio[^>]* src="([^"]+)"')
CHOICES = ("a_better", "b_better", "both_good", "both_bad")


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes

    @property
    def location(self) -> str:
        return urlsplit(self.headers.get("location", "")).path


@dataclass
class Tally:
    """Latencies (seconds) by request kind, answers acknowledged, and what went wrong."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    acknowledged: list[str] = field(default_factory=list)
    acknowledged_at: list[float] = field(default_factory=list)
    refused: int = 0
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    finished_workers: int = 0


async def request(
    port: int, method: str, path: str, *, cookies: dict[str, str], data=None, headers=None
) -> Response:
    """One HTTP/1.1 request on its own connection (gunicorn's sync workers close it anyway)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        body = urlencode(data).encode() if data is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        if cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
        if data is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded"]
        lines.append(f"Content-Length: {len(body)}")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, str] = {}
    new_cookies: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            cookie, _, _ = value.partition(";")
            k, _, v = cookie.partition("=")
            new_cookies[k.strip()] = v.strip()
        parsed[name] = value
    return Response(int(status_line.split()[1]), parsed, new_cookies, content)


class Worker:
    """One simulated browser on one campaign."""

    def __init__(
        self, port: int, token: str, pid: str, tally: Tally, *, listen: bool, choice: str = ""
    ):
        self.port, self.base, self.pid = port, f"/t/{token}", pid
        self.tally, self.listen, self.choice = tally, listen, choice
        self.cookies: dict[str, str] = {}
        self.page = ""

    async def _do(self, kind: str, method: str, path: str, **kwargs) -> Response:
        started = time.perf_counter()
        response = await request(self.port, method, path, cookies=self.cookies, **kwargs)
        self.tally.latencies[kind].append(time.perf_counter() - started)
        self.cookies.update(response.cookies)
        return response

    async def start(self) -> bool:
        """Arrive, consent, open the first task; False if any step did not work. The
        Prolific id is made from the worker's name: 24 hexadecimal characters, as Prolific's
        are (the server refuses any other, issue 29)."""
        prolific_id = hashlib.sha256(self.pid.encode()).hexdigest()[:24]
        query = urlencode(
            {"PROLIFIC_PID": prolific_id, "STUDY_ID": "bench", "SESSION_ID": self.pid}
        )
        arrived = await self._do("arrive", "GET", f"{self.base}/?{query}")
        consent = await self._do("consent GET", "GET", f"{self.base}/consent/")
        token = CONSENT_TOKEN.search(consent.body.decode())
        if arrived.status != 302 or token is None:
            self.tally.errors[f"arrive {arrived.status}/consent {consent.status}"] += 1
            return False
        agreed = await self._do(
            "consent POST",
            "POST",
            f"{self.base}/consent/",
            data={"agree": "on", "token": token.group(1)},
        )
        if agreed.status != 302:
            self.tally.errors[f"consent POST {agreed.status}"] += 1
            return False
        return await self.open_task()

    async def open_task(self) -> bool:
        page = await self._do("task GET", "GET", f"{self.base}/task/")
        if page.status != 200:
            if page.status == 302 and page.location.endswith(("/end/", "/done/")):
                self.tally.finished_workers += 1
            else:
                self.tally.errors[f"task GET {page.status}"] += 1
            return False
        self.page = page.body.decode()
        return True

    async def hear(self, per_clip: float) -> None:
        """Hear the query and the first clip of each list one after the other, as the
        listening rule asks: fetch each (as the player would) and listen ``per_clip``
        seconds before the next."""
        urls = AUDIO_SRC.findall(self.page)
        wanted = [u for u in urls if u.endswith("/query")]
        for side in ("a", "b"):
            wanted += [u for u in urls if re.search(rf"/{side}\d+$", u)][:1]
        for url in wanted:
            got = await self._do("audio GET", "GET", url, headers={"Range": "bytes=0-"})
            if got.status not in (200, 206):
                self.tally.errors[f"audio {got.status}"] += 1
            if per_clip:
                await asyncio.sleep(per_clip)

    async def answer(self, rng: random.Random) -> bool:
        """Post an answer twice (a double click), follow to the next task; False when done."""
        key = KEY.search(self.page)
        if key is None:
            self.tally.errors["task page without key"] += 1
            return False
        data = {"key": key.group(1), "choice": self.choice or rng.choice(CHOICES), "comment": ""}
        first = await self._do("answer POST", "POST", f"{self.base}/task/", data=data)
        second = await self._do("double POST", "POST", f"{self.base}/task/", data=data)
        if first.status == 400:
            self.tally.refused += 1  # refused by the listening check: nothing stored
        elif first.status == 302:
            self.tally.acknowledged.append(key.group(1))
            self.tally.acknowledged_at.append(time.monotonic())
        else:
            self.tally.errors[f"answer POST {first.status}"] += 1
        if second.status not in (302, 400):
            self.tally.errors[f"double POST {second.status}"] += 1
        if second.status == 302 and "/feedback/" in second.location:
            await self._do("feedback GET", "GET", second.location)
        return await self.open_task()


async def run_worker(
    port: int,
    token: str,
    pid: str,
    tally: Tally,
    *,
    deadline: float,
    think: float,
    listen: bool,
    max_answers: int,
    seed: int,
    per_clip: float = 0.0,
    choice: str = "",
) -> None:
    """Start, then answer until the deadline, ``max_answers`` answers, or nothing is left.

    ``listen``: hear the three clips the rule relies on, ``per_clip`` seconds each, one
    after the other. ``think`` > 0: then wait a uniform 0.8–1.2 × ``think`` seconds. The
    first wait is drawn over a whole task's time so that the workers do not all answer at
    once.
    """
    rng = random.Random(seed)
    worker = Worker(port, token, pid, tally, listen=listen, choice=choice)
    cycle = think + (3 * per_clip if listen else 0)
    try:
        if cycle:
            await asyncio.sleep(rng.uniform(0, cycle))
        if not await worker.start():
            return
        for _ in range(max_answers):
            if listen:
                await worker.hear(per_clip)
            if think:
                await asyncio.sleep(rng.uniform(0.8, 1.2) * think)
            if time.monotonic() >= deadline or not await worker.answer(rng):
                return
    except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as error:
        tally.errors[type(error).__name__] += 1


async def drive(
    port: int,
    token: str,
    *,
    workers: int,
    seconds: float,
    think: float,
    listen: bool,
    tag: str,
    per_clip: float = 0.0,
    choice: str = "",
) -> tuple[Tally, float]:
    """``workers`` simulated workers for ``seconds``; the tally and the wall time taken."""
    tally = Tally()
    started = time.monotonic()
    deadline = started + seconds
    await asyncio.wait_for(
        asyncio.gather(
            *(
                run_worker(
                    port,
                    token,
                    f"{tag}{i:04d}",
                    tally,
                    deadline=deadline,
                    think=think,
                    listen=listen,
                    max_answers=10_000,
                    seed=i,
                    per_clip=per_clip,
                    choice=choice,
                )
                for i in range(workers)
            )
        ),
        timeout=seconds + 120,
    )
    return tally, time.monotonic() - started
