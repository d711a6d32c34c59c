"""Two experts submitting their rankings of one query at the same instant: the groups
written last include both rankings (the source's row is locked before they are read)."""

import pytest

from catalog.models import OrderedGroupEntry
from relevance.models import Assignment
from relevance.services.campaigns import assignment_next
from relevance.services.rankings import ranking_submit
from tests.helpers.rankings import make_ranking_campaign, order_by_clip
from tests.helpers.relevance_data import at_the_same_instant, make_assessor

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_submissions_at_the_same_instant_both_count_in_the_groups(personas):
    # Both experts give c1 a2 b1 c3: each candidate's ranks are [r, r]. Neighbours [1, 1]
    # and [2, 2]: U = 4 of n1·n2 = 4, mean 2; with the tie correction
    # σ² = (4/12)(5 − (2·(2³ − 2))/(4·3)) = 4/3; z = (4 − 2 − ½)/√(4/3) = 1.299;
    # p = 0.1939 (scipy.stats.mannwhitneyu([2, 2], [1, 1]).pvalue = 0.1939308522824107)
    # < α = 0.25: four groups of one. One ranking alone gives one group of four
    # (test_ranking_submit.py), so four groups say the last write read both rankings.
    bea = make_assessor("bea", owner=personas.organiser)
    campaign = make_ranking_campaign(
        personas, assessors=[personas.assessor, bea], assessors_per_query=2, query_names=["qa1"]
    )
    work = {
        who: assignment_next(campaign=campaign, assessor=who) for who in (personas.assessor, bea)
    }

    def submit(who):
        assignment = Assignment.objects.select_related("campaign").get(pk=work[who].pk)
        order = order_by_clip(assignment, ["c1", "a2", "b1", "c3"])
        return ranking_submit(assignment=assignment, assessor=who, order=order)

    results = at_the_same_instant([personas.assessor, bea], submit)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r.rankings for r in results) == [1, 2]
    groups = OrderedGroupEntry.objects.filter(source=campaign.source).order_by("group")
    assert list(groups.values_list("clip__external_id", "group")) == [
        ("c1", 1), ("a2", 2), ("b1", 3), ("c3", 4)
    ]  # fmt: skip
