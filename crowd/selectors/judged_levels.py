"""How similar each clip was judged to a query, in [0, 1], from the official judgments: what
trap and quiz questions are made of (:mod:`evaluation.core.clear_cut`).

A clip's level is the mean of its official judgments' levels, each Fine / 100 where the
judgment has a Fine score and Broad / 2 where it has only Broad (issue 31 item 3: a
collection judged on the Broad scale alone, as TREC qrels are, makes trap questions too;
a list's level is then its CG_l@k on its scale, thesis §3.1.1 eq. (3.3)). A pilot
source, left out of results, is left out here too.
"""

from __future__ import annotations

from collections import defaultdict

from catalog.models import JudgmentSource, Query, RelevanceJudgment
from crowd.models import PreferenceCampaign
from evaluation.core.clear_cut import clear_cut_kinds, judged_level

__all__ = ["judged_scale_words", "official_levels", "query_levels", "quiz_makeable"]

SCALE_WORDS = {
    ("fine",): "the Fine scores, 0 to 100",
    ("broad",): "the Broad levels, as no clip has a Fine score: Not similar, Somewhat "
    "similar and Very similar count as 0, 1 and 2",
    ("fine", "broad"): "the Fine scores, 0 to 100, and the Broad levels where a clip has "
    "no Fine score: Not similar, Somewhat similar and Very similar count as 0, 50 and 100",
    (): "the official judgments, of which there are none yet",
}
"""Which judgments make a clip's level (:func:`~evaluation.core.clear_cut.judged_level`),
by the scales of a collection's official judgments."""


def judged_scale_words(scales: tuple[str, ...]) -> str:
    """Which judgments make the levels, for a collection judged on ``scales``
    (:func:`catalog.selectors.collection_judged_scales`), in the campaign page's words."""
    return SCALE_WORDS[tuple(scales)]


def official_levels(
    *, collection_id: int, query_id: int | None = None
) -> dict[int, dict[int, float]]:
    """``{query id: {clip id: level}}`` of the collection's officially judged pairs (of one
    query when ``query_id`` is given), in one statement."""
    judgments = RelevanceJudgment.objects.filter(
        query__collection=collection_id, source__status=JudgmentSource.OFFICIAL
    ).order_by()
    if query_id is not None:
        judgments = judgments.filter(query_id=query_id)
    sums: dict[tuple[int, int], list[float]] = defaultdict(list)
    for query, clip, fine, broad in judgments.values_list("query_id", "clip_id", "fine", "broad"):
        level = judged_level(fine, broad)
        if level is not None:
            sums[(query, clip)].append(level)
    levels: dict[int, dict[int, float]] = defaultdict(dict)
    for (query, clip), values in sums.items():
        levels[query][clip] = sum(values) / len(values)
    return dict(levels)


def query_levels(*, campaign: PreferenceCampaign) -> dict[int, dict[int, float]]:
    """Each query's officially judged clips and their levels, the query's own clip left
    out (what a quiz question's lists may hold)."""
    levels = official_levels(collection_id=campaign.collection_id)
    own = dict(Query.objects.filter(pk__in=list(levels)).values_list("pk", "clip_id"))
    return {q: {c: v for c, v in clips.items() if c != own.get(q)} for q, clips in levels.items()}


def quiz_makeable(*, campaign: PreferenceCampaign) -> bool:
    """Can quiz questions be made from the campaign's official judgments: a query with
    enough clearly similar or clearly dissimilar clips for two lists of ``list_length``
    (:func:`evaluation.core.clear_cut.clear_cut_kinds`)? Two statements."""
    if campaign.is_pairs:
        return False  # its quiz is the quiz pool of trap pairs (pairwise.services.traps)
    k = campaign.list_length
    return any(clear_cut_kinds(clips, k=k) for clips in query_levels(campaign=campaign).values())
