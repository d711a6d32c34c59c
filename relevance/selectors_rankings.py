"""Reads of expert-ranking campaigns: the assessor's ranking page and the organiser's
progress, groups and agreement per query (issue 32)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from catalog.models import Query
from catalog.selectors.ordered_groups import source_groups
from evaluation.core.ordered_groups import Concordance, kendalls_w
from listening.services.audio_served import seconds_heard
from relevance.models import Assignment, PoolEntry, RankedCandidate, RelevanceCampaign


def ranking_order(*, assignment: Assignment) -> list[PoolEntry]:
    """The candidates in the order the assessor is working on; before their first move,
    the assignment's own random order (:meth:`Assignment.candidate_order`)."""
    pool = list(assignment.candidates().select_related("clip"))
    places = dict(assignment.ranked.values_list("pool_entry_id", "position"))
    if len(places) == len(pool) and places.keys() == {entry.pk for entry in pool}:
        return sorted(pool, key=lambda entry: places[entry.pk])
    return assignment.candidate_order(pool)


def candidate_numbers(*, assignment: Assignment, pool: Sequence[PoolEntry]) -> dict[int, int]:
    """``{pool entry id: n}``: the page calls each candidate "Candidate n" by the
    assignment's own random order, a name that keeps through every move and says
    nothing of systems or clips."""
    return {entry.pk: n for n, entry in enumerate(assignment.candidate_order(list(pool)), 1)}


@dataclass(frozen=True)
class RankedForPage:
    """A candidate as the ranking page shows it: its number and what the server heard."""

    number: int
    pool_entry: PoolEntry
    heard_seconds: float


def ranking_page_candidates(*, assignment: Assignment) -> list[RankedForPage]:
    """The assignment's candidates in the order being worked on, each with its number
    ("Candidate n", fixed whatever the moves) and the seconds of it the server vouches
    were heard (:func:`listening.services.audio_served.seconds_heard`)."""
    order = ranking_order(assignment=assignment)
    numbers = candidate_numbers(assignment=assignment, pool=order)
    now = timezone.now()
    return [
        RankedForPage(
            number=numbers[entry.pk],
            pool_entry=entry,
            heard_seconds=seconds_heard(assignment=assignment, clip=entry.clip, now=now),
        )
        for entry in order
    ]


def ranking_submitted(*, assignment: Assignment) -> bool:
    """Whether the assessor has submitted a ranking of this query (and may revise it)."""
    return assignment.ranked.filter(submitted_position__isnull=False).exists()


@dataclass(frozen=True)
class QueryRankings:
    """One query of an expert-ranking campaign, as its page shows it."""

    query: Query
    candidates: int
    rankings: int
    """Rankings submitted."""
    slots: int
    """Assessors the query is meant to have (the campaign's assessors per query)."""
    groups: list[list[str]]
    """The current groups (clip ids, most similar first); empty before the first ranking."""
    agreement: Concordance | None
    """Kendall's W of the submitted rankings; None with fewer than two."""


def campaign_rankings_by_query(*, campaign: RelevanceCampaign) -> list[QueryRankings]:
    """Each query's rankings (of how many meant), its groups in the campaign's source and
    the experts' agreement, Kendall's W (:func:`evaluation.core.ordered_groups.kendalls_w`)."""
    queries = (
        campaign.assignments.order_by("query__clip__external_id")
        .values("query")
        .annotate(slots=Count("pk"), done=Count("pk", filter=Q(completed_at__isnull=False)))
    )
    sizes = dict(
        campaign.pool.order_by().values("query").annotate(n=Count("pk")).values_list("query", "n")
    )
    orders: dict[int, dict[int, list[tuple[int, int]]]] = {}
    rows = RankedCandidate.objects.filter(
        assignment__campaign=campaign, submitted_position__isnull=False
    ).values_list("assignment__query_id", "assignment_id", "submitted_position", "pool_entry_id")
    for query_id, assignment_id, position, entry in rows:
        orders.setdefault(query_id, {}).setdefault(assignment_id, []).append((position, entry))
    groups = source_groups(source=campaign.source)
    by_pk = Query.objects.select_related("clip").in_bulk([row["query"] for row in queries])
    result = []
    for row in queries:
        query = by_pk[row["query"]]
        rankings = [
            [entry for _, entry in sorted(places)] for places in orders.get(query.pk, {}).values()
        ]
        result.append(
            QueryRankings(
                query=query,
                candidates=sizes.get(query.pk, 0),
                rankings=len(rankings),
                slots=row["slots"],
                groups=groups.get(query.clip.external_id, []),
                agreement=kendalls_w(rankings),
            )
        )
    return result


def campaign_rankers(*, campaign: RelevanceCampaign) -> list[dict]:
    """Each assessor of the campaign: queries ranked (submitted) of those they hold."""
    mine = Count("relevance_assignments", filter=Q(relevance_assignments__campaign=campaign))
    done = Count(
        "relevance_assignments",
        filter=Q(
            relevance_assignments__campaign=campaign,
            relevance_assignments__completed_at__isnull=False,
        ),
    )
    return list(campaign.assessors.order_by("username").annotate(assigned=mine, done=done))
