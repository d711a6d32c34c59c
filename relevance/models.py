"""Relevance campaigns: assessors judge each query's pool on the Broad and Fine scales.

A campaign fixes its **pool** when it is created (the union of every system's top k per
query, without the query clip and optionally without clips by the query's artist), so
that runs imported later do not change what is being judged.

Work is handed out in **assignments**: one row per (query, slot) where a query has as
many slots as the campaign's redundancy (``assessors_per_query``). An assessor takes a
free slot with a conditional ``UPDATE … WHERE assessor IS NULL`` and the database
refuses a second slot of the same query to the same assessor, so no query is ever
judged more often than configured, even when assessors ask at the same instant.

A **low-cost** campaign (``mode="lowcost"``, thesis ch. 7–8) hands out single
(query, candidate) pairs instead: one assignment per pool entry (``pool_entry`` set),
claimed the same way, served most informative first by the weights the evaluation layer
stores on the pool entries (``weight``, ``priority``), until the measure's ranking (or
its scores) is known with the confidence the organiser asked for.

An **expert-ranking** campaign (``mode="ranking"``, issue 32) hands out whole queries the
same way, but each assessor orders the query's candidates from most to least similar
(:class:`RankedCandidate`) instead of scoring them; from the submitted rankings the
query's **ordered groups** follow by Typke et al. (2005)'s rule or Urbano et al.
(2010)'s revision (:mod:`evaluation.core.ordered_groups.rankings`), written into the
campaign's judgment source, which holds groups (``relevance.services.rankings``).

Scores land in :class:`~catalog.models.RelevanceJudgment` rows with the
assessor set and the campaign's own :class:`~catalog.models.JudgmentSource`. How they were made (listening time,
judging time, plays) lives beside them in :class:`JudgmentActivity`, one row per
assignment and candidate: the shared judgment model stays the same for imported
judgments (which have no timings), and listening can be recorded before any score.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from catalog.models import Clip, Collection, Query, RelevanceJudgment
from common.validation import name_validator
from evaluation.core.ordered_groups.rankings import DEFAULT_ALPHA


class RelevanceCampaign(models.Model):
    """One judging effort on a collection by trained assessors (thesis §1.4).

    ``mode`` says how work is handed out: whole pooled queries, or (``lowcost``) one
    pair at a time, the most informative first, until the stopping rule of
    ``lowcost_measure``, ``lowcost_target`` and ``lowcost_stop_at`` is met (§8.3–8.4).
    """

    POOLED, LOWCOST, RANKING = "pooled", "lowcost", "ranking"
    MODES = [
        (POOLED, "Pooled: assessors judge whole queries, every candidate"),
        (LOWCOST, "Low-cost: one pair at a time, the most informative first (thesis ch. 8)"),
        (RANKING, "Expert ranking: assessors order each query's candidates; ordered groups follow"),
    ]
    GROUPING_RULES = [
        ("all", "Typke et al. 2005: a new group where a clip differs from every clip of the "
         "group above"),
        ("any", "Urbano et al. 2010, “Any”: … from at least one clip of the group above "
         "(smaller groups)"),
        ("prev", "Urbano et al. 2010, “Prev”: … from the clip just above it"),
    ]  # fmt: skip
    RELATIVE, ABSOLUTE = "relative", "absolute"
    TARGETS = [
        (RELATIVE, "the ranking of the systems (mean confidence in the ranking)"),
        (ABSOLUTE, "the systems' scores (half-width of their 95% intervals)"),
    ]

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
        settings.AUTH_USER_MODEL,
        related_name="relevance_campaigns",
        blank=True,
        db_table="judging_relevancecampaign_assessors",
    )
    mode = models.CharField(
        max_length=10,
        choices=MODES,
        default=POOLED,
        help_text="Low-cost mode judges only what the ranking needs (one assessor per pair).",
    )
    lowcost_measure = models.CharField(
        "measure",
        max_length=100,
        default="CG(scale=fine)@5",
        help_text="Low-cost mode: the measure to estimate — CG, DCG, nDCG or RBP at a cut-off "
        "up to k, on the fine or broad scale, e.g. CG(scale=fine)@5 or nDCG(scale=broad)@5.",
    )
    lowcost_target = models.CharField(
        "stop when sure of",
        max_length=10,
        choices=TARGETS,
        default=RELATIVE,
        help_text="Low-cost mode: what must be known when judging stops.",
    )
    lowcost_stop_at = models.FloatField(
        "stop at",
        default=0.95,
        help_text="Low-cost mode: for the ranking, the mean confidence to reach (0.5 to 1, "
        "e.g. 0.95); for the scores, the half-width of the intervals to reach (e.g. 0.05).",
    )
    headphone_check = models.BooleanField(
        default=False,
        help_text="Before their first candidate, each assessor sets the volume and takes the "
        "antiphase headphone screen (Woods et al. 2017: listening.headphones) once; below the "
        "pass mark twice, they judge no more until the organiser lets them try again.",
    )
    headphone_pass_mark = models.PositiveSmallIntegerField(
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(6)],
        help_text="Headphone screen: right answers out of 6 trials needed to pass.",
    )
    grouping_rule = models.CharField(
        "where a new group starts",
        max_length=4,
        choices=GROUPING_RULES,
        default="all",
        help_text="Expert ranking: clips are taken in the order of their median rank, and a "
        "Wilcoxon rank-sum test of the ranks the experts gave them decides where a new group "
        "starts.",
    )
    grouping_alpha = models.FloatField(
        "significance level α",
        default=DEFAULT_ALPHA,
        validators=[MinValueValidator(0.001), MaxValueValidator(0.5)],
        help_text="Expert ranking: two clips' ranks differ when the test's p-value is below "
        "this (between 0.001 and 0.5; a larger α gives more, smaller groups).",
    )
    is_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_relevancecampaign"  # the table of before issue 30
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(cutoff__gte=1), name="campaign_cutoff_from_one"),
            models.CheckConstraint(
                condition=Q(headphone_pass_mark__gte=1) & Q(headphone_pass_mark__lte=6),
                name="relevance_headphone_pass_mark_1_6",
            ),
            models.CheckConstraint(
                condition=Q(assessors_per_query__gte=1), name="campaign_redundancy_from_one"
            ),
            models.CheckConstraint(
                condition=Q(mode__in=["pooled", "lowcost", "ranking"]),
                name="campaign_mode_known_with_ranking",
            ),
            models.CheckConstraint(
                condition=Q(grouping_rule__in=["all", "any", "prev"])
                & Q(grouping_alpha__gte=0.001)
                & Q(grouping_alpha__lte=0.5),
                name="campaign_grouping_rule_and_alpha",
            ),
            models.CheckConstraint(
                condition=~Q(mode="lowcost") | Q(assessors_per_query=1),
                name="campaign_lowcost_one_assessor_per_pair_ranking",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("relevance:relevance_campaign", args=[self.pk])

    @property
    def source(self):
        """The :class:`~catalog.models.JudgmentSource` of this campaign's judgments
        (made with the campaign by :func:`relevance.services.campaigns.relevance_campaign_create`)."""
        return self.judgment_source

    @property
    def take_back_after(self) -> timedelta:
        return timedelta(minutes=self.take_back_minutes)

    @property
    def is_lowcost(self) -> bool:
        return self.mode == self.LOWCOST

    @property
    def is_ranking(self) -> bool:
        """An expert-ranking campaign: assessors order candidates; its source holds groups."""
        return self.mode == self.RANKING


class PoolEntry(models.Model):
    """A clip to be judged for a query of a campaign."""

    campaign = models.ForeignKey(RelevanceCampaign, on_delete=models.CASCADE, related_name="pool")
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="pool_entries")
    clip = models.ForeignKey(Clip, on_delete=models.CASCADE, related_name="pool_entries")
    weight = models.FloatField(
        null=True,
        blank=True,
        help_text="Low-cost mode: how much judging this pair next tells (thesis §8.3–8.4), "
        "as of the last stored estimate; empty before the first.",
    )
    priority = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Low-cost mode: 1 is judged first; empty once known or before the first "
        "estimate.",
    )

    class Meta:
        db_table = "judging_poolentry"  # the table of before issue 30
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
    pool_entry = models.ForeignKey(
        PoolEntry,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="assignments",
        help_text="Low-cost mode: the one candidate this assignment is for; empty: every "
        "candidate of the query.",
    )
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
        db_table = "judging_assignment"  # the table of before issue 30
        ordering = ["campaign", "query", "slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "query", "slot"],
                condition=Q(pool_entry__isnull=True),
                name="assignment_slot_unique",
            ),
            models.UniqueConstraint(
                fields=["campaign", "query", "assessor"],
                condition=Q(assessor__isnull=False, pool_entry__isnull=True),
                name="assignment_query_once_per_assessor",
            ),
            models.UniqueConstraint(
                fields=["campaign", "pool_entry", "slot"],
                condition=Q(pool_entry__isnull=False),
                name="assignment_pair_slot_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} {self.query} slot {self.slot}"

    def get_absolute_url(self) -> str:
        return reverse("relevance:assignment", args=[self.pk])

    @property
    def is_done(self) -> bool:
        return self.completed_at is not None

    @property
    def is_pair(self) -> bool:
        """A low-cost assignment: one candidate of the query, not all of them."""
        return self.pool_entry_id is not None

    def candidates(self):
        """The pool entries this assignment judges: its one pair, or the query's pool."""
        pool = PoolEntry.objects.filter(campaign_id=self.campaign_id, query_id=self.query_id)
        return pool.filter(pk=self.pool_entry_id) if self.is_pair else pool

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
    or late request changes nothing. The judging page reports listening time and plays;
    they are kept at most what the server observed (issue 29:
    :func:`listening.services.audio_served.listening_claim_bounded`), and ``timing_impossible``
    says the page once reported more.
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
    timing_impossible = models.BooleanField(
        default=False,
        help_text="The page reported more listening time or plays than the server observed "
        "since the clip first reached the assessor; the figures kept are bounded by it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_judgmentactivity"  # the table of before issue 30
        ordering = ["assignment", "pool_entry"]
        verbose_name_plural = "judgment activity"
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "pool_entry"], name="activity_once_per_candidate"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment} {self.pool_entry.clip}"


class RankedCandidate(models.Model):
    """One candidate's place in an assessor's ranking of a query (expert-ranking mode).

    ``position`` is the order the assessor is working on, saved as they move clips (so a
    reload loses nothing); ``submitted_position`` the order they last submitted, which is
    what the groups are computed from. Places are strict (1, 2, …, n without ties): the
    experts of Typke et al. (2005) each put the candidates in one order.
    """

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="ranked")
    pool_entry = models.ForeignKey(PoolEntry, on_delete=models.CASCADE, related_name="ranked")
    position = models.PositiveSmallIntegerField(help_text="1 = most similar, as being worked on.")
    submitted_position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = most similar, as last submitted; empty before."
    )

    class Meta:
        ordering = ["assignment", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "pool_entry"], name="ranked_candidate_once_per_ranking"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1)
                & (Q(submitted_position__gte=1) | Q(submitted_position__isnull=True)),
                name="ranked_candidate_places_from_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment} {self.position}: {self.pool_entry.clip}"
