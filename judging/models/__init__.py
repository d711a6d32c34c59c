"""Judging's models, one module per area; import them from here."""

from judging.models.collection import (
    Clip,
    Collection,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from judging.models.relevance import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign

__all__ = [
    "Assignment",
    "Clip",
    "Collection",
    "JudgmentActivity",
    "PoolEntry",
    "Query",
    "RelevanceCampaign",
    "RelevanceJudgment",
    "RunEntry",
    "System",
]
