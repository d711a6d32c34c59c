"""The evaluation layer reads a collection's judgments and runs into plain records."""

import pytest

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from evaluation.selectors import (
    QrelsRecord,
    collection_qrels_records,
    collection_runs,
    consolidate_judgments,
)
from tests.helpers.personas import make_user
from tests.helpers.sources import source_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection():
    owner = make_user("owner", "organiser")
    collection = Collection.objects.create(name="C", owner=owner)
    clips = {
        name: Clip.objects.create(collection=collection, external_id=name)
        for name in ["q1", "q2", "a", "b", "c"]
    }
    q1 = Query.objects.create(collection=collection, clip=clips["q1"])
    q2 = Query.objects.create(collection=collection, clip=clips["q2"])
    s1 = System.objects.create(collection=collection, name="S1")
    System.objects.create(collection=collection, name="S0-empty")
    # Stored out of rank order on purpose: the selector must order by rank.
    for rank, clip in [(2, "a"), (1, "b"), (3, "c")]:
        RunEntry.objects.create(system=s1, query=q1, rank=rank, clip=clips[clip])
    RunEntry.objects.create(system=s1, query=q2, rank=1, clip=clips["c"])
    anna, bob = make_user("anna", "assessor"), make_user("bob", "assessor")
    panel, imported = source_for(collection, "panel"), source_for(collection, "x")
    RelevanceJudgment.objects.create(
        query=q1, clip=clips["a"], assessor=anna, source=panel, broad=1, fine=40
    )
    RelevanceJudgment.objects.create(
        query=q1, clip=clips["a"], assessor=bob, source=panel, broad=2, fine=61
    )
    RelevanceJudgment.objects.create(query=q1, clip=clips["b"], source=imported, fine=90)
    RelevanceJudgment.objects.create(query=q2, clip=clips["c"], source=imported, broad=0)
    return collection


def test_runs_are_ranked_lists_per_system_and_query_in_rank_order(collection):
    runs = collection_runs(collection=collection)
    assert runs.systems == ("S0-empty", "S1")
    assert runs.queries == ("q1", "q2")
    assert runs.rankings == {"S0-empty": {}, "S1": {"q1": ["b", "a", "c"], "q2": ["c"]}}
    assert runs.depth() == 3


def test_several_judgments_of_a_pair_are_consolidated_by_their_mean_rounded_half_up(
    collection,
):
    records = collection_qrels_records(collection=collection)
    assert records == [
        # Fine (40 + 61) / 2 = 50.5 → 51; Broad (1 + 2) / 2 = 1.5 → 2 (nearest level,
        # halves up). These moved from 50.5 (an unrounded mean) and 1 (the lower median).
        QrelsRecord("q1", "a", 2, 51),
        QrelsRecord("q1", "b", None, 90.0),  # no Broad given
        QrelsRecord("q2", "c", 0, None),  # no Fine given
    ]


def test_the_latest_policy_keeps_the_most_recent_value_on_each_scale():
    rows = [("q", "c", 2, 10), ("q", "c", None, 70), ("q", "c", 1, None)]
    assert consolidate_judgments(rows, policy="latest") == [QrelsRecord("q", "c", 1, 70.0)]


def test_the_median_of_three_broad_levels_is_the_middle_one_and_the_mean_rounds():
    # Broad 2, 0, 2: median 2; mean 4/3 → nearest level 1 (the mean policy used to be
    # this median for Broad, so the default's expectation moved from 2 to 1)
    rows = [("q", "c", 2, None), ("q", "c", 0, None), ("q", "c", 2, None)]
    assert consolidate_judgments(rows, policy="median") == [QrelsRecord("q", "c", 2, None)]
    assert consolidate_judgments(rows) == [QrelsRecord("q", "c", 1, None)]


def test_an_unknown_policy_is_an_error_that_lists_the_valid_ones():
    with pytest.raises(ValueError, match="'mean', 'median', 'first', 'latest'"):
        consolidate_judgments([], policy="max")
