"""Background work's models: the abstract ``Work``, jobs, hand-offs waiting for the broker; import them from here."""

from work.models.handoff import PendingHandoff
from work.models.jobs import Job
from work.models.work import Work

__all__ = [
    "Job",
    "PendingHandoff",
    "Work",
]
