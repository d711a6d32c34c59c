"""Reads of judgment sources: which a collection has, how many judgments each holds, which count."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from catalog.models import Collection, JudgmentSource, OrderedGroupEntry

__all__ = [
    "CONSOLIDATION_RULE",
    "collection_judgment_source",
    "collection_judgment_sources_with_counts",
]

CONSOLIDATION_RULE = (
    "Judgments of official sources count; several judgments of one query–clip pair are "
    "consolidated into one level per scale by the policy “mean” before any measure is "
    "computed. Pilot sources are kept "
    "and shown but left out of leaderboards, reliability studies and their exports."
)
"""The rule shown beside the sources (the results layer's policy, evaluation.selectors)."""


def collection_judgment_sources_with_counts(*, collection: Collection) -> QuerySet[JudgmentSource]:
    """The collection's sources by name, each with ``judgment_count`` (its clips in groups
    for a source of ordered groups) and its campaign."""
    groups = OrderedGroupEntry.objects.filter(source=OuterRef("pk")).order_by()
    placed = groups.values("source").annotate(n=Count("pk")).values("n")
    return (
        collection.judgment_sources.select_related("relevance_campaign")
        .annotate(
            judgment_count=Count("judgments")
            + Coalesce(Subquery(placed, output_field=IntegerField()), 0)
        )
        .order_by("name")
    )


def collection_judgment_source(*, collection: Collection, source_id: int) -> JudgmentSource:
    """A source of the collection (which already passed the access rule); 404 otherwise."""
    return get_object_or_404(collection.judgment_sources, pk=source_id)
