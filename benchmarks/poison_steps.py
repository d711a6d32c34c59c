"""The steps of ``bench_poison.py`` inside one checkout (not a benchmark by itself).

Run with the checkout as working directory, so that Django imports *its* code (the
branch or ``main`` exported by the driver): ``python poison_steps.py setup|race SECONDS|poison SECONDS``.

- ``setup``: migrate; organiser A's collection of 3 systems × 5 queries × 10 clips,
  judged (so that its leaderboards test every pair), and organiser B's empty collection,
  both through the upload services and the job runner in this process;
- ``poison``: A uploads the poison file alone; a JSON line every 0.2 s of A's recompute
  (``bench_poison.py --kill`` kills its worker's pool process under it);
- ``race``: A uploads the poison runs file (3,018 systems on one query, create missing
  queries and clips), and B a small runs file right after the poison's work started (its
  import done and the recompute it asked for claimed); then, every 0.2 s, one JSON
  line of where B's upload, A's upload and A's results recompute stand, until B's is
  done and A's recompute has ended (done or failed), or ``--seconds`` have passed.
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from catalog.models import Collection  # noqa: E402
from evaluation.models import Recompute  # noqa: E402
from ingest.services.uploads import upload_create, upload_start  # noqa: E402
from work.job_runners import job_run  # noqa: E402
from work.models import Job  # noqa: E402

POISON_SYSTEMS = 3018
MISSING = {"create_missing_clips": True, "create_missing_queries": True}


def upload(owner, collection, kind: str, name: str, text: str, options: dict) -> Job:
    with transaction.atomic():
        stored = upload_create(
            kind=kind, owner=owner, collection=collection,
            files={kind: [SimpleUploadedFile(name, text.encode())]}, options=options,
        )  # fmt: skip
        return upload_start(upload=stored)


def setup() -> None:
    call_command("migrate", "--noinput", "-v", "0")
    users = get_user_model().objects
    a = users.create_user("organiser-a", password="x", is_staff=True)
    b = users.create_user("organiser-b", password="x", is_staff=True)
    mine = Collection.objects.create(owner=a, name="A: careless organiser")
    Collection.objects.create(owner=b, name="B: small upload")
    base = "".join(
        f"q{q} Q0 d{(d + s) % 10} {d + 1} {10 - d} s{s}\n"
        for s in range(3)
        for q in range(1, 6)
        for d in range(5)
    )
    judgments = "".join(
        f"q{q} d{d} {(q * 7 + d * 13) % 101}\n" for q in range(1, 6) for d in range(10)
    )
    for kind, name, text, options in (
        ("runs", "base.run", base, MISSING),
        ("judgments", "base.qrels", judgments, {"create_missing_clips": True}),
    ):
        job = upload(a, mine, kind, name, text, options)
        job_run(job_id=job.pk)  # here, not by a worker: the set-up is not measured
        job.refresh_from_db()
        assert job.state == Job.DONE, (job.state, job.error)


def state(job_id: int) -> dict:
    job = Job.objects.get(pk=job_id)
    return {"state": job.state, "created": job.created_at.timestamp(),
            "finished": job.finished_at.timestamp() if job.finished_at else None}  # fmt: skip


def _first_results(collection) -> None:
    """Wait for A's first results (the workers take the set-up's changes)."""
    deadline = time.time() + 120
    rows = Recompute.objects.filter(kind="collection", target_id=collection.pk, state="done")
    while not rows.exists():
        assert time.time() < deadline, "A's first results were not computed"
        time.sleep(0.2)


def race(seconds: float) -> None:
    users = get_user_model().objects
    a, b = users.get(username="organiser-a"), users.get(username="organiser-b")
    mine, theirs = Collection.objects.get(owner=a), Collection.objects.get(owner=b)
    _first_results(mine)
    poison = "".join(f"q1 Q0 d{i} 1 1 sys{i}\n" for i in range(POISON_SYSTEMS))
    small = "".join(
        f"x{q} Q0 y{d} {d + 1} 1 t{s}\n" for s in range(2) for q in range(2) for d in range(3)
    )
    started = time.time()
    poison_job = upload(a, mine, "runs", "poison.run", poison, MISSING)
    # B starts right after the poison's work has started: its import done and the results
    # recompute it asked for claimed (or already ended), as in the issue (at most 30 s).
    rows = Recompute.objects.filter(kind="collection", target_id=mine.pk)
    while time.time() - started < 30:
        imported = Job.objects.get(pk=poison_job.pk).finished_at
        claimed = imported and rows.filter(started_at__gt=imported).exclude(state="queued")
        if claimed and claimed.exists():
            break
        time.sleep(0.1)
    small_job = upload(b, theirs, "runs", "small.run", small, MISSING)
    print(json.dumps({"poison_bytes": len(poison.encode()), "started": started,
                      "small_started": time.time() - started}), flush=True)  # fmt: skip
    while True:
        row = Recompute.objects.filter(kind="collection", target_id=mine.pk).first()
        line = {
            "t": time.time() - started,
            "small": state(small_job.pk),
            "poison_upload": state(poison_job.pk),
            "recompute": None if row is None else {
                "status": row.state, "error": row.error[:400], "runs": row.computations,
                "finished": row.finished_at.timestamp() if row.finished_at else None,
            },
        }  # fmt: skip
        print(json.dumps(line), flush=True)
        small_done = line["small"]["state"] not in ("queued", "running")
        upload_done = line["poison_upload"]["state"] not in ("queued", "running")
        # ended after the poison was imported (not the set-up's results, done before)
        recompute_ended = (
            upload_done and row is not None and row.state in ("done", "failed")
            and row.finished_at.timestamp() >= (line["poison_upload"]["finished"] or 0)
        )  # fmt: skip
        if (small_done and upload_done and recompute_ended) or line["t"] > seconds:
            return
        time.sleep(0.2)


def poison_only(seconds: float) -> None:
    """A uploads the poison file alone; one JSON line every 0.2 s of A's recompute (its
    status, the worker that claimed it, its claims) until it ends or ``seconds`` pass."""
    a = get_user_model().objects.get(username="organiser-a")
    mine = Collection.objects.get(owner=a)
    _first_results(mine)
    started = time.time()
    poison = "".join(f"q1 Q0 d{i} 1 1 sys{i}\n" for i in range(POISON_SYSTEMS))
    job = upload(a, mine, "runs", "poison.run", poison, MISSING)
    while time.time() - started < seconds:
        row = Recompute.objects.get(kind="collection", target_id=mine.pk)
        imported = Job.objects.get(pk=job.pk).finished_at
        print(json.dumps({"t": time.time() - started, "status": row.state, "runs": row.computations,
                          "claimed_by": row.claimed_by, "task_id": row.task_id,
                          "error": row.error[:300]}), flush=True)  # fmt: skip
        if imported and row.state in ("done", "failed") and row.finished_at > imported:
            return
        time.sleep(0.2)


if __name__ == "__main__":
    step = {"setup": lambda: setup(), "race": lambda: race(float(sys.argv[2])),
            "poison": lambda: poison_only(float(sys.argv[2]))}[sys.argv[1]]  # fmt: skip
    step()
