"""An expert's ranking of a query: kept as it is worked on, submitted once every candidate
was heard, idempotent, revisable while the campaign is open; and the attacks on it."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalog.models import JudgmentSource, OrderedGroupEntry, RelevanceJudgment
from catalog.services.sources import judgment_source_for_writing
from common.audio import ByteRange
from listening.services.audio_served import audio_served_record
from relevance.models import Assignment, RankedCandidate, RelevanceCampaign
from relevance.selectors_rankings import ranking_order
from relevance.services.campaigns import (
    AssignmentTakenBack,
    MustListenFirst,
    judgment_save,
    relevance_campaign_create,
)
from relevance.services.rankings import ranking_save, ranking_submit
from tests.helpers.rankings import make_ranking_campaign, next_ranking, order_by_clip

pytestmark = pytest.mark.django_db


def groups_of(campaign) -> list[list[str]]:
    rows = OrderedGroupEntry.objects.filter(source=campaign.source).order_by(
        "group", "clip__external_id"
    )
    groups: list[list[str]] = []
    for clip, group in rows.values_list("clip__external_id", "group"):
        if len(groups) < group:
            groups.append([])
        groups[group - 1].append(clip)
    return groups


def test_the_campaign_writes_into_a_new_pilot_source_of_groups_and_a_used_name_is_refused(
    personas,
):
    campaign = make_ranking_campaign(personas, groups_source="experts")
    source = campaign.source
    assert (source.name, source.kind, source.status) == ("experts", "groups", "pilot")
    with pytest.raises(ValidationError, match="already has judgments called “experts”"):
        relevance_campaign_create(
            collection=campaign.collection, name="Again", mode=RelevanceCampaign.RANKING,
            groups_source="experts",
        )  # fmt: skip
    # and no import writes into the campaign's source
    with pytest.raises(ValidationError, match="holds the groups of an expert-ranking campaign"):
        judgment_source_for_writing(
            collection=campaign.collection, name="experts", kind=JudgmentSource.GROUPS
        )


def test_the_order_being_worked_on_is_kept_and_counts_for_nothing_until_submitted(personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    reordered = list(reversed(order))
    ranking_save(assignment=assignment, assessor=personas.assessor, order=reordered)
    ranking_save(assignment=assignment, assessor=personas.assessor, order=reordered)  # again
    assert [entry.pk for entry in ranking_order(assignment=assignment)] == reordered
    assert not OrderedGroupEntry.objects.filter(source=campaign.source).exists()
    assignment.refresh_from_db()
    assert assignment.completed_at is None and assignment.touched_at is not None


def test_one_experts_ranking_gives_one_group_and_a_second_opposite_one_too(personas):
    # One expert: each candidate has one rank; two lists of one value each give U = 1 of
    # n1·n2 = 1, so the exact two-sided p is 2·P(U ≥ 1) = 1 ≥ α: every candidate joins.
    campaign = make_ranking_campaign(personas)
    assignment, _ = next_ranking(campaign, personas.assessor)
    order = order_by_clip(assignment, ["c1", "a2", "b1", "c3"])
    update = ranking_submit(assignment=assignment, assessor=personas.assessor, order=order)
    assert update.rankings == 1 and update.changed
    assert groups_of(campaign) == [["a2", "b1", "c1", "c3"]]
    assignment.refresh_from_db()
    assert assignment.is_done
    assert list(
        RankedCandidate.objects.filter(assignment=assignment)
        .order_by("submitted_position")
        .values_list("pool_entry__clip__external_id", flat=True)
    ) == ["c1", "a2", "b1", "c3"]


def test_a_replayed_submission_changes_nothing_and_a_revision_replaces_the_ranking(personas):
    campaign = make_ranking_campaign(personas, grouping_alpha=0.5)
    assignment, _ = next_ranking(campaign, personas.assessor)
    first = order_by_clip(assignment, ["c1", "a2", "b1", "c3"])
    ranking_submit(assignment=assignment, assessor=personas.assessor, order=first)
    assignment.refresh_from_db()
    done_at, entries = (
        assignment.completed_at,
        list(OrderedGroupEntry.objects.filter(source=campaign.source).values_list("pk", "group")),
    )
    again = ranking_submit(assignment=assignment, assessor=personas.assessor, order=first)
    assert not again.changed
    assert (
        list(OrderedGroupEntry.objects.filter(source=campaign.source).values_list("pk", "group"))
        == entries
    )
    assignment.refresh_from_db()
    assert assignment.completed_at == done_at
    revised = order_by_clip(assignment, ["c3", "b1", "a2", "c1"])
    ranking_submit(assignment=assignment, assessor=personas.assessor, order=revised)
    assert list(
        RankedCandidate.objects.filter(assignment=assignment)
        .order_by("submitted_position")
        .values_list("pool_entry__clip__external_id", flat=True)
    ) == ["c3", "b1", "a2", "c1"]
    assert RankedCandidate.objects.filter(assignment=assignment).count() == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda order, other: [*order[:-1], other], "is not a candidate of this query"),
        (lambda order, other: [*order[:-1], order[0]], "is placed twice"),
        (lambda order, other: order[:-1], "leaves out candidate"),
        (lambda order, other: [*order, 2**40], "is not a candidate of this query"),
    ],
    ids=["a clip of another query", "a duplicate", "a missing clip", "an unknown id"],
)
def test_an_order_that_is_not_every_candidate_once_is_refused_and_nothing_is_kept(
    personas, change, message
):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    other_query = (
        campaign.pool.exclude(query=assignment.query)
        .exclude(clip__in=assignment.candidates().values("clip"))
        .first()
    )
    for action in (ranking_save, ranking_submit):
        with pytest.raises(ValidationError, match=message):
            action(
                assignment=assignment, assessor=personas.assessor,
                order=change(order, other_query.pk),
            )  # fmt: skip
    assert not RankedCandidate.objects.exists()
    assert not OrderedGroupEntry.objects.exists()


def heard(assignment, entry, *, seconds_ago: float, size: int = 8000) -> None:
    """The server sent the whole of the candidate's audio ``seconds_ago`` for the assignment."""
    audio_served_record(
        clip=entry.clip, size=size, byte_range=ByteRange(0, size - 1), assignment=assignment,
        now=timezone.now() - timedelta(seconds=seconds_ago),
    )  # fmt: skip


def test_a_ranking_with_a_candidate_not_heard_is_refused_with_its_number_and_kept_as_work(
    personas,
):
    campaign = make_ranking_campaign(personas, must_listen_seconds=5)
    assignment, order = next_ranking(campaign, personas.assessor)
    entries = ranking_order(assignment=assignment)
    for n, entry in enumerate(entries[:-1]):  # the last candidate never reached the assessor
        heard(assignment, entry, seconds_ago=6 * (len(entries) - n))
    reordered = list(reversed(order))
    with pytest.raises(MustListenFirst, match="Candidate 4: Listen to at least 5 s"):
        ranking_submit(assignment=assignment, assessor=personas.assessor, order=reordered)
    assert [entry.pk for entry in ranking_order(assignment=assignment)] == reordered
    assert not OrderedGroupEntry.objects.exists()
    heard(assignment, entries[-1], seconds_ago=6)
    ranking_submit(assignment=assignment, assessor=personas.assessor, order=reordered)
    assert OrderedGroupEntry.objects.filter(source=campaign.source).count() == 4


def test_candidates_heard_all_at_once_do_not_count_as_each_heard(personas):
    # four clips of 5 s each need 20 s since the first audio, one at a time
    campaign = make_ranking_campaign(personas, must_listen_seconds=5)
    assignment, order = next_ranking(campaign, personas.assessor)
    for entry in ranking_order(assignment=assignment):
        heard(assignment, entry, seconds_ago=8)
    with pytest.raises(MustListenFirst, match="one at a time"):
        ranking_submit(assignment=assignment, assessor=personas.assessor, order=order)


def test_a_closed_campaign_and_an_assessor_no_longer_in_it_change_nothing(personas):
    campaign = make_ranking_campaign(personas)
    assignment, order = next_ranking(campaign, personas.assessor)
    ranking_submit(assignment=assignment, assessor=personas.assessor, order=order)
    before = list(RankedCandidate.objects.values_list("pk", "position", "submitted_position"))
    RelevanceCampaign.objects.filter(pk=campaign.pk).update(is_open=False)
    assignment = Assignment.objects.get(pk=assignment.pk)
    for action in (ranking_save, ranking_submit):
        with pytest.raises(AssignmentTakenBack, match="The campaign is closed"):
            action(assignment=assignment, assessor=personas.assessor, order=order[::-1])
    RelevanceCampaign.objects.filter(pk=campaign.pk).update(is_open=True)
    campaign.assessors.remove(personas.assessor)
    assignment = Assignment.objects.get(pk=assignment.pk)
    with pytest.raises(AssignmentTakenBack, match="no longer rank"):
        ranking_submit(assignment=assignment, assessor=personas.assessor, order=order[::-1])
    assert list(RankedCandidate.objects.values_list("pk", "position", "submitted_position")) == (
        before
    )


def test_an_assignment_of_another_assessor_is_not_theirs_to_rank(personas):
    from tests.helpers.relevance_data import make_assessor

    bea = make_assessor("bea", owner=personas.organiser)
    campaign = make_ranking_campaign(personas, assessors=[personas.assessor, bea])
    assignment, order = next_ranking(campaign, personas.assessor)
    with pytest.raises(AssignmentTakenBack, match="no longer assigned to you"):
        ranking_submit(assignment=assignment, assessor=bea, order=order)
    assert not RankedCandidate.objects.exists()


def test_scores_are_refused_in_a_ranking_campaign(personas):
    campaign = make_ranking_campaign(personas)
    assignment, _ = next_ranking(campaign, personas.assessor)
    entry = ranking_order(assignment=assignment)[0]
    with pytest.raises(ValidationError, match="takes no scores"):
        judgment_save(assignment=assignment, assessor=personas.assessor, pool_entry=entry, broad=2)
    assert not RelevanceJudgment.objects.exists()


def test_a_query_with_more_candidates_than_an_expert_can_rank_is_refused(personas):
    from catalog.models import RunEntry, System
    from relevance.services.ranking_groups import MAX_RANKED_CANDIDATES
    from tests.helpers.importing import collection_make

    clips = " ".join(f"x{n}" for n in range(MAX_RANKED_CANDIDATES + 1))
    collection = collection_make(clips=clips, queries="q", owner_name=personas.organiser.username)
    system = System.objects.create(collection=collection, name="S")
    query = collection.queries.get()
    RunEntry.objects.bulk_create(
        RunEntry(system=system, query=query, rank=rank, clip=clip)
        for rank, clip in enumerate(collection.clips.exclude(external_id="q"), start=1)
    )
    with pytest.raises(ValidationError, match=r"would have 61 candidates .* at most 60"):
        relevance_campaign_create(
            collection=collection, name="Too many", mode=RelevanceCampaign.RANKING, cutoff=100
        )
    assert not RelevanceCampaign.objects.exists()
    relevance_campaign_create(
        collection=collection, name="Enough", mode=RelevanceCampaign.RANKING, cutoff=60
    )
