"""Expert-ranking campaigns (issue 32) on the small judging collection, and the hand-made
study of 31 experts whose groups the app-level tests expect."""

from __future__ import annotations

from relevance.models import RelevanceCampaign
from relevance.selectors_rankings import ranking_order
from relevance.services.campaigns import assignment_next
from tests.helpers.relevance_data import make_campaign

STUDY_31 = [
    ("d1 d2 d3 d4 d5", 8),
    ("d1 d3 d2 d5 d4", 8),
    ("d1 d2 d3 d5 d4", 7),
    ("d1 d3 d2 d4 d5", 5),
    ("d2 d1 d3 d4 d5", 3),
]
"""31 experts' orders of query q1's five candidates (``groups_collection``'s d1–d5), best
first, each with how many experts gave it.

Median (mean) ranks: d1 1 (1.097), d2 2 (2.323), d3 3 (2.581), d4 4 (4.484), d5 5 (4.516).
``scipy.stats.mannwhitneyu(x, y, alternative="two-sided").pvalue`` (scipy 1.17.1) of each
candidate against the one above it by median:
  d2–d1 4.416159173908813e-10   d3–d2 0.12469555865692528
  d4–d3 2.790514231517255e-12   d5–d4 0.8073730747275402
(and d3–d1 3.29e-12, d5–d3 2.79e-12: any earlier candidate of another group differs too).
Typke et al.'s rule (all), α = 0.05: d2 differs from d1 → new group; d3 does not differ
from d2 (0.125 ≥ 0.05) → joins; d4 differs from d2 and d3 → new; d5 not from d4 → joins:
⟨{d1}, {d2, d3}, {d4, d5}⟩. At α = 0.25, d3 differs from d2 (0.125 < 0.25): ⟨{d1}, {d2},
{d3}, {d4, d5}⟩.
"""


def study_orders() -> list[list[str]]:
    return [order.split() for order, count in STUDY_31 for _ in range(count)]


def make_ranking_campaign(personas, **options) -> RelevanceCampaign:
    """An expert-ranking campaign on a fresh judging collection (``relevance_data``: qa1's
    candidates at k = 3 are a2, b1, c1, c3); ``make_campaign``'s options."""
    return make_campaign(personas, mode=RelevanceCampaign.RANKING, **options)


def next_ranking(campaign, assessor):
    """The assessor's next query and its candidates' ids in the page's first order."""
    assignment = assignment_next(campaign=campaign, assessor=assessor)
    return assignment, [entry.pk for entry in ranking_order(assignment=assignment)]


def order_by_clip(assignment, clip_ids: list[str]) -> list[int]:
    """The candidates of ``assignment`` (pool entry ids) in the order of ``clip_ids``."""
    pool = dict(assignment.candidates().values_list("clip__external_id", "pk"))
    return [pool[clip] for clip in clip_ids]
