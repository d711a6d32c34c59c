"""Expert-ranking campaigns: the assessor's order of a query's candidates, and its groups.

An assessor of an expert-ranking campaign (``RelevanceCampaign.mode == "ranking"``,
issue 32) gets whole queries like a pooled campaign's assessor (the same assignments,
invitations and must-listen rule) and puts the query's candidates in one order, most
similar first. :func:`ranking_save` keeps the order being worked on at every move (a
reload loses nothing); :func:`ranking_submit` makes it the assessor's ranking of the
query — once the server vouches that every candidate was heard by the campaign's rule
(:func:`listening.services.audio_served.assignment_listening_problem`, the rule of
relevance judging: a ranking places every candidate, so every one must be heard) — and
recomputes the query's groups from every submitted ranking
(:func:`relevance.services.ranking_groups.query_groups_update`).

**Ties are refused**: a ranking is a strict order of every candidate, each once, as the
experts of Typke et al. (2005) gave it; ties arise across experts (two candidates with
the same median rank), where the rank-sum test handles them.

**Revising**: an assessor may submit again while the campaign is open; the new order
replaces their earlier one and the groups follow. Submitting the same order again changes
nothing (the groups written are the same: :func:`catalog.services.ordered_groups.source_groups_write`
leaves them and asks no recompute). A closed campaign takes no order, saved or submitted.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from listening.services.audio_served import assignment_listening_problem
from relevance.models import Assignment, PoolEntry, RankedCandidate
from relevance.selectors import headphones_cleared
from relevance.selectors_rankings import candidate_numbers
from relevance.services.campaigns import LISTEN_TOLERANCE, AssignmentTakenBack, MustListenFirst
from relevance.services.headphones import HeadphonesFirst
from relevance.services.ranking_groups import GroupsUpdate, query_groups_update


def _order_checked(assignment: Assignment, order: Sequence[int]) -> list[tuple[int, PoolEntry]]:
    """``order`` (pool entry ids, most similar first) as the assignment's candidates with
    their numbers, or a ``ValidationError`` saying which is unknown, placed twice or
    left out."""
    pool = {entry.pk: entry for entry in assignment.candidates().select_related("clip")}
    numbers = candidate_numbers(assignment=assignment, pool=pool.values())
    seen: set[int] = set()
    for pk in order:
        if pk not in pool:
            raise ValidationError(f"{pk} is not a candidate of this query.")
        if pk in seen:
            raise ValidationError(
                f"Candidate {numbers[pk]} is placed twice: each candidate has one place (no ties)."
            )
        seen.add(pk)
    missing = sorted(numbers[pk] for pk in pool.keys() - seen)
    if missing:
        raise ValidationError(
            f"The ranking leaves out candidate{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(str, missing))}: place every candidate."
        )
    return [(numbers[pk], pool[pk]) for pk in order]


def _may_rank(assignment: Assignment, assessor) -> None:
    campaign = assignment.campaign
    if not campaign.is_ranking:
        raise ValidationError("This campaign scores candidates; it takes no rankings.")
    if assessor is None or not campaign.assessors.filter(pk=assessor.pk).exists():
        raise AssignmentTakenBack("You no longer rank in this campaign.")
    if not campaign.is_open:
        raise AssignmentTakenBack("The campaign is closed: rankings can no longer change.")
    if not headphones_cleared(campaign=campaign, assessor=assessor):
        raise HeadphonesFirst(
            "This campaign needs headphones: pass the headphone check before ranking "
            "(reload the page to take it). Nothing was saved."
        )


def _write_places(
    assignment: Assignment, entries: list[tuple[int, PoolEntry]], *, submitted: bool
) -> None:
    held = {row.pool_entry_id: row for row in assignment.ranked.all()}
    changed, created = [], []
    for position, (_, entry) in enumerate(entries, start=1):
        row = held.get(entry.pk)
        if row is None:
            row = RankedCandidate(assignment=assignment, pool_entry=entry, position=position)
            created.append(row)
        elif row.position != position or (submitted and row.submitted_position != position):
            changed.append(row)
        row.position = position
        if submitted:
            row.submitted_position = position
    RankedCandidate.objects.bulk_create(created)
    RankedCandidate.objects.bulk_update(changed, ["position", "submitted_position"])


def _own(assignment: Assignment, assessor, now) -> None:
    """Lock the assignment row and touch it; a take-back committed first leaves nothing."""
    if Assignment.objects.filter(pk=assignment.pk, assessor=assessor).update(touched_at=now) != 1:
        raise AssignmentTakenBack("This query is no longer assigned to you.")


def ranking_save(*, assignment: Assignment, assessor, order: Sequence[int], now=None) -> None:
    """Keep the order the assessor is working on (pool entry ids, most similar first).

    Saving it counts for nothing yet (:func:`ranking_submit` does); repeating a save
    changes nothing.
    """
    _may_rank(assignment, assessor)
    entries = _order_checked(assignment, order)
    with transaction.atomic():
        _own(assignment, assessor, now or timezone.now())
        _write_places(assignment, entries, submitted=False)


def ranking_submit(
    *, assignment: Assignment, assessor, order: Sequence[int], now=None
) -> GroupsUpdate:
    """Make ``order`` the assessor's ranking of the query and recompute its groups.

    Refused with :class:`~relevance.services.campaigns.MustListenFirst` (the order is
    still kept as the one being worked on) until the server vouches that every
    candidate was heard: each candidate's must-listen time and listening window, and —
    one clip at a time — the must-listen time of every candidate since the assignment's
    first audio, the rule relevance judging applies to the n-th candidate scored.
    """
    now = now or timezone.now()
    _may_rank(assignment, assessor)
    entries = _order_checked(assignment, order)
    campaign = assignment.campaign
    with transaction.atomic():
        _own(assignment, assessor, now)
        _write_places(assignment, entries, submitted=False)
        problem = None
        for heard_before, (number, entry) in enumerate(entries):
            problem = assignment_listening_problem(
                assignment=assignment, clip=entry.clip,
                must_listen_seconds=campaign.must_listen_seconds, scored_before=heard_before,
                now=now, tolerance=LISTEN_TOLERANCE,
            )  # fmt: skip
            if problem:
                problem = f"Candidate {number}: {problem}"
                break
    if problem:
        raise MustListenFirst(problem)
    with transaction.atomic():
        _own(assignment, assessor, now)
        _write_places(assignment, entries, submitted=True)
        Assignment.objects.filter(pk=assignment.pk, completed_at__isnull=True).update(
            completed_at=now
        )
        update = query_groups_update(campaign=campaign, query_id=assignment.query_id)
    return update
