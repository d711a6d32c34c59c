"""The groups of an expert-ranking campaign: its source, and a query's groups from its rankings.

An expert-ranking campaign (:mod:`relevance.services.rankings`) writes into a judgment
source of its own that holds ordered groups, made with it (:func:`ranking_source_create`:
a pilot unless the organiser says official). After each submitted ranking the query's
groups are computed again from every submitted ranking of it
(:func:`query_groups_update`) — a query of 30 candidates ranked by 30 experts takes
milliseconds (``docs/benchmarks.md``, "Groups from experts' rankings"), so it is done in
the submission's request, not as background work — and the collection's results follow
through the source (:func:`catalog.services.ordered_groups.source_groups_write`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Clip, JudgmentSource
from catalog.models.sources import SOURCE_NAME_MAX_LENGTH
from catalog.services.ordered_groups import source_groups_write
from common.validation import name_validator
from evaluation.core.ordered_groups import groups_from_ranks
from relevance.models import RankedCandidate, RelevanceCampaign


def ranking_source_create(
    *, campaign: RelevanceCampaign, name: str = "", status: str = JudgmentSource.PILOT
) -> JudgmentSource:
    """The new source an expert-ranking campaign writes its groups into (a pilot unless
    ``status`` says official), named ``name`` or after the campaign; a name the collection
    already uses is refused, so a campaign never writes into a source it did not make."""
    name = (name or campaign.name)[:SOURCE_NAME_MAX_LENGTH]
    name_validator(SOURCE_NAME_MAX_LENGTH)(name)
    if status not in dict(JudgmentSource.STATUSES):
        raise ValidationError({"groups_status": "Choose official or pilot."})
    if campaign.collection.judgment_sources.filter(name=name).exists():
        raise ValidationError(
            {
                "groups_source": f"“{campaign.collection}” already has judgments called “{name}”: "
                "give the groups a new name."
            }
        )
    return JudgmentSource.objects.create(
        collection=campaign.collection, name=name, kind=JudgmentSource.GROUPS, status=status,
        relevance_campaign=campaign, origin=f"expert-ranking campaign {campaign.pk}",
    )  # fmt: skip


MAX_RANKED_CANDIDATES = 60
"""The most candidates a query of an expert-ranking campaign may have. A person cannot
order many more by ear, and the groups of 60 candidates ranked by 60 experts who agree on
nothing (one group: every pair compared) take about 0.4 s on a busy machine
(``docs/benchmarks.md``), the most a submission's request should wait."""


def ranking_pool_check(pool: dict[int, set[int]]) -> None:
    """Refuse a campaign whose largest query has more than :data:`MAX_RANKED_CANDIDATES`."""
    largest = max((len(clips) for clips in pool.values()), default=0)
    if largest > MAX_RANKED_CANDIDATES:
        raise ValidationError(
            {
                "cutoff": f"A query would have {largest} candidates to put in order; an expert "
                f"ranks at most {MAX_RANKED_CANDIDATES}: choose a smaller k."
            }
        )


@dataclass(frozen=True)
class GroupsUpdate:
    """A query's groups from its submitted rankings: clip ids, most similar first."""

    groups: list[list[int]]
    rankings: int
    changed: bool


def submitted_ranks(*, campaign: RelevanceCampaign, query_id: int) -> dict[int, list[int]]:
    """``{clip id: [rank, …]}``: the ranks every submitted ranking of the query gave."""
    ranks: dict[int, list[int]] = {}
    rows = RankedCandidate.objects.filter(
        assignment__campaign=campaign,
        assignment__query_id=query_id,
        submitted_position__isnull=False,
    ).order_by("assignment_id", "submitted_position")
    for clip_id, rank in rows.values_list("pool_entry__clip_id", "submitted_position"):
        ranks.setdefault(clip_id, []).append(rank)
    return ranks


def query_groups_update(*, campaign: RelevanceCampaign, query_id: int) -> GroupsUpdate:
    """The query's groups from every submitted ranking, by the campaign's rule and α
    (:func:`evaluation.core.ordered_groups.groups_from_ranks`: Typke et al. 2005, or
    Urbano et al. 2010's *Any* and *Prev*), written into the campaign's source in place
    of the query's earlier groups (:func:`source_groups_write` with ``replace``: a
    changed source asks the collection's results to be recomputed).

    The source's row is locked before the rankings are read, so of two submissions at
    the same instant the second waits and writes groups that include the first.
    """
    source = campaign.source
    with transaction.atomic():
        JudgmentSource.objects.select_for_update().filter(pk=source.pk).exists()
        ranks = submitted_ranks(campaign=campaign, query_id=query_id)
        names = dict(Clip.objects.filter(pk__in=ranks).values_list("external_id", "pk"))
        grouping = groups_from_ranks(
            {name: ranks[pk] for name, pk in names.items()},
            alpha=campaign.grouping_alpha,
            rule=campaign.grouping_rule,
        )
        groups = [[names[name] for name in group] for group in grouping.groups]
        write = source_groups_write(
            source=source, groups={query_id: groups}, replace=True,
            origin=f"expert-ranking campaign {campaign.pk}",
        )  # fmt: skip
    return GroupsUpdate(
        groups=groups,
        rankings=len(next(iter(ranks.values()), [])),
        changed=bool(write.queries_created or write.queries_replaced),
    )
