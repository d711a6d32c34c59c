"""The collections of ``bench_results_pages.py``, set up with the real importers and recompute.

- **MIREX 2011**: ``import_mirex`` of the shared folder, plus :data:`ANSWERS` preference
  answers on pairs of its lists (``import_preference_answers``);
- **synthetic**: :func:`synthetic_folder`, 100 systems × 1,000 queries × top 5 from a pool
  of 50 judged clips per query, in the MIREX folder format, imported the same way.

Then the campaign's mapping and the collection's results are computed as a recompute
computes them (:func:`set_up`). Needs Django set up (the benchmark's child process).
"""

from __future__ import annotations

import io
import os
import random
import time
from pathlib import Path
from unittest import mock

from tests.helpers.shared_data import MIREX2011  # shared/ found beside the checkout

MIREX = Path(os.environ.get("MIREX2011", str(MIREX2011)))
OWNER = "bench-organiser"
ANSWERS = 1_000


def synthetic_folder(folder: Path, *, n_systems=100, n_queries=1000, depth=5, pool=50, seed=1):
    """A MIREX-format folder: runs.tsv, judgments.tsv (Fine 0–100), metadata.tsv."""
    import numpy as np

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    queries = [f"q{j:04d}" for j in range(n_queries)]
    with open(folder / "judgments.tsv", "w", encoding="utf-8") as out:
        for q in queries:
            for i, fine in enumerate(rng.integers(0, 101, size=pool)):
                out.write(f"{q}\t{q}d{i:02d}\t{fine}\n")
    with open(folder / "runs.tsv", "w", encoding="utf-8") as out:
        for s in range(n_systems):
            for q in queries:
                for d in rng.choice(pool, size=depth, replace=False):
                    out.write(f"s{s:03d}\t{q}\t{q}d{d:02d}\n")
    with open(folder / "metadata.tsv", "w", encoding="utf-8") as out:
        for q in queries:
            out.write(f"{q}\ta{q}\tg0\n")
            for i in range(pool):
                out.write(f"{q}d{i:02d}\ta{q}{i}\tg{i % 7}\n")
    return folder


def answers_csv(collection, *, n: int, seed: int = 0) -> str:
    """``n`` answers on pairs of two systems' lists for one query, drawn from their Fine
    judgments (the list with the higher mean Fine tends to win; both good or both bad
    when both are high or low), as a worker with some noise would answer."""
    from catalog.models import RelevanceJudgment, RunEntry

    lists: dict[tuple[str, str], list[str]] = {}
    rows = (
        RunEntry.objects.filter(system__collection=collection)
        .order_by("system__name", "query__clip__external_id", "rank")
        .values_list("system__name", "query__clip__external_id", "clip__external_id")
    )
    for system, query, clip in rows.iterator(chunk_size=5000):
        lists.setdefault((query, system), []).append(clip)
    fine = dict(
        (((q, c), f) for q, c, f in RelevanceJudgment.objects.filter(
            query__collection=collection
        ).values_list("query__clip__external_id", "clip__external_id", "fine"))
    )  # fmt: skip
    by_query: dict[str, set[tuple[str, ...]]] = {}
    for (query, _), clips in lists.items():
        by_query.setdefault(query, set()).add(tuple(clips))
    rng = random.Random(seed)
    queries = sorted(q for q, distinct in by_query.items() if len(distinct) > 1)
    lines = ["query,list_a,list_b,answer,worker"]
    for i in range(n):
        query = rng.choice(queries)
        a, b = rng.sample(sorted(by_query[query]), 2)
        la, lb = (sum(fine.get((query, c)) or 0 for c in x) / (100 * len(x)) for x in (a, b))
        noise = rng.gauss(0, 0.1)
        if la > 0.6 and lb > 0.6 and abs(la - lb) < 0.1:
            answer = "both_good"
        elif la < 0.3 and lb < 0.3 and abs(la - lb) < 0.1:
            answer = "both_bad"
        else:
            answer = "a_better" if la - lb + noise > 0 else "b_better"
        lines.append(f"{query},{' '.join(a)},{' '.join(b)},{answer},w{i}")
    return "\n".join(lines) + "\n"


def set_up(folder: Path, name: str) -> dict:
    """Import ``folder`` as a collection, compute its results and a campaign's mapping."""
    from django.core.management import call_command

    from catalog.models import Collection
    from evaluation.services import campaign_mapping_compute, collection_results_compute
    from pastanswers.importers.answers import preference_answers_import
    from work import handoff

    timings = {}
    # The recomputes are run here, one after the other; no Celery hand-off.
    with mock.patch.object(handoff, "send_task"):
        started = time.perf_counter()
        call_command("import_mirex", str(folder), owner=OWNER, name=name, stdout=io.StringIO())
        timings["import"] = time.perf_counter() - started
        collection = Collection.objects.get(name=name)
        started = time.perf_counter()
        report = preference_answers_import(
            collection=collection, text=answers_csv(collection, n=ANSWERS),
            filename="bench-answers.csv", campaign_name="Bench answers",
        )  # fmt: skip
        timings["answers import"] = time.perf_counter() - started
        started = time.perf_counter()
        campaign_mapping_compute(campaign=report.campaign)
        collection_results_compute(target_id=collection.pk)
        timings["recompute"] = time.perf_counter() - started
    return {"collection": collection.pk, "campaign": report.campaign.pk, "setup": timings}
