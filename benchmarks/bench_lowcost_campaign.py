"""A low-cost relevance campaign at MIREX 2011 scale in the app (issue 15, item 6).

    python benchmarks/bench_lowcost_campaign.py

On a throw-away SQLite database (``EARSHOT_VAR_DIR`` and ``DATABASE_URL`` point to a
temporary folder; nothing of ``var/`` is touched): imports MIREX 2011 (18 systems ×
100 queries, 6,322 Fine judgments), keeps half of the judgments, creates a low-cost
campaign on CG(scale=fine)@5 (6,322 pairs, one assignment each), then times

(a) creating the campaign (pool and pair assignments);
(b) the ``lowcost`` recompute (:func:`evaluation.services.estimates.campaign_estimate_compute`):
    read judgments and runs through the evaluation selectors, estimate, score, weigh,
    store the payload and the 6,322 pool entries' priorities — first run (every row
    written) and a second one after one more judgment (only changed rows written);
(c) "Get next" (:func:`relevance.services.campaigns.assignment_next`) for a new assessor:
    the database read and claim that replace a model fit in the request (median of 20);
(d) the collection recompute with its estimated leaderboards (4 default measures).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="earshot-bench-lowcost-"))
os.environ["EARSHOT_VAR_DIR"] = str(TMP)
os.environ["DATABASE_URL"] = f"sqlite:///{TMP / 'bench.sqlite3'}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from unittest import mock  # noqa: E402

import numpy as np  # noqa: E402
from django.core.management import call_command  # noqa: E402

from catalog.models import RelevanceJudgment  # noqa: E402
from common.roles import ASSESSOR, ORGANISER, grant_role  # noqa: E402
from evaluation.services.estimates import campaign_estimate_compute  # noqa: E402
from evaluation.services.results import collection_results_compute  # noqa: E402
from ingest.importers.mirex import mirex_import  # noqa: E402
from relevance.services.campaigns import assignment_next, judgment_save, relevance_campaign_create  # noqa: E402
from tests.helpers.shared_data import MIREX2011  # noqa: E402
from work import handoff  # noqa: E402


def user(name: str, role: str):
    from django.contrib.auth import get_user_model

    person = get_user_model().objects.create_user(name)
    grant_role(person, role)
    return person


def timed(action):
    t0 = time.perf_counter()
    result = action()
    return result, time.perf_counter() - t0


def main() -> None:
    call_command("migrate", verbosity=0)
    with mock.patch.object(handoff, "send_task"):  # no broker: the recomputes run here
        owner = user("organiser", ORGANISER)
        summary = mirex_import(owner=owner, folder=MIREX2011, name="MIREX 2011")
        collection = owner.collections.get(pk=summary.collection_id)
        judgments = RelevanceJudgment.objects.filter(query__collection=collection)
        keep = set(judgments.order_by("pk").values_list("pk", flat=True)[::2])
        judgments.exclude(pk__in=keep).delete()
        assessors = [user(f"assessor{i}", ASSESSOR) for i in range(21)]
        campaign, seconds = timed(
            lambda: relevance_campaign_create(
                collection=collection,
                name="Low-cost MIREX 2011",
                mode="lowcost",
                lowcost_measure="CG(scale=fine)@5",
                must_listen_seconds=0,
                assessors=assessors,
            )
        )
        print(f"MIREX 2011: {campaign.pool.count()} pairs, {judgments.count()} judged")
        print(f"(a) create the low-cost campaign: {seconds:.2f} s")
        _, first = timed(lambda: campaign_estimate_compute(target_id=campaign.pk))
        work = assignment_next(campaign=campaign, assessor=assessors[0])
        judgment_save(
            assignment=work,
            assessor=assessors[0],
            pool_entry=work.pool_entry,
            broad=1,
            fine=50,
        )
        _, second = timed(lambda: campaign_estimate_compute(target_id=campaign.pk))
        print(f"(b) lowcost recompute: first {first:.2f} s, after one judgment {second:.2f} s")
        times = []
        for who in assessors[1:]:
            _, seconds = timed(lambda who=who: assignment_next(campaign=campaign, assessor=who))
            times.append(seconds)
        print(f"(c) Get next (a pair claimed), median of 20: {1000 * np.median(times):.1f} ms")
        _, seconds = timed(lambda: collection_results_compute(target_id=collection.pk))
        estimated = collection.estimated_leaderboards.count()
        print(f"(d) collection recompute with {estimated} estimated leaderboards: {seconds:.1f} s")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
