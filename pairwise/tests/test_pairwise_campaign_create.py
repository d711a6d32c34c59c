"""Creating a pairs campaign (issue 32, item 3): defaults, the careless organiser, the
source it writes."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from catalog.models import Clip, JudgmentSource, Query, RunEntry
from crowd.explanations import explanation_names_a_side
from crowd.models import PreferenceCampaign, TrapQuestion
from pairwise.models import PairwiseSort
from pairwise.services.create import pairwise_campaign_create
from pairwise.sort_state import state_from_data
from tests.helpers.pairwise_study import build_pairs_collection, source_groups

pytestmark = pytest.mark.django_db


def test_a_new_pairs_campaign_asks_the_first_round_of_every_query_with_the_papers_defaults(
    personas,
):
    collection = build_pairs_collection(personas.organiser)
    created = pairwise_campaign_create(collection=collection, name="Pairs", trap_rate=0.0)
    campaign = created.campaign
    assert (campaign.kind, campaign.list_length, campaign.answers_per_example) == ("pairs", 1, 10)
    assert campaign.pairwise.margin == 2  # Urbano et al. 2010
    source = campaign.pairwise.source
    assert (source.name, source.kind, source.status) == ("Pairs", "pairwise", "pilot")
    sort = PairwiseSort.objects.get(study=campaign.pairwise)
    pairs = state_from_data(sort.state).round_pairs()
    assert len(pairs) == 5  # six candidates: every other clip against the pivot
    work = campaign.examples.filter(trap__isnull=True)
    assert work.count() == 5 and {e.items.count() for e in work} == {2}
    assert {e.source for e in work} == {"pairs"}


def test_trap_pairs_come_from_the_sorts_candidates_where_the_judgments_are_clear(personas):
    """Fine 100 against 0 (c1 against c4, c5, c6) only: 50 is 0.5 from either end."""
    collection = build_pairs_collection(personas.organiser)
    campaign = pairwise_campaign_create(
        collection=collection, name="Pairs", trap_rate=0.5, answers_per_pair=3
    ).campaign
    traps = TrapQuestion.objects.filter(example__campaign=campaign, pool=TrapQuestion.WORK)
    named = set()
    for trap in traps:
        items = dict(trap.example.items.values_list("side", "clip__external_id"))
        better = items["a"] if trap.accepted_answers == ["a_better"] else items["b"]
        named.add((better, items["b" if better == items["a"] else "a"]))
        assert trap.example.query.clip.external_id == "q1" and trap.example.source == "pairs"
        assert trap.explanation and explanation_names_a_side(trap.explanation) is None
    assert named and named <= {("c1", "c4"), ("c1", "c5"), ("c1", "c6")}


def test_a_query_of_one_candidate_is_one_group_at_once_and_a_pool_of_two_is_one_pair(personas):
    collection = build_pairs_collection(personas.organiser)
    system = collection.systems.get()
    for name, pool in (("q2", ["c1"]), ("q3", ["c2", "c3"]), ("q4", [])):
        query = Query.objects.create(
            collection=collection, clip=Clip.objects.create(collection=collection, external_id=name)
        )
        for rank, clip in enumerate(pool, start=1):
            RunEntry.objects.create(
                system=system, query=query, rank=rank, clip=collection.clips.get(external_id=clip)
            )
    created = pairwise_campaign_create(collection=collection, name="Pairs", trap_rate=0.0)
    assert created.notes == ["Left out, with no candidates: q4."]
    sorts = {
        s.query.clip.external_id: s for s in PairwiseSort.objects.select_related("query__clip")
    }
    assert set(sorts) == {"q1", "q2", "q3"}
    assert sorts["q2"].done and sorts["q2"].written
    assert source_groups(created.campaign.pairwise.source, "q2") == (("c1",),)
    assert len(state_from_data(sorts["q3"].state).round_pairs()) == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"margin": 4, "answers_per_pair": 3}, "the margin must be from 1 to the answers per pair"),
        ({"answers_per_pair": 0}, "answers per pair must be at least 1"),
        ({"source_name": "panel"}, "has a source called “panel” already"),
    ],
)
def test_a_careless_organiser_is_told_what_is_wrong_and_nothing_is_made(personas, options, message):
    collection = build_pairs_collection(personas.organiser)
    with pytest.raises(ValidationError, match=message):
        pairwise_campaign_create(collection=collection, name="Pairs", **options)
    assert not PreferenceCampaign.objects.exists()
    assert set(JudgmentSource.objects.values_list("name", flat=True)) == {"panel"}


def test_a_collection_without_pools_is_refused(personas):
    collection = build_pairs_collection(personas.organiser)
    RunEntry.objects.all().delete()
    with pytest.raises(ValidationError, match="no query has a candidate to sort"):
        pairwise_campaign_create(collection=collection, name="Pairs")
    assert not PreferenceCampaign.objects.exists()


def test_a_campaign_whose_traps_are_short_is_created_closed_and_says_why(personas):
    collection = build_pairs_collection(personas.organiser)
    created = pairwise_campaign_create(
        collection=collection, name="Pairs", trap_rate=0.9, quiz_length=0
    )  # 5 pairs at 0.9 need 45 trap pairs; the judgments have 3
    assert not created.campaign.is_open
    assert created.notes and created.notes[-1].startswith("Created closed:")
    assert not PreferenceCampaign.objects.get(pk=created.campaign.pk).is_open
