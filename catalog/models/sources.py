"""Judgment sources: where each relevance judgment of a collection came from, and whether it counts.

Every :class:`~catalog.models.collection.RelevanceJudgment` belongs to one source of
its collection: a relevance campaign (its assessors' judgments), an import (a qrels or
MIREX judgments file), the REST API, the judgments carried by imported preference
answers, or the demo. A source is **official** (its judgments count in leaderboards,
mappings and exports) or a **pilot** (kept, shown, but left out of results): a pilot
campaign with deliberately patterned judgments no longer moves the leaderboards.

Sources are named, one name per collection: an import names its source (``--source``,
by default the file's name) and never changes another source's judgments; changing the
judgments a source already holds needs an explicit replace
(:mod:`ingest.importers.judgments`).

A source of kind ``groups`` or ``pairwise`` holds a ground truth of ordered groups
(:mod:`catalog.models.ordered_groups`) instead of relevance judgments, under the same
rule: official counts (ADR on the leaderboards), pilot is kept and left out.
"""

from __future__ import annotations

from django.db import models

from catalog.models.collection import Collection
from common.validation import name_validator

SOURCE_NAME_MAX_LENGTH = 200


class JudgmentSource(models.Model):
    """A named origin of judgments in one collection, official (counts) or pilot (does not)."""

    IMPORT, CAMPAIGN, API, ANSWERS, DEMO = "import", "campaign", "api", "answers", "demo"
    GROUPS, PAIRWISE = "groups", "pairwise"
    KINDS = [
        (IMPORT, "imported file"),
        (GROUPS, "ordered groups file"),
        (PAIRWISE, "past pairwise preference study"),
        (CAMPAIGN, "relevance campaign"),
        (API, "REST API"),
        (ANSWERS, "judgments given with imported preference answers"),
        (DEMO, "demo"),
    ]
    OFFICIAL, PILOT = "official", "pilot"
    STATUSES = [(OFFICIAL, "official: counts in results"), (PILOT, "pilot: left out of results")]

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="judgment_sources"
    )
    name = models.CharField(
        max_length=SOURCE_NAME_MAX_LENGTH, validators=[name_validator(SOURCE_NAME_MAX_LENGTH)]
    )
    kind = models.CharField(max_length=10, choices=KINDS)
    status = models.CharField(max_length=10, choices=STATUSES, default=OFFICIAL)
    relevance_campaign = models.OneToOneField(
        "relevance.RelevanceCampaign",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="judgment_source",
        help_text="The campaign whose assessors made these judgments, if any.",
    )
    origin = models.CharField(
        max_length=500,
        blank=True,
        help_text="What last filled it: a file's name, an API user.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_judgmentsource"  # the table of before issue 30
        ordering = ["collection", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "name"], name="judgment_source_name_per_collection"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def holds_groups(self) -> bool:
        """Whether it holds ordered groups (:class:`~catalog.models.OrderedGroupEntry`)
        rather than relevance judgments."""
        return self.kind in GROUP_KINDS

    @property
    def counts(self) -> bool:
        """Whether its judgments count in results (leaderboards, mappings, exports)."""
        return self.status == self.OFFICIAL


GROUP_KINDS = (JudgmentSource.GROUPS, JudgmentSource.PAIRWISE)
"""The kinds of source that hold ordered groups instead of relevance judgments."""
