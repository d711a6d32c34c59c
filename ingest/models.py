"""Uploads from the browser or the API: the stored files of one import, and the column
mappings of CrowdFlower exports that the mapping page remembers.

An :class:`Upload` holds where its files wait (a folder under
``EARSHOT_UPLOAD_ROOT``) until the background job that imports them (``Job.params``
names the upload) has run; :mod:`ingest.services.uploads` makes and runs them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Upload(models.Model):
    """The files of one upload, waiting for (or read by) the job that imports them."""

    CLIPS, RUNS, JUDGMENTS, MIREX, ANSWERS = "clips", "runs", "judgments", "mirex", "answers"
    GROUPS, PAIRWISE = "groups", "pairwise"
    KINDS = [
        (CLIPS, "audio clips"),
        (RUNS, "runs"),
        (JUDGMENTS, "judgments"),
        (GROUPS, "ordered groups"),
        (PAIRWISE, "past pairwise study"),
        (MIREX, "MIREX bundle"),
        (ANSWERS, "preference answers"),
    ]

    kind = models.CharField(max_length=20, choices=KINDS)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    collection = models.ForeignKey(
        "catalog.Collection", on_delete=models.CASCADE, related_name="uploads"
    )
    folder = models.CharField(max_length=64, unique=True, help_text="under EARSHOT_UPLOAD_ROOT")
    files = models.JSONField(default=list, help_text="[{role, name, size}] as uploaded")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the files and options")
    options = models.JSONField(default=dict, blank=True)
    job = models.ForeignKey(
        "work.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_upload"  # the table of before issue 30
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} upload {self.pk}"


class AnswerColumnMapping(models.Model):
    """How an organiser mapped a CrowdFlower export's columns for a campaign (remembered)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="answer_column_mappings"
    )
    collection = models.ForeignKey(
        "catalog.Collection", on_delete=models.CASCADE, related_name="answer_column_mappings"
    )
    campaign_name = models.CharField(max_length=200)
    header = models.JSONField(default=list, help_text="the export's columns, in order")
    mapping = models.JSONField(
        default=dict, help_text="pastanswers.importers.crowdflower.ColumnMapping"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_answercolumnmapping"  # the table of before issue 30
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "collection", "campaign_name"],
                name="answer_column_mapping_once_per_campaign",
            )
        ]

    def __str__(self) -> str:
        return f"columns of {self.campaign_name}"
