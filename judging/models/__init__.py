"""Judging's models, one module per area; import them from here."""

from judging.models.collection import (
    Clip,
    Collection,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)

__all__ = ["Clip", "Collection", "Query", "RelevanceJudgment", "RunEntry", "System"]
