"""Evaluation results and background-work bookkeeping.

Results are stored as JSON payloads, one row per (target, measure): a recompute
overwrites its row (``update_or_create``) instead of appending, so reading a page is
one indexed lookup and never a computation. Which recomputes run, and how far they
are, lives in :class:`Recompute` (one row per target; see :mod:`evaluation.services.recompute`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from catalog.published import Collection
from crowd.published import PreferenceCampaign
from relevance.published import RelevanceCampaign
from work.models import Work
from work.models.work import state_field

DEFAULT_TEST = "bootstrap"
"""The default significance test: thesis §5.7 and §9.1.2 suggest the bootstrap test
(the most powerful, with fewer Type I errors than expected on AMS data)."""


class WorkerHeartbeat(models.Model):
    """The last time each Celery worker answered a heartbeat task: proof the pipeline runs."""

    hostname = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()
    nonce = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"{self.hostname} at {self.seen_at:%Y-%m-%d %H:%M:%S}"


class ResultsConfig(models.Model):
    """How a collection's results are computed: which measures, which test, how many resamples.

    A collection without a row uses the defaults (:meth:`for_collection`).
    """

    TESTS = [
        ("bootstrap", "bootstrap (shift method)"),
        ("permutation", "permutation (sign flips)"),
        ("t", "paired t-test"),
        ("wilcoxon", "Wilcoxon signed-rank"),
        ("sign", "sign test"),
    ]
    ADJUSTMENTS = [("holm", "Holm"), ("bonferroni", "Bonferroni"), ("none", "none")]

    collection = models.OneToOneField(
        Collection, on_delete=models.CASCADE, related_name="results_config"
    )
    measures = models.JSONField(
        default=list, blank=True, help_text="Measure names; empty means the default measures."
    )
    test = models.CharField(max_length=20, choices=TESTS, default=DEFAULT_TEST)
    adjustment = models.CharField(max_length=20, choices=ADJUSTMENTS, default="holm")
    resamples = models.PositiveIntegerField(default=10_000)
    seed = models.PositiveIntegerField(default=20130701)
    alpha = models.FloatField(default=0.05)
    reliability_target = models.FloatField(default=0.95)
    judged_only = models.BooleanField(
        default=False,
        help_text="Score each list with its unjudged clips left out (trec_eval -J), "
        "instead of counting them as not similar.",
    )

    def __str__(self) -> str:
        return f"results of {self.collection}"

    @classmethod
    def for_collection(cls, collection: Collection) -> ResultsConfig:
        """The stored configuration, or an unsaved one holding the defaults."""
        try:
            return cls.objects.get(collection=collection)
        except cls.DoesNotExist:
            return cls(collection=collection)


class Leaderboard(models.Model):
    """Systems of a collection on one measure: means, intervals, P(Sat), pairs, groups.

    ``measure`` is the measure's canonical name, scale included (``CG(scale=fine)@5``).
    ``payload`` is the whole document the exports and the API give (see
    :func:`evaluation.services.leaderboards.leaderboard_payload`); it grows with
    systems × queries and systems², so the pages never load it. They read what
    :func:`evaluation.services.leaderboard_store.leaderboard_store` split from it when it
    was stored: ``summary`` (the payload without per-query scores and pairs: one row per
    system, the report, the test), ``significance`` (the adjusted p-value of every pair,
    a matrix in rank order), and the rows of :class:`LeaderboardSystem` and
    :class:`LeaderboardPair`.
    """

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="leaderboards"
    )
    measure = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    summary = models.JSONField(default=dict)
    significance = models.JSONField(default=dict)
    computed_at = models.DateTimeField()
    table = models.TextField(
        blank=True, default="",
        help_text="The leaderboard page's table of systems, made when stored "
        "(evaluation.leaderboard_table); empty for a leaderboard stored before it.",
    )  # fmt: skip
    table_key = models.CharField(
        max_length=64, blank=True, default="",
        help_text="A digest of what the table shows besides the rows: the systems' ids, the "
        "address of a system's page, computed_at.",
    )  # fmt: skip

    class Meta:
        ordering = ["collection", "measure"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "measure"], name="leaderboard_per_collection_measure"
            ),
        ]
        indexes = [
            # Covers "which leaderboards, computed when" (status polls, the overview, a
            # system's page): SQLite then never walks a row, whose later columns lie
            # beyond the payload's megabytes of overflow pages.
            models.Index(fields=["collection", "measure", "computed_at"], name="leaderboard_when"),
        ]

    def __str__(self) -> str:
        return f"{self.collection} · {self.measure}"


class LeaderboardSystem(models.Model):
    """One system of a leaderboard, as its page shows it: the leaderboard's row, the
    per-query scores and P(Sat), and the distributions over queries (10 bins on [0, 1],
    thesis §3.2.1), counted when the leaderboard was stored."""

    # Looked up through the unique (leaderboard, system) index; no index of its own.
    leaderboard = models.ForeignKey(
        Leaderboard, on_delete=models.CASCADE, related_name="systems", db_index=False
    )
    system = models.CharField(max_length=200)
    rank = models.PositiveIntegerField()
    row = models.JSONField(default=dict)
    per_query = models.JSONField(default=list, help_text="[[query, score, P(Sat) or null], …]")
    distributions = models.JSONField(default=dict, help_text="{lambda: [[low, high, count], …]}")

    class Meta:
        ordering = ["leaderboard", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["leaderboard", "system"], name="leaderboard_system_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.leaderboard} · {self.system}"


class LeaderboardPair(models.Model):
    """One pair of systems of a leaderboard (``data`` is the payload's pair: Δ, interval,
    p-value, adjusted p-value, ΔP(Sat), report), numbered in the payload's order so that a
    page of pairs is one indexed range."""

    # Paged through the unique (leaderboard, position) index; no index of its own.
    leaderboard = models.ForeignKey(
        Leaderboard, on_delete=models.CASCADE, related_name="pairs", db_index=False
    )
    position = models.PositiveIntegerField()
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["leaderboard", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["leaderboard", "position"], name="leaderboard_pair_position_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.leaderboard} · {self.data.get('a')} − {self.data.get('b')}"


class ReliabilityStudy(models.Model):
    """The G-study of a collection on one measure and its D-study curves (thesis ch. 6)."""

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="reliability_studies"
    )
    measure = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["collection", "measure"]
        verbose_name_plural = "reliability studies"
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "measure"], name="reliability_per_collection_measure"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.collection} · {self.measure}"


class OptimalityStudy(models.Model):
    """A collection's split-half study of tests, measures and scales (thesis ch. 5), one row
    per collection, computed on request ("Choosing a test") by a recompute of kind
    ``optimality``. ``trials`` and ``resamples`` are what the organiser asked for;
    ``payload`` is :meth:`evaluation.core.optimality.OptimalityResult.to_dict`'s document
    (its size grows with tests, measures and levels, never with systems or queries), empty
    until the first computation."""

    collection = models.OneToOneField(
        Collection, on_delete=models.CASCADE, related_name="optimality_study"
    )
    trials = models.PositiveIntegerField(default=300)
    resamples = models.PositiveIntegerField(default=1000)
    payload = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "optimality studies"

    def __str__(self) -> str:
        return f"choosing a test for {self.collection}"


class EstimatedLeaderboard(models.Model):
    """Systems of a collection with incomplete judgments, ranked by their expected score.

    Every unjudged (query, clip) pair of the systems' top k is estimated (thesis ch. 7,
    §7.4) and the measure becomes an expectation with a variance (§8.1): E ± the 95%
    interval per system, the confidence in each pair of systems and in the ranking.
    Stored beside the ordinary :class:`Leaderboard` (which counts unjudged pairs as not
    relevant) only while the collection is incomplete; always labelled as estimates.
    ``payload`` is :func:`evaluation.services.estimates.estimate_payload`'s.
    """

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="estimated_leaderboards"
    )
    measure = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["collection", "measure"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "measure"], name="estimated_leaderboard_per_measure"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.collection} · {self.measure} (estimated)"


class CampaignEstimate(models.Model):
    """A low-cost relevance campaign's live estimates (thesis ch. 7–8), one row per campaign.

    Recomputed in the background (recompute kind ``lowcost``, coalesced) whenever the
    collection's judgments change: the estimated leaderboard of the campaign's measure,
    the confidence per pair of systems and in the ranking, and the state of its stopping
    rule. The judging order goes to the pool entries (``weight``, ``priority``).
    ``judged`` counts the pool's pairs the estimates knew as judged.
    """

    campaign = models.OneToOneField(
        RelevanceCampaign, on_delete=models.CASCADE, related_name="estimate"
    )
    payload = models.JSONField(default=dict)
    judged = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"estimates of {self.campaign}"


DEFAULT_MAPPING_MEASURE = "CG(scale=fine)@5"
"""The measure a campaign's mapping uses when nothing else says which (thesis ch. 3–4:
CG_l@5 on the Fine scale is among the least biased, Table 3.2)."""


class MappingConfig(models.Model):
    """Which measures a preference campaign's satisfaction mapping is computed for, and
    whether from every accepted answer or only those whose every clip was heard.

    A campaign without a row (or with an empty list) uses the measures its examples
    were generated for (the keys of ``Example.scores``), else
    :data:`DEFAULT_MAPPING_MEASURE` on the scale the collection is judged on
    (:func:`evaluation.services.mappings.campaign_measure_choice`).
    """

    campaign = models.OneToOneField(
        PreferenceCampaign, on_delete=models.CASCADE, related_name="mapping_config"
    )
    measures = models.JSONField(
        default=list, blank=True, help_text="Measure names; empty means the default measures."
    )
    full_listening_only = models.BooleanField(
        default=False,
        help_text="Use only the accepted answers whose every clip was heard "
        "(crowd.selectors.listening.answers_fully_heard).",
    )

    def __str__(self) -> str:
        return f"mapping configuration of {self.campaign}"

    @classmethod
    def for_campaign(cls, campaign: PreferenceCampaign) -> MappingConfig:
        """The stored configuration, or an unsaved one holding the defaults."""
        try:
            return cls.objects.get(campaign=campaign)
        except cls.DoesNotExist:
            return cls(campaign=campaign)


class SatisfactionMapping(models.Model):
    """A campaign's measured P(Sat|λ) and P(Agr|Δλ) for one measure (thesis §3.3, §4.1.2).

    ``measure`` is the canonical name, scale included (``CG(scale=fine)@5``), as the
    leaderboards name it. ``payload`` holds the bins, the cubic fit and the bias
    measures (see :mod:`evaluation.services.mappings`).
    """

    campaign = models.ForeignKey(
        PreferenceCampaign, on_delete=models.CASCADE, related_name="satisfaction_mappings"
    )
    measure = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["campaign", "measure"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "measure"], name="mapping_per_campaign_measure"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} · {self.measure}"


STATUS_WORDS = {Work.QUEUED: "pending"}
"""The recompute status document's ``status`` in the words it had before issue 30 (a
queued row was ``pending``), for the pages and API clients that read it; ``state`` is
the row's own."""


class Recompute(Work):
    """The one row per target that coalesces recompute requests (thesis-free plumbing).

    ``kind`` names what is recomputed (``collection``: leaderboards and reliability;
    ``campaign``: a preference campaign's satisfaction mapping, then its collection's
    leaderboards; ``lowcost``: a low-cost relevance campaign's estimates and judging
    order) and ``target_id`` its primary key. A request sets ``dirty`` and moves
    an idle row to ``queued`` (enqueueing one task on commit); a task claims a queued
    row by a conditional ``update()``, and finishes only if nothing made it dirty
    meanwhile — otherwise it runs again. See :mod:`evaluation.services.recompute`; the
    transitions are those of the one state machine of background work (:mod:`work.state`),
    and the fields every piece of background work has (state, runs, task, start, progress
    ``done`` of ``total``, message, error with file and line, queue, end) come from
    :class:`work.models.Work`. ``computations`` counts the computations started (a claim
    may compute more than once when new data arrives meanwhile); ``runs`` the claims.
    """

    IDLE = "idle"
    STATES = [(s, s) for s in (IDLE, Work.QUEUED, Work.RUNNING, Work.DONE, Work.FAILED)]
    KINDS = [
        ("collection", "collection"),
        ("campaign", "campaign"),
        ("lowcost", "low-cost relevance campaign"),
        ("optimality", "choosing a test (split-half study)"),
    ]

    kind = models.CharField(max_length=20, choices=KINDS)
    target_id = models.PositiveBigIntegerField()
    state = state_field(IDLE, default=IDLE)
    dirty = models.BooleanField(default=False)
    requests = models.PositiveIntegerField(default=0, help_text="requests received")
    computations = models.PositiveIntegerField(default=0, help_text="computations started")
    requested_at = models.DateTimeField(null=True, blank=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life of the computation while running."
    )
    claimed_by = models.CharField(max_length=255, blank=True, help_text="The worker running it.")

    class Meta:
        ordering = ["kind", "target_id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "target_id"], name="recompute_per_target"),
            models.CheckConstraint(
                condition=Q(total__isnull=True) | Q(done__lte=F("total")),
                name="recompute_done_le_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.target_id}: {self.state}"

    @property
    def fraction(self) -> float:
        """Progress in [0, 1] (1 once done, 0 while nothing was reported)."""
        return super().fraction or 0.0

    def to_dict(self) -> dict:
        return {
            **self.work_status(),  # active, fraction, message, error (file, line), queue, end
            "state": self.state,
            "status": STATUS_WORDS.get(self.state, self.state),  # the key of before issue 30
            "dirty": self.dirty,
            "progress": round(self.done / self.total, 4) if self.total else 0.0,
            "runs": self.computations,  # computations started, as the key said before
            "computations": self.computations,
            "requested_at": self.requested_at.isoformat() if self.requested_at else None,
        }
