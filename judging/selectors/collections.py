"""Reads of test collections: their clips, queries and systems."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from judging.models import (
    Clip,
    Collection,
    Query,
    System,
)


def collections_for_organiser(*, user) -> QuerySet[Collection]:
    collections = Collection.objects.all() if user.is_superuser else user.collections.all()
    return collections.annotate(
        clip_count=Count("clips", distinct=True),
        query_count=Count("queries", distinct=True),
        system_count=Count("systems", distinct=True),
    )


def collection_clips(*, collection: Collection) -> QuerySet[Clip]:
    return collection.clips.order_by("external_id")


def collection_queries(*, collection: Collection) -> QuerySet[Query]:
    return collection.queries.select_related("clip").order_by("clip__external_id")


def collection_systems(*, collection: Collection) -> QuerySet[System]:
    return collection.systems.annotate(entries=Count("run_entries")).order_by("name")
