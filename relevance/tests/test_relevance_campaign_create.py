"""Creating a relevance campaign fixes its pool (MIREX pooling) and its assignment slots."""

import pytest

from relevance.models import Assignment
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.relevance_data import (
    POOL_AT_3,
    POOL_AT_3_OTHER_ARTISTS,
    RUNS,
    make_campaign,
    make_judging_collection,
)

pytestmark = pytest.mark.django_db


def pools(campaign):
    result = {}
    for entry in campaign.pool.select_related("query__clip", "clip"):
        result.setdefault(entry.query.external_id, set()).add(entry.clip.external_id)
    return result


def test_the_pool_is_the_union_of_every_systems_top_k_without_the_query_clip(personas):
    campaign = make_campaign(personas, cutoff=3)
    assert pools(campaign) == POOL_AT_3


def test_clips_by_the_querys_artist_can_be_left_out(personas):
    campaign = make_campaign(personas, cutoff=3, exclude_same_artist=True)
    assert pools(campaign) == POOL_AT_3_OTHER_ARTISTS


def test_clips_without_an_artist_are_never_taken_for_the_querys_artist(personas):
    collection = make_judging_collection(personas.organiser)
    collection.clips.update(artist="")
    campaign = relevance_campaign_create(
        collection=collection, name="No artists", cutoff=3, exclude_same_artist=True
    )
    assert pools(campaign) == POOL_AT_3


def test_the_cutoff_defaults_to_five_and_takes_the_whole_lists_here(personas):
    collection = make_judging_collection(personas.organiser)
    campaign = relevance_campaign_create(
        collection=collection, name="k=5", exclude_same_artist=False
    )
    assert campaign.cutoff == 5
    expected = {
        query: {clip for ranked in lists.values() for clip in ranked} - {query}
        for query, lists in RUNS.items()
    }
    assert pools(campaign) == expected


def test_each_query_gets_one_free_slot_per_assessor_it_needs(personas):
    campaign = make_campaign(personas, assessors_per_query=3)
    slots = Assignment.objects.filter(campaign=campaign)
    assert slots.count() == 2 * 3  # two queries in RUNS × three assessors per query
    assert not slots.exclude(assessor=None).exists()
    assert sorted(set(slots.values_list("slot", flat=True))) == [0, 1, 2]


def test_a_query_no_system_answered_gets_no_work(personas):
    # The personas' tiny collection has a query and a system but no ranked lists.
    campaign = relevance_campaign_create(collection=personas.collection, name="Empty")
    assert not campaign.pool.exists()
    assert not campaign.assignments.exists()


def test_judgments_of_the_campaign_are_marked_with_its_source(personas):
    campaign = make_campaign(personas)
    source = campaign.source  # a judgment source of its own, named after the campaign
    assert (source.kind, source.relevance_campaign, source.name) == (
        "campaign", campaign, campaign.name,
    )  # fmt: skip
    assert source.collection == campaign.collection and source.counts
