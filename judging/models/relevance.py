"""Relevance campaigns: assessors judge each query's pool on the Broad and Fine scales.

A campaign fixes its **pool** when it is created (the union of every system's top k per
query, without the query clip and optionally without clips by the query's artist), so
that runs imported later do not change what is being judged.

Work is handed out in **assignments**: one row per (query, slot) where a query has as
many slots as the campaign's redundancy (``assessors_per_query``). An assessor takes a
free slot with a conditional ``UPDATE … WHERE assessor IS NULL`` and the database
refuses a second slot of the same query to the same assessor, so no query is ever
judged more often than configured, even when assessors ask at the same instant.

Scores land in :class:`~judging.models.collection.RelevanceJudgment` rows with the
assessor set and the campaign's own :class:`~judging.models.sources.JudgmentSource`. How they were made (listening time,
judging time, plays) lives beside them in :class:`JudgmentActivity`, one row per
assignment and candidate: the shared judgment model stays the same for imported
judgments (which have no timings), and listening can be recorded before any score.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from judging.models.collection import Clip, Collection, Query, RelevanceJudgment
from judging.validation import name_validator


class RelevanceCampaign(models.Model):
    """One judging effort on a collection by trained assessors (thesis §1.4)."""

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="relevance_campaigns"
    )
    name = models.CharField(max_length=200, validators=[name_validator(200)])
    cutoff = models.PositiveSmallIntegerField(
        default=5, help_text="k: each system's top k clips per query enter the pool."
    )
    exclude_same_artist = models.BooleanField(
        default=True,
        help_text="Leave out clips by the query's artist, as MIREX does (thesis §7.3).",
    )
    assessors_per_query = models.PositiveSmallIntegerField(
        default=1, help_text="How many assessors judge each query."
    )
    queries_per_assessor = models.PositiveIntegerField(
        null=True, blank=True, help_text="Cap of queries per assessor; empty for no cap."
    )
    must_listen_seconds = models.PositiveSmallIntegerField(
        default=5, help_text="A candidate can be scored once this much of it has played."
    )
    take_back_minutes = models.PositiveIntegerField(
        default=60,
        help_text="An assignment with nothing judged is taken back after this long.",
    )
    assessors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="relevance_campaigns", blank=True
    )
    is_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(cutoff__gte=1), name="campaign_cutoff_from_one"),
            models.CheckConstraint(
                condition=Q(assessors_per_query__gte=1), name="campaign_redundancy_from_one"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("judging:relevance_campaign", args=[self.pk])

    @property
    def source(self):
        """The :class:`~judging.models.sources.JudgmentSource` of this campaign's judgments
        (made with the campaign by :func:`judging.services.relevance.relevance_campaign_create`)."""
        return self.judgment_source

    @property
    def take_back_after(self) -> timedelta:
        return timedelta(minutes=self.take_back_minutes)


class PoolEntry(models.Model):
    """A clip to be judged for a query of a campaign."""

    campaign = models.ForeignKey(RelevanceCampaign, on_delete=models.CASCADE, related_name="pool")
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="pool_entries")
    clip = models.ForeignKey(Clip, on_delete=models.CASCADE, related_name="pool_entries")

    class Meta:
        ordering = ["campaign", "query", "clip"]
        verbose_name_plural = "pool entries"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "query", "clip"], name="pool_clip_once_per_query"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.query} ~ {self.clip}"


class Assignment(models.Model):
    """A slot for judging one query: free while ``assessor`` is empty, then someone's work."""

    campaign = models.ForeignKey(
        RelevanceCampaign, on_delete=models.CASCADE, related_name="assignments"
    )
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="assignments")
    slot = models.PositiveSmallIntegerField()
    assessor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="relevance_assignments",
    )
    assigned_at = models.DateTimeField(null=True, blank=True)
    touched_at = models.DateTimeField(
        null=True, blank=True, help_text="Last save by the assessor; empty means untouched."
    )
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "query", "slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "query", "slot"], name="assignment_slot_unique"
            ),
            models.UniqueConstraint(
                fields=["campaign", "query", "assessor"],
                condition=Q(assessor__isnull=False),
                name="assignment_query_once_per_assessor",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} {self.query} slot {self.slot}"

    def get_absolute_url(self) -> str:
        return reverse("judging:assignment", args=[self.pk])

    @property
    def is_done(self) -> bool:
        return self.completed_at is not None

    def is_stale(self, *, now=None) -> bool:
        """Untouched for longer than the campaign allows (so it can be taken back)."""
        now = now or timezone.now()
        return (
            self.assessor_id is not None
            and self.touched_at is None
            and self.assigned_at is not None
            and self.assigned_at < now - self.campaign.take_back_after
        )

    def candidate_order(self, pool_entries: list[PoolEntry]) -> list[PoolEntry]:
        """The pool in this assignment's own random order, the same on every reload.

        Seeded by the assignment and assessor, so that assessors of one query hear the
        candidates in different orders and nothing hints at systems' ranks.
        """
        ordered = sorted(pool_entries, key=lambda entry: entry.pk)
        random.Random(f"{self.pk}:{self.assessor_id}").shuffle(ordered)
        return ordered


class JudgmentActivity(models.Model):
    """How one candidate of an assignment was judged: listening, judging time and plays.

    Values are the assessor's running totals; saves only ever raise them, so a repeated
    or late request changes nothing.
    """

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="activity")
    pool_entry = models.ForeignKey(PoolEntry, on_delete=models.CASCADE, related_name="activity")
    judgment = models.OneToOneField(
        RelevanceJudgment,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="activity",
    )
    listened_seconds = models.FloatField(default=0)
    judging_seconds = models.FloatField(default=0)
    plays = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["assignment", "pool_entry"]
        verbose_name_plural = "judgment activity"
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "pool_entry"], name="activity_once_per_candidate"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment} {self.pool_entry.clip}"
