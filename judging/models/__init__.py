"""Judging's models, one module per area; import them from here."""

from judging.models.collection import (
    Clip,
    Collection,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from judging.models.crowd import (
    Answer,
    Assignment,
    Example,
    ExampleItem,
    PreferenceCampaign,
    TrapQuestion,
    Worker,
)

__all__ = [
    "Answer",
    "Assignment",
    "Clip",
    "Collection",
    "Example",
    "ExampleItem",
    "PreferenceCampaign",
    "Query",
    "RelevanceJudgment",
    "RunEntry",
    "System",
    "TrapQuestion",
    "Worker",
]
