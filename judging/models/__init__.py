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
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    TrapQuestion,
    Worker,
)

__all__ = [
    "Answer",
    "Clip",
    "Collection",
    "Example",
    "ExampleItem",
    "PreferenceCampaign",
    "PreferenceTask",
    "Query",
    "RelevanceJudgment",
    "RunEntry",
    "System",
    "TrapQuestion",
    "Worker",
]
