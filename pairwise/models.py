"""A pairs campaign's sort (issue 32, item 3): ordered groups from crowd preferences.

A :class:`PairwiseStudy` is the part of a crowd preference campaign of kind *pairs*
(:attr:`crowd.models.PreferenceCampaign.PAIRS`) that only this app knows: the margin of
the three-way QuickSort, the judgment source its groups go to, and the seed of its
pivots. Each of its queries has a :class:`PairwiseSort`: the candidates and where the
sort stands (:class:`evaluation.core.ordered_groups.quicksort.SortState`, kept as plain
JSON data by :mod:`pairwise.sort_state`). The examples, tasks, answers, workers and
trap questions are the campaign's own crowd rows; the answers per pair are the
campaign's redundancy (``answers_per_example``).
"""

from __future__ import annotations

import secrets

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from catalog.models import JudgmentSource, Query
from crowd.models import PreferenceCampaign
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN

MAX_CANDIDATES = 100
"""Candidates per query at most: a round asks up to this many pairs less one, and a sort
of n candidates about n·log₂ n pairs in all (100: about 700 pairs, 7,000 answers at 10
per pair)."""


def _seed() -> int:
    return secrets.randbelow(2**31)


class PairwiseStudy(models.Model):
    """The sort of a pairs campaign: its margin, seed and the source its groups go to."""

    campaign = models.OneToOneField(
        PreferenceCampaign, on_delete=models.CASCADE, primary_key=True, related_name="pairwise"
    )
    margin = models.PositiveSmallIntegerField(
        default=DEFAULT_MARGIN,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text="A candidate goes above (below) the pivot when the answers preferring it "
        "outnumber those preferring the pivot (or the other way round) by at least this.",
    )
    source = models.ForeignKey(
        JudgmentSource, null=True, on_delete=models.SET_NULL, related_name="+",
        help_text="Where each query's groups are written once its sort is done.",
    )  # fmt: skip
    seed = models.BigIntegerField(default=_seed, help_text="Draws the pivots, reproducibly.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(margin__gte=1), name="pairwise_margin_positive"),
        ]

    def __str__(self) -> str:
        return f"sort of {self.campaign}"


class PairwiseSort(models.Model):
    """One query's sort: its candidates (clip ids) and the state of its QuickSort."""

    study = models.ForeignKey(PairwiseStudy, on_delete=models.CASCADE, related_name="sorts")
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="+")
    candidates = models.JSONField(help_text="The clip ids sorted, as strings.")
    state = models.JSONField(help_text="pairwise.sort_state: the parts, rounds done, seed.")
    done = models.BooleanField(default=False)
    written = models.BooleanField(default=False, help_text="Its groups are in the study's source.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["study", "query"]
        constraints = [
            models.UniqueConstraint(fields=["study", "query"], name="pairwise_sort_once"),
        ]

    def __str__(self) -> str:
        return f"sort of {self.query} in {self.study.campaign}"
