"""Deleted things, restorable for a while: the trash (issue 25: delete with undo).

Deleting an example, a trap question, a campaign, a system with its runs, a judgment
source with its judgments, a clip nobody judged or a whole collection removes its rows at
once — so nothing anywhere has to tell deleted rows from live ones — and keeps a snapshot
of every row that went with it (:mod:`catalog.services.trash`). Restoring puts those rows
back with their ids; after ``EARSHOT_TRASH_DAYS`` the sweep drops the snapshot and the
audio files only it still named.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TrashItem(models.Model):
    KINDS = [
        ("example", "example"),
        ("trap", "trap question"),
        ("preference_campaign", "preference campaign"),
        ("relevance_campaign", "relevance campaign"),
        ("system", "system"),
        ("source", "judgment source"),
        ("clip", "clip"),
        ("collection", "collection"),
    ]

    kind = models.CharField(max_length=30, choices=KINDS)
    label = models.CharField(max_length=300, help_text="What was deleted, in words.")
    collection = models.ForeignKey(
        "catalog.Collection", null=True, blank=True, on_delete=models.CASCADE,
        related_name="trash", help_text="Who may restore it: the collection's organisers.",
    )  # fmt: skip
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text="Who deleted it; a deleted collection is its owner's.",
    )  # fmt: skip
    counts = models.JSONField(default=dict, help_text="Rows of each kind that went with it.")
    rows = models.JSONField(default=list, help_text="Every row, serialized, parents first.")
    files = models.JSONField(default=list, help_text="Stored files only these rows named.")
    deleted_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        db_table = "judging_trashitem"  # the table of before issue 30
        ordering = ["-deleted_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label}"
