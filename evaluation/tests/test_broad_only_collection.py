"""A collection judged on the Broad scale only — TREC qrels — has every organiser result
page working, on Broad measures (issue 31, item 6); so do one judged on the Fine scale
only and one judged on both, each on measures of the scales it is judged on.

The collection is ``tests.helpers.crowd_fixtures``' (judged on the Fine scale only) with, for
Broad, its Fine judgments split in three as the thesis splits Fine (§3.1.2: 0–33 → 0,
34–66 → 1, 67–100 → 2) and, for Broad only, the Fine scores dropped.
"""

from __future__ import annotations

import numpy as np
import pytest

from catalog.models import RelevanceJudgment, RunEntry
from evaluation.models import Leaderboard, ReliabilityStudy, SatisfactionMapping
from evaluation.services import campaign_mapping_compute, collection_results_compute
from relevance.services.lowcost import lowcost_default_measure
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.mappings import judged_on_broad_only
from tests.helpers.plain_words import assert_pages_speak_plainly, measure_result_pages, problems

pytestmark = pytest.mark.django_db

BROAD = ("CG(scale=broad)@5", "DCG(scale=broad)@5")
FINE = ("CG(scale=fine)@5", "DCG(scale=fine)@5")


@pytest.fixture
def broad_only(crowd_collection):
    judged_on_broad_only(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=0)
    campaign_mapping_compute(campaign=campaign)
    collection_results_compute(target_id=crowd_collection.pk)
    return crowd_collection, campaign


def test_its_leaderboards_and_reliability_studies_are_on_broad_measures(broad_only):
    collection, _ = broad_only
    assert sorted(Leaderboard.objects.values_list("measure", flat=True)) == sorted(BROAD)
    assert sorted(ReliabilityStudy.objects.values_list("measure", flat=True)) == sorted(BROAD)
    # CG_l@5 on Broad by hand: the mean over the 4 queries of (Σ of the 5 levels) / (2 · 5).
    levels = {(j.query_id, j.clip_id): j.broad for j in RelevanceJudgment.objects.all()}
    board = Leaderboard.objects.get(measure="CG(scale=broad)@5")
    for row in board.payload["rows"]:
        per_query = []
        for query in collection.queries.all():
            ranked = RunEntry.objects.filter(system__name=row["system"], query=query)
            per_query.append(sum(levels[(query.pk, e.clip_id)] for e in ranked) / 10)
        assert row["mean"] == pytest.approx(np.mean(per_query))


def test_every_result_page_opens_and_speaks_plainly(client, personas, broad_only):
    collection, campaign = broad_only
    client.force_login(personas.organiser)
    base = f"/collections/{collection.pk}/results"
    pages = [f"{base}/", f"{base}/settings/", f"{base}/mapping/?campaign={campaign.pk}"]
    assert_pages_speak_plainly(client, pages + measure_result_pages(collection, BROAD))
    mapping = SatisfactionMapping.objects.get(campaign=campaign)
    assert mapping.measure == "CG(scale=broad)@5"


def judged_on_both_scales(collection) -> None:
    """Broad beside Fine, split from it as the thesis splits it (§3.1.2)."""
    for judgment in RelevanceJudgment.objects.filter(query__collection=collection):
        judgment.broad = 0 if judgment.fine < 34 else 1 if judgment.fine < 67 else 2
        judgment.save(update_fields=["broad"])


# What each collection is judged on → the leaderboards' measures, the
# mapping's and a low-cost campaign's default measure, and why the mapping page says
# its measure was chosen.
SCALES = {
    "broad only": (
        judged_on_broad_only,
        BROAD,
        "CG(scale=broad)@5",
        "judgments are on the Broad scale only",
    ),
    "fine only": (
        lambda c: None,
        FINE,
        "CG(scale=fine)@5",
        "at the length of the campaign's lists, on the Fine scale",
    ),
    "both": (
        judged_on_both_scales,
        FINE + BROAD,
        "CG(scale=fine)@5",
        "at the length of the campaign's lists, on the Fine scale",
    ),
}


@pytest.mark.parametrize("judged", list(SCALES))
def test_each_scale_combination_gets_measures_on_the_scales_it_is_judged_on(
    client, personas, crowd_collection, judged
):
    judge, boards, default, because = SCALES[judged]
    judge(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=0)
    campaign_mapping_compute(campaign=campaign)
    collection_results_compute(target_id=crowd_collection.pk)
    assert sorted(Leaderboard.objects.values_list("measure", flat=True)) == sorted(boards)
    assert SatisfactionMapping.objects.get(campaign=campaign).measure == default
    assert lowcost_default_measure(collection=crowd_collection) == default
    client.force_login(personas.organiser)
    page = client.get(f"/collections/{crowd_collection.pk}/results/mapping/?campaign={campaign.pk}")
    text = page.content.decode().replace("<sub>", "").replace("</sub>", "")
    assert because in text
    assert "scores every list 0 and this mapping says nothing" not in text
    assert problems(page.content.decode()) == []
