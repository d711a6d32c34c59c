"""Judging's models, one module per area; import them from here."""

from judging.models.collection import (
    Clip,
    Collection,
    CollectionShare,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from judging.models.crowd import (
    Answer,
    Example,
    ExampleItem,
    PracticeAnswer,
    PreferenceCampaign,
    PreferenceTask,
    TrapQuestion,
    Worker,
)
from judging.models.handoff import PendingHandoff
from judging.models.headphones import AssessorScreen, HeadphoneTrial
from judging.models.jobs import Job
from judging.models.listening import AudioServed
from judging.models.people import Invitation, Person
from judging.models.relevance import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign
from judging.models.sources import JudgmentSource
from judging.models.trash import TrashItem
from judging.models.uploads import AnswerColumnMapping, Upload

__all__ = [
    "Answer",
    "AnswerColumnMapping",
    "AssessorScreen",
    "Assignment",
    "AudioServed",
    "Clip",
    "Collection",
    "CollectionShare",
    "Example",
    "ExampleItem",
    "HeadphoneTrial",
    "Invitation",
    "Job",
    "JudgmentActivity",
    "JudgmentSource",
    "PendingHandoff",
    "Person",
    "PoolEntry",
    "PracticeAnswer",
    "PreferenceCampaign",
    "PreferenceTask",
    "Query",
    "RelevanceCampaign",
    "RelevanceJudgment",
    "RunEntry",
    "System",
    "TrapQuestion",
    "TrashItem",
    "Upload",
    "Worker",
]
