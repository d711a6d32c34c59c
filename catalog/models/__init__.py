"""Catalog's models: a collection and all in it; import them from here."""

from catalog.models.collection import (
    Clip,
    Collection,
    CollectionShare,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from catalog.models.ordered_groups import OrderedGroupEntry
from catalog.models.sources import JudgmentSource
from catalog.models.trash import TrashItem

__all__ = [
    "Clip",
    "Collection",
    "CollectionShare",
    "JudgmentSource",
    "OrderedGroupEntry",
    "Query",
    "RelevanceJudgment",
    "RunEntry",
    "System",
    "TrashItem",
]
