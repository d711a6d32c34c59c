"""Reads of test collections: their clips, queries, systems, runs and judgments."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from judging.models import (
    Clip,
    Collection,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from judging.selectors.access import organiser_collections


def collections_for_organiser(*, user) -> QuerySet[Collection]:
    """The collections ``user`` organises, with their numbers of clips, queries and systems."""
    return organiser_collections(user=user).annotate(
        clip_count=Count("clips", distinct=True),
        query_count=Count("queries", distinct=True),
        system_count=Count("systems", distinct=True),
    )


def collection_with_counts(*, user, collection_id: int) -> Collection:
    """One collection of :func:`collections_for_organiser`, with its counts; else 404."""
    return get_object_or_404(collections_for_organiser(user=user), pk=collection_id)


def collection_clips(*, collection: Collection) -> QuerySet[Clip]:
    return collection.clips.order_by("external_id")


def collection_queries(*, collection: Collection) -> QuerySet[Query]:
    return collection.queries.select_related("clip").order_by("clip__external_id")


def collection_systems(*, collection: Collection) -> QuerySet[System]:
    return collection.systems.annotate(entries=Count("run_entries")).order_by("name")


def collection_system(*, collection: Collection, system_id: int) -> System:
    """A system of the collection; 404 for a system of another collection."""
    return get_object_or_404(collection.systems, pk=system_id)


def system_rankings(*, system: System) -> dict[str, list[str]]:
    """``{query clip id: [clip id, …]}``, best first: the system's run by external ids."""
    rankings: dict[str, list[str]] = {}
    rows = (
        RunEntry.objects.filter(system=system)
        .order_by("query__clip__external_id", "rank")
        .values_list("query__clip__external_id", "clip__external_id")
    )
    for query, clip in rows:
        rankings.setdefault(query, []).append(clip)
    return rankings


def collection_judgments(*, collection: Collection) -> QuerySet[RelevanceJudgment]:
    """Every judgment of the collection, oldest first, with query, clip and assessor."""
    return (
        RelevanceJudgment.objects.filter(query__collection=collection)
        .select_related("query__clip", "clip", "assessor")
        .order_by("pk")
    )
