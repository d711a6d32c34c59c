"""What giving slots back costs when nothing is left to serve (``crowd/services/slots.py``).

``task_serve`` calls :func:`tasks_release_stale` and :func:`answers_release_gone` once per
serving attempt that finds no free slot (at saturation: every arriving worker, every
"look for more tasks"). This measures both on a campaign of the demo collection (60
examples) with ``--workers`` workers of 20 answers each (1,000 × 20 = 20,000 answered
tasks by default), of which 2.5 % are untrusted and silent for ten minutes (their answers'
slots are given back on the first call) and 2.5 % untrusted and active; every worker
also holds one open task, alive. On a fresh database (SQLite file, or a throwaway
PostgreSQL with ``--database postgresql``), set up through the ORM (not measured).

Reported: the first call of each (it releases what there is), then the median and the
largest of ``--repeat`` later calls (nothing left to release: the statement alone), in
milliseconds of wall time. Nothing is asserted.

Run: ``python benchmarks/bench_slots_release.py [--database sqlite|postgresql]
[--workers N] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(database: str, work: Path):
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", EARSHOT_VAR_DIR=str(work), LOG_LEVEL="ERROR"
    )
    cluster = None
    if database == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    else:
        from embedded.postgres import start_postgres

        cluster = start_postgres()
        os.environ["DATABASE_URL"] = cluster.url
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return cluster


def build(workers: int):
    from django.utils import timezone

    from catalog.models import Collection
    from crowd.models import Answer, Example, PreferenceTask, Worker
    from crowd.services.campaigns import preference_campaign_create
    from demo.seed import COLLECTION_NAME, demo_seed

    demo_seed(audio=False)
    collection = Collection.objects.get(name=COLLECTION_NAME)
    campaign = preference_campaign_create(
        collection=collection, name="Slots", answers_per_example=workers, listening_check=False
    )
    examples = list(campaign.examples.order_by("pk").values_list("pk", flat=True))
    now, old = timezone.now(), timezone.now() - timedelta(minutes=10)
    gone = set(range(0, workers, 40))  # 2.5 %
    around = set(range(1, workers, 40))  # 2.5 %
    made = Worker.objects.bulk_create(
        Worker(
            campaign=campaign, platform="generic", platform_id=f"w{i}", seed=i,
            consented_at=now, trusted=i not in gone | around, answer_count=20, served_count=21,
        )
        for i in range(workers)
    )  # fmt: skip
    tasks, answers = [], []
    for i, worker in enumerate(made):
        when = old if i in gone else now
        for position in range(21):
            example = examples[(i + position) % len(examples)]
            answered = position < 20
            tasks.append(
                PreferenceTask(
                    worker=worker, example_id=example, position=position + 1, swapped=False,
                    served_at=when, alive_at=when, answered_at=when if answered else None,
                )
            )  # fmt: skip
    PreferenceTask.objects.bulk_create(tasks, batch_size=5000)
    untrusted = {made[i].pk for i in gone | around}
    for task in PreferenceTask.objects.filter(worker__campaign=campaign, answered_at__isnull=False):
        trusted = task.worker_id not in untrusted
        answers.append(
            Answer(
                task=task, worker_id=task.worker_id, example_id=task.example_id,
                choice="a_better", outcome="a_better", swapped=False, served_at=task.served_at,
                answered_at=task.answered_at, seconds=20.0, clips_heard=3,
                accepted_at=now if trusted else None,
            )
        )  # fmt: skip
    Answer.objects.bulk_create(answers, batch_size=5000)
    held = Counter(task.example_id for task in tasks)  # every task holds its slot
    rows = list(campaign.examples.all())
    for example in rows:
        example.slots_taken = held[example.pk]
    Example.objects.bulk_update(rows, ["slots_taken"])
    return campaign


def measure(campaign, repeat: int) -> dict[str, tuple[float, float, float, int]]:
    from django.utils import timezone

    from crowd.services.slots import ANSWER_WAIT_LEASE, answers_release_gone, tasks_release_stale
    from crowd.services.tasks import TASK_HEARTBEAT_LEASE

    calls = {
        "tasks_release_stale": lambda: tasks_release_stale(
            campaign=campaign, older_than=timezone.now() - TASK_HEARTBEAT_LEASE
        ),
        "answers_release_gone": lambda: answers_release_gone(
            campaign=campaign, older_than=timezone.now() - ANSWER_WAIT_LEASE
        ),
    }
    found = {}
    for name, call in calls.items():
        start = time.perf_counter()
        released = call()
        first = (time.perf_counter() - start) * 1000
        later = []
        for _ in range(repeat):
            start = time.perf_counter()
            call()
            later.append((time.perf_counter() - start) * 1000)
        found[name] = (first, statistics.median(later), max(later), released)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--workers", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-slots-"))
    cluster = setup_django(args.database, work)
    try:
        campaign = build(args.workers)
        print(f"{args.database}, {args.workers} workers × 20 answers, an open task each")
        print("| call | first, ms (released) | later: median ms | largest ms |")
        print("|---|---:|---:|---:|")
        for name, (first, median, largest, released) in measure(campaign, args.repeat).items():
            print(f"| `{name}` | {first:.1f} ({released}) | {median:.1f} | {largest:.1f} |")
    finally:
        if cluster is not None:
            from django.db import connections

            connections.close_all()
            cluster.stop()


if __name__ == "__main__":
    main()
