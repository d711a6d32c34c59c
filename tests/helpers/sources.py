"""Judgment sources for tests that write judgments directly (catalog/models/sources.py)."""

from __future__ import annotations

import pytest

from catalog.models import JudgmentSource, RunEntry


def source_for(collection, name: str = "test", *, kind: str = JudgmentSource.IMPORT, status=None):
    """The collection's judgment source ``name`` (created as ``kind`` if missing)."""
    source, _ = JudgmentSource.objects.get_or_create(
        collection=collection, name=name, defaults={"kind": kind}
    )
    if status is not None and source.status != status:
        source.status = status
        source.save(update_fields=["status"])
    return source


@pytest.fixture
def small_collection(personas):
    collection = personas.collection
    query = collection.queries.get()
    system = collection.systems.get()
    for rank, clip in enumerate(collection.clips.exclude(external_id="c1"), start=1):
        RunEntry.objects.create(system=system, query=query, rank=rank, clip=clip)
    second = collection.systems.create(name="S2")
    RunEntry.objects.create(
        system=second, query=query, rank=1, clip=collection.clips.get(external_id="c3")
    )
    q2 = collection.queries.create(clip=collection.clips.get(external_id="c2"))
    RunEntry.objects.create(
        system=system, query=q2, rank=1, clip=collection.clips.get(external_id="c3")
    )
    RunEntry.objects.create(
        system=second, query=q2, rank=1, clip=collection.clips.get(external_id="c1")
    )
    source = source_for(collection, "panel")
    for q, c, fine in ((query, "c2", 80), (query, "c3", 20), (q2, "c3", 60), (q2, "c1", 0)):
        collection.clips.get(external_id=c).judgments.create(query=q, source=source, fine=fine)
    return collection
