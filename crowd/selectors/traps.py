"""What an organiser weighs before making an example a trap question (issue 25, item 4):
the lists' judgments and λ, and how the workers who answered it would fare."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from catalog.selectors.query_lists import official_judgment_means
from crowd.models import CHOICE_LABELS, Answer, Example
from evaluation.core.example_generator import list_score

__all__ = ["TrapEvidence", "trap_evidence"]


@dataclass(frozen=True)
class ListedClip:
    side: str
    rank: int
    clip: object
    fine: float | None
    broad: float | None


@dataclass(frozen=True)
class TrapEvidence:
    measure: str
    items: list[ListedClip]
    lambdas: dict[str, float | None]
    """λ of each stored list (``a``, ``b``) by ``measure`` on the official judgments
    (thesis §3.2.1); ``None`` when a clip of it has no judgment on the measure's scale."""
    outcomes: Counter = field(default_factory=Counter)
    """The answers workers gave, as stored (the example's own lists a and b)."""
    scale: str = "fine"
    """The scale λ is on: ``fine``, or ``broad`` when a clip has no Fine score."""

    def missed_by(self, accepted) -> int:
        """How many of the answers would miss the trap with ``accepted`` answers."""
        return sum(n for outcome, n in self.outcomes.items() if outcome not in set(accepted))

    @property
    def answers(self) -> list[tuple[str, int]]:
        return [(CHOICE_LABELS.get(o, o), n) for o, n in self.outcomes.most_common()]


def trap_evidence(*, example: Example, list_length: int) -> TrapEvidence:
    """The example's clips with the official judgments of each for its query (mean Fine
    and Broad over assessors), each list's λ, and the answers it got."""
    items = list(example.items.select_related("clip").order_by("side", "rank"))
    judged = official_judgment_means(query_id=example.query_id, clip_ids=[i.clip_id for i in items])
    listed = [
        ListedClip(i.side, i.rank, i.clip, judged.get(i.clip_id, {}).get("fine"),
                   judged.get(i.clip_id, {}).get("broad"))
        for i in items
    ]  # fmt: skip
    # The Fine scale where every clip has a Fine score, else the Broad levels (TREC qrels
    # judge on the Broad scale alone: issue 31): CG_l@k of eq. (3.3) on either scale.
    scale = "fine" if all(c.fine is not None for c in listed) else "broad"
    measure = f"CG(scale={scale})@{list_length}"
    lambdas = {}
    for side in ("a", "b"):
        gains = [getattr(c, scale) for c in listed if c.side == side]
        complete = gains and all(g is not None for g in gains) and len(gains) == list_length
        lambdas[side] = (
            float(list_score(measure, np.array([gains]), scale=scale)[0]) if complete else None
        )
    outcomes = Counter(
        Answer.objects.filter(task__example=example).values_list("outcome", flat=True)
    )
    return TrapEvidence(measure, listed, lambdas, outcomes, scale)
