"""Judgment sources for tests that write judgments directly (catalog/models/sources.py)."""

from __future__ import annotations

from catalog.models import JudgmentSource


def source_for(collection, name: str = "test", *, kind: str = JudgmentSource.IMPORT, status=None):
    """The collection's judgment source ``name`` (created as ``kind`` if missing)."""
    source, _ = JudgmentSource.objects.get_or_create(
        collection=collection, name=name, defaults={"kind": kind}
    )
    if status is not None and source.status != status:
        source.status = status
        source.save(update_fields=["status"])
    return source
