"""The organiser's agreement figures for a campaign, against independently computed values."""

import math

import numpy as np
import pytest

from relevance import selectors
from relevance.services.campaigns import judgment_save
from tests.helpers.relevance_data import make_assessor, make_campaign, two_assessors_on_one_query

krippendorff = pytest.importorskip("krippendorff")
pytestmark = pytest.mark.django_db


def test_alpha_and_rms_use_the_pairs_judged_by_both_assessors(personas):
    ada, bea = personas.assessor, make_assessor("bea")
    campaign, ada_work, bea_work = two_assessors_on_one_query(personas, ada, bea)
    entries = list(campaign.pool.filter(query=ada_work.query).order_by("clip__external_id"))
    ada_scores = [(2, 90), (1, 60), (0, 10), (1, 45)]  # (broad, fine) per candidate
    bea_scores = [(2, 80), (0, 40), (0, 20), (2, 70)]
    for entry, (broad, fine) in zip(entries, ada_scores, strict=True):
        judgment_save(assignment=ada_work, assessor=ada, pool_entry=entry, broad=broad, fine=fine)
    for entry, (broad, fine) in zip(entries, bea_scores, strict=True):
        judgment_save(assignment=bea_work, assessor=bea, pool_entry=entry, broad=broad, fine=fine)

    result = selectors.campaign_agreement(campaign=campaign)

    broad = np.array([[b for b, _ in ada_scores], [b for b, _ in bea_scores]], float)
    fine = np.array([[f for _, f in ada_scores], [f for _, f in bea_scores]], float)
    assert (result.queries, result.pairs) == (1, 4)
    assert result.alpha_fine == pytest.approx(
        krippendorff.alpha(reliability_data=fine, level_of_measurement="interval")
    )
    assert result.alpha_broad == pytest.approx(
        krippendorff.alpha(reliability_data=broad, level_of_measurement="ordinal")
    )
    # By hand: Fine differences 10, 20, 10, 25 → /100, squared, mean, root.
    assert result.rms_fine == pytest.approx(math.sqrt((0.01 + 0.04 + 0.01 + 0.0625) / 4))
    # Broad differences 0, 1, 0, 1 → /2 → 0, .5, 0, .5.
    assert result.rms_broad == pytest.approx(math.sqrt((0.25 + 0.25) / 4))


def test_a_campaign_with_one_assessor_per_pair_has_no_agreement_figures(personas):
    campaign = make_campaign(personas)
    result = selectors.campaign_agreement(campaign=campaign)
    assert result.pairs == 0
    assert math.isnan(result.alpha_fine) and math.isnan(result.rms_broad)


def test_progress_per_query_counts_complete_judgments_of_every_assessor(personas):
    ada, bea = personas.assessor, make_assessor("bea")
    campaign, ada_work, bea_work = two_assessors_on_one_query(personas, ada, bea)
    entries = list(campaign.pool.filter(query=ada_work.query))
    for entry in entries:
        judgment_save(assignment=ada_work, assessor=ada, pool_entry=entry, broad=1, fine=50)
    judgment_save(assignment=bea_work, assessor=bea, pool_entry=entries[0], broad=1)  # no Fine
    rows = {
        row["query"].external_id: row
        for row in selectors.campaign_progress_by_query(campaign=campaign)
    }
    row = rows[ada_work.query.external_id]
    # POOL_AT_3: qa1 has 4 candidates, qb1 5; two slots each.
    assert (row["pool_size"], row["judgments"], row["expected"]) == (
        len(entries),
        len(entries),  # ada's complete ones; bea's Broad-only judgment is not complete
        2 * len(entries),
    )
    assert (row["done"], row["assigned"], row["slots"]) == (1, 2, 2)
