"""Test collections: clips, queries, systems, their ranked lists, and relevance judgments."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from catalog.search import SearchKey
from common.validation import identifier_validator, name_validator, text_validator

BROAD_LABELS = {0: "Not similar", 1: "Somewhat similar", 2: "Very similar"}
"""The Broad scale of MIREX's Evalutron 6000 (thesis §1.4), in order of relevance."""

FINE_MAX = 100
"""The Fine scale runs from 0 to 100 (thesis §1.4)."""


def _audio_token() -> str:
    return secrets.token_urlsafe(24)


class Collection(models.Model):
    """A test collection: clips, queries, systems' ranked lists and relevance judgments."""

    name = models.CharField(max_length=200, validators=[name_validator(200)])
    description = models.TextField(blank=True, validators=[text_validator()])
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="collections"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="Archived collections are left out of the list."
    )
    # What listeners hear (listening.loudness): copies of every clip made once, at a target
    # loudness and/or cut to an excerpt; the originals are kept for download.
    loudness_target = models.FloatField(
        null=True, blank=True,
        validators=[MinValueValidator(-40.0), MaxValueValidator(-10.0)],
        help_text="Integrated loudness (LUFS) listeners hear every clip at, e.g. −23 "
        "(EBU R128), with true peaks at most −1 dBTP. Empty: clips play as uploaded.",
    )  # fmt: skip
    excerpt_start = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0.0)],
        help_text="Listeners hear an excerpt from this many seconds in (MIREX AMS: 30).",
    )  # fmt: skip
    excerpt_seconds = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(1.0)],
        help_text="…lasting this many seconds (MIREX AMS: 30). Empty: the whole clip.",
    )  # fmt: skip

    class Meta:
        db_table = "judging_collection"  # the table of before issue 30
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="collection_name_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("catalog:collection", args=[self.pk])

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    @property
    def listening_copies(self) -> bool:
        """Whether listeners hear copies (normalised or cut) rather than the uploads."""
        return self.loudness_target is not None or self.excerpt_seconds is not None


def clip_upload_to(clip: Clip, filename: str) -> str:
    return f"clips/{clip.collection_id}/{filename}"


def listening_copy_upload_to(clip: Clip, filename: str) -> str:
    return f"clips/{clip.collection_id}/heard/{filename}"


class Clip(models.Model):
    """An audio clip with its metadata. Evaluation-only collections have no audio file."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="clips")
    external_id = models.CharField(max_length=200, validators=[identifier_validator(200)])
    title = models.CharField(max_length=300, blank=True, validators=[name_validator(300)])
    artist = models.CharField(max_length=300, blank=True, validators=[name_validator(300)])
    genre = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])
    duration = models.FloatField(null=True, blank=True, help_text="seconds")
    audio = models.FileField(upload_to=clip_upload_to, blank=True)
    loudness = models.FloatField(
        null=True, blank=True, help_text="Integrated loudness of the upload, LUFS (BS.1770-4)."
    )
    true_peak = models.FloatField(null=True, blank=True, help_text="True peak of the upload, dBTP.")
    listening_audio = models.FileField(
        upload_to=listening_copy_upload_to, blank=True,
        help_text="The copy listeners hear (the collection's loudness and excerpt); empty: "
        "they hear the upload.",
    )  # fmt: skip
    heard_loudness = models.FloatField(
        null=True, blank=True, help_text="Integrated loudness of the copy listeners hear, LUFS."
    )
    heard_true_peak = models.FloatField(
        null=True, blank=True, help_text="True peak of the copy listeners hear, dBTP."
    )
    audio_token = models.CharField(
        max_length=64,
        unique=True,
        default=_audio_token,
        editable=False,
        help_text="Unguessable part of the clip's audio URL.",
    )

    class Meta:
        db_table = "judging_clip"  # the table of before issue 30
        ordering = ["collection", "external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "external_id"], name="clip_external_id_per_collection"
            ),
        ]
        # Prefix search on the collection page (catalog.search): the key's range is read
        # from these indexes, never by scanning the collection's clips.
        indexes = [
            models.Index(F("collection"), SearchKey("external_id"), name="clip_id_search"),
            models.Index(F("collection"), SearchKey("title"), name="clip_title_search"),
            models.Index(F("collection"), SearchKey("artist"), name="clip_artist_search"),
        ]

    def __str__(self) -> str:
        return self.title or self.external_id

    @property
    def has_audio(self) -> bool:
        return bool(self.audio)

    @property
    def heard_file(self):
        """The file listeners are sent: the collection's copy when there is one, else the upload."""
        return self.listening_audio if self.listening_audio else self.audio

    def audio_url(self) -> str:
        return reverse("catalog:clip_audio", args=[self.audio_token])


class Query(models.Model):
    """A query of a collection: one of its clips, used to ask for similar clips."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="queries")
    clip = models.ForeignKey(Clip, on_delete=models.RESTRICT, related_name="as_queries")

    class Meta:
        db_table = "judging_query"  # the table of before issue 30
        ordering = ["collection", "clip__external_id"]
        verbose_name_plural = "queries"
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "clip"], name="query_clip_per_collection"
            ),
        ]

    def __str__(self) -> str:
        return self.external_id

    @property
    def external_id(self) -> str:
        return self.clip.external_id


class System(models.Model):
    """A retrieval system whose ranked lists (a run) are evaluated."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="systems")
    name = models.CharField(max_length=200, validators=[name_validator(200)])
    team = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])

    class Meta:
        db_table = "judging_system"  # the table of before issue 30
        ordering = ["collection", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "name"], name="system_name_per_collection"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RunEntry(models.Model):
    """One row of a system's ranked list for a query: the clip at a rank (1 = top)."""

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="run_entries")
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="run_entries")
    rank = models.PositiveIntegerField()
    clip = models.ForeignKey(Clip, on_delete=models.RESTRICT, related_name="run_entries")
    score = models.FloatField(null=True, blank=True)

    class Meta:
        db_table = "judging_runentry"  # the table of before issue 30
        ordering = ["system", "query", "rank"]
        verbose_name_plural = "run entries"
        constraints = [
            models.UniqueConstraint(fields=["system", "query", "rank"], name="run_rank_unique"),
            models.UniqueConstraint(fields=["system", "query", "clip"], name="run_clip_unique"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="run_rank_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.system} {self.query} #{self.rank}"


class RelevanceJudgment(models.Model):
    """How similar a clip is to a query, on the Broad (0–2) and Fine (0–100) scales.

    A pair may have several judgments: one per assessor, or one per imported source
    when nobody in Earshot made it. ``source`` is the
    :class:`~catalog.models.sources.JudgmentSource` it came from (a relevance campaign,
    an import, the API), which says whether it counts in results.
    """

    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="judgments")
    clip = models.ForeignKey(Clip, on_delete=models.CASCADE, related_name="judgments")
    assessor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="relevance_judgments",
    )
    source = models.ForeignKey(
        "catalog.JudgmentSource", on_delete=models.CASCADE, related_name="judgments"
    )
    broad = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=sorted(BROAD_LABELS.items())
    )
    fine = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_relevancejudgment"  # the table of before issue 30
        ordering = ["query", "clip", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["query", "clip", "assessor", "source"],
                condition=Q(assessor__isnull=False),
                name="judgment_once_per_assessor",
            ),
            models.UniqueConstraint(
                fields=["query", "clip", "source"],
                condition=Q(assessor__isnull=True),
                name="judgment_once_per_source",
            ),
            models.CheckConstraint(
                condition=Q(broad__isnull=True) | Q(broad__lte=2), name="judgment_broad_0_2"
            ),
            models.CheckConstraint(
                condition=Q(fine__isnull=True) | Q(fine__lte=FINE_MAX), name="judgment_fine_0_100"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.query} ~ {self.clip}: broad={self.broad} fine={self.fine}"


class CollectionShare(models.Model):
    """Another organiser's access to a collection: ``read`` (read-only) or ``full``.

    The owner keeps everything; a full co-organiser may change everything in the
    collection except who it is shared with. The rule lives in
    :mod:`catalog.selectors.access`.
    """

    READ, FULL = "read", "full"
    ACCESS = [(READ, "read-only"), (FULL, "full")]

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_shares"
    )
    access = models.CharField(max_length=4, choices=ACCESS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_collectionshare"  # the table of before issue 30
        ordering = ["collection", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "user"], name="share_once_per_user"),
            models.CheckConstraint(condition=Q(access__in=["read", "full"]), name="share_access"),
        ]

    def __str__(self) -> str:
        return f"{self.collection} shared with {self.user} ({self.access})"
