"""Which of a campaign's examples the official judgments make clear-cut, the trap questions
:func:`~crowd.services.traps.trap_questions_from_judgments` draws from — and, of the
others, why not (issue 31 item 3: the fill said "every clip judged" of a collection whose
every clip was judged, on the Broad scale alone).

The rule is :mod:`evaluation.core.clear_cut`'s, on each clip's level
(:mod:`crowd.selectors.judged_levels`): Fine / 100, else Broad / 2.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from catalog.selectors import collection_judged_scales
from crowd.models import (
    A_BETTER,
    B_BETTER,
    BOTH_BAD,
    BOTH_GOOD,
    Example,
    PreferenceCampaign,
    TrapQuestion,
)
from crowd.selectors.judged_levels import judged_scale_words, official_levels
from evaluation.core.clear_cut import clear_cut_answer, list_level

__all__ = ["BROAD_EXPLANATIONS", "EXPLANATIONS", "ClearCut", "clear_cut_candidates"]

_ONE_BETTER = "The clips of one list are far more similar to the query "
EXPLANATIONS = {
    A_BETTER: _ONE_BETTER + "(judged {better:.0f} against {worse:.0f} of 100).",
    B_BETTER: _ONE_BETTER + "(judged {better:.0f} against {worse:.0f} of 100).",
    BOTH_GOOD: "Both lists sound very similar to the query "
    "(judged {worse:.0f} and {better:.0f} of 100).",
    BOTH_BAD: "Neither list sounds similar to the query "
    "(judged {worse:.0f} and {better:.0f} of 100).",
}
"""What the organiser reads (and a worker, after missing a quiz question) about a trap
question made from Fine judgments: the lists' mean judged similarity of 100 (where a
clip has only a Broad level, Not / Somewhat / Very similar read as 0 / 50 / 100), the
lower first when no list is better: no side is named, nor the stored order."""

_BROAD_LEVELS = "0 is Not similar, 1 Somewhat similar and 2 Very similar"
BROAD_EXPLANATIONS = {
    A_BETTER: _ONE_BETTER
    + f"(judged {{better:.1f}} against {{worse:.1f}} on average, where {_BROAD_LEVELS}).",
    B_BETTER: _ONE_BETTER
    + f"(judged {{better:.1f}} against {{worse:.1f}} on average, where {_BROAD_LEVELS}).",
    BOTH_GOOD: "Both lists sound very similar to the query "
    f"(judged {{worse:.1f}} and {{better:.1f}} on average, where {_BROAD_LEVELS}).",
    BOTH_BAD: "Neither list sounds similar to the query "
    f"(judged {{worse:.1f}} and {{better:.1f}} on average, where {_BROAD_LEVELS}).",
}
"""The same for a collection judged on the Broad scale alone (TREC qrels): the lists'
mean Broad level, 0–2 (issue 31 item 3)."""


@dataclass(frozen=True)
class ClearCut:
    """The campaign's examples that could become trap questions of a pool, sorted by what
    the official judgments say of them (:func:`clear_cut_candidates`)."""

    candidates: list
    """``(example, answer, explanation)`` of each clear-cut example."""
    sizes: dict[str, int]
    """How many examples of work each source has (what the draw follows)."""
    unjudged: list
    """``(example, side, clip external ids)`` of each example with a clip that has no
    official judgment for its query, the first such list."""
    unclear: int
    """Examples whose every clip is judged but which are not clear-cut."""
    scales: tuple[str, ...]
    """The scales of the collection's official judgments, Fine first."""

    @property
    def scale_said(self) -> str:
        """Which judgments made the levels, in the campaign page's words."""
        return judged_scale_words(self.scales)


def clear_cut_candidates(*, campaign: PreferenceCampaign, pool: str) -> ClearCut:
    """The campaign's examples that could become trap questions of ``pool`` and, of the
    others, why not (what :func:`trap_questions_from_judgments` draws from)."""
    levels = official_levels(collection_id=campaign.collection_id)
    scales = collection_judged_scales(collection=campaign.collection)
    texts = BROAD_EXPLANATIONS if scales == ("broad",) else EXPLANATIONS
    examples = (
        campaign.examples.filter(trap__isnull=True)
        .exclude(source=Example.SOURCE_QUIZ)
        .select_related("query__clip")
        .prefetch_related("items__clip")
        .order_by("pk")
    )
    if pool == TrapQuestion.PRACTICE:
        examples = examples.filter(tasks__isnull=True)
    candidates, unjudged, unclear = [], [], 0
    sizes: dict[str, int] = defaultdict(int)
    for example in examples:
        sizes[example.source] += 1
        judged = levels.get(example.query_id, {})
        items = example.items.all()
        sides = [
            list_level([judged.get(i.clip_id) for i in items if i.side == side]) for side in "ab"
        ]
        if None in sides:
            side = "ab"[sides.index(None)]
            missing = [
                i.clip.external_id for i in items if i.side == side and i.clip_id not in judged
            ]
            unjudged.append((example, side, missing))
            continue
        a, b = sides
        kind = clear_cut_answer(a, b)
        if kind is None:
            unclear += 1
            continue
        scale = 2 if texts is BROAD_EXPLANATIONS else 100
        scores = {"better": scale * max(a, b), "worse": scale * min(a, b)}
        candidates.append((example, kind, texts[kind].format(**scores)))
    return ClearCut(
        candidates=candidates, sizes=sizes, unjudged=unjudged, unclear=unclear, scales=scales
    )
