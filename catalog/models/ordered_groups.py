"""A ground truth of ordered groups: for each query, its candidates in groups, group 1 the
most similar, the order of the groups known and the order inside a group not (Typke,
Veltkamp and Wiering 2006, §3; thesis §2.5, ADR, eq. 2.17).

A ground truth is held by a :class:`~catalog.models.sources.JudgmentSource` of kind
``groups`` (a groups file) or ``pairwise`` (a past pairwise preference study), so the one
rule of sources holds for it too: an **official** source's groups count in results (ADR on
the leaderboards), a **pilot**'s are kept and shown but left out. It lives in catalog beside
:class:`~catalog.models.collection.RelevanceJudgment` because it is a judgment of the
collection's clips, made outside Earshot or imported, and every app reads judgments here.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from catalog.models.collection import Clip, Query


class OrderedGroupEntry(models.Model):
    """One clip of a query's ordered groups in one source: ``group`` 1 is the most similar."""

    source = models.ForeignKey(
        "catalog.JudgmentSource", on_delete=models.CASCADE, related_name="group_entries"
    )
    query = models.ForeignKey(Query, on_delete=models.CASCADE, related_name="group_entries")
    clip = models.ForeignKey(Clip, on_delete=models.CASCADE, related_name="group_entries")
    group = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["source", "query", "group", "clip"]
        verbose_name = "clip in ordered groups"
        verbose_name_plural = "clips in ordered groups"
        constraints = [
            models.UniqueConstraint(
                fields=["source", "query", "clip"], name="ordered_group_clip_once_per_query"
            ),
            models.CheckConstraint(condition=Q(group__gte=1), name="ordered_group_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.query} ~ {self.clip}: group {self.group}"
