"""Several judgments of one pair become one qrels value by a documented policy."""

import pytest

from catalog.qrels import consolidate, qrels_lines
from relevance import selectors
from relevance.services.campaigns import judgment_save
from tests.helpers.relevance_data import make_assessor, two_assessors_on_one_query


@pytest.mark.parametrize(
    ("values", "policy", "expected"),
    [
        ([1, 2], "mean", 2),  # 1.5 rounds half up
        ([0, 1, 1], "mean", 1),  # 0.667
        ([40, 45], "mean", 43),  # 42.5 rounds half up
        ([40, 45, 90], "median", 45),
        ([10, 20, 30, 90], "median", 25),  # mean of the middle two
        ([1, 2], "median", 2),  # 1.5 rounds half up
        ([70, 10, 90], "first", 70),
        ([55], "mean", 55),
    ],
)
def test_each_policy_gives_the_value_its_documentation_promises(values, policy, expected):
    assert consolidate(values, policy=policy) == expected


def test_an_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        consolidate([1], policy="max")


def test_qrels_lines_are_sorted_trec_lines_with_iteration_zero():
    rows = [("q2", "c1", 2), ("q1", "c9", 0), ("q1", "c2", 1), ("q1", "c2", 2)]
    assert qrels_lines(rows, policy="first") == ["q1 0 c2 1", "q1 0 c9 0", "q2 0 c1 2"]


def judge_one_pair_twice(personas, *, first: tuple[int, int], second: tuple[int, int]):
    """Ada then bea judge the same pair (Broad, Fine); the campaign, query and clip ids."""
    ada, bea = personas.assessor, make_assessor("bea")
    campaign, ada_work, bea_work = two_assessors_on_one_query(personas, ada, bea)
    entry = campaign.pool.filter(query=ada_work.query).order_by("clip__external_id").first()
    for work, who, (broad, fine) in ((ada_work, ada, first), (bea_work, bea, second)):
        judgment_save(assignment=work, assessor=who, pool_entry=entry, broad=broad, fine=fine)
    return campaign, ada_work.query.external_id, entry.clip.external_id


@pytest.mark.django_db
def test_a_campaigns_qrels_consolidate_two_assessors_per_pair(personas):
    campaign, query, clip = judge_one_pair_twice(personas, first=(1, 40), second=(2, 45))
    pair = f"{query} 0 {clip}"

    def qrels(scale, policy):
        return selectors.campaign_qrels(campaign=campaign, scale=scale, policy=policy)

    assert qrels("fine", "mean") == f"{pair} 43\n"  # (40 + 45) / 2 = 42.5, halves up
    assert qrels("fine", "first") == f"{pair} 40\n"  # ada saved first
    assert qrels("broad", "median") == f"{pair} 2\n"  # median of 1 and 2 = 1.5 → 2
    assert qrels("broad", "first") == f"{pair} 1\n"


@pytest.mark.django_db
def test_the_qrels_download_and_the_leaderboards_consolidate_alike(personas):
    # Broad 1 and 2, Fine 40 and 61 on one pair: both give the mean rounded half up,
    # Broad 1.5 → 2 and Fine 50.5 → 51 (the leaderboards used to read Broad 1, Fine 50.5)
    from evaluation.selectors import collection_qrels_records

    campaign, query, clip = judge_one_pair_twice(personas, first=(1, 40), second=(2, 61))
    records = collection_qrels_records(collection=campaign.collection)
    (record,) = [r for r in records if (r.query, r.clip) == (query, clip)]
    for scale, expected in (("broad", 2), ("fine", 51)):
        download = selectors.campaign_qrels(campaign=campaign, scale=scale, policy="mean")
        assert download == f"{query} 0 {clip} {expected}\n"
        assert getattr(record, scale) == expected
