"""Quiz questions nobody else was shown: made for one worker from the official judgments.

The quiz (thesis §3.2.2, CrowdFlower's quiz mode) teaches the task: after each question
the worker is told the expected answer. A fixed pool of quiz questions is therefore learnt
by a few throwaway identities and passed on (issue 29: an 8-question pool was learnt by
the first 20 identities, and the next 80 failed it 0 times). So every quiz question is
shown to **one worker only**: the quiz pool's questions (marked by the organiser) go to
one worker each, and when none is left a new one is made for the worker from the
official judgments (:func:`quiz_question_make`), as the §3.2.1 generator draws lists from
judged clips: a query, and two lists of clearly similar or clearly dissimilar clips
(:func:`evaluation.core.clear_cut.clear_cut_lists`) whose answer is one of the four, drawn
at random. What one identity learns from its feedback is the answer to a question no
other identity will be asked; what the questions still give away is that their clips
were judged clearly similar or clearly dissimilar to their query
(``docs/crowd-integrity.md`` counts it).

A made question is an :class:`~crowd.models.Example` of the campaign (source
``quiz``) with a quiz trap question, so its task, audio, listening rule, answer and
feedback are those of every other task; it is never served as work
(:mod:`crowd.services.tasks`) and never to a second worker.
"""

from __future__ import annotations

import random

from django.db import IntegrityError, transaction

from crowd.models import (
    A_BETTER,
    B_BETTER,
    BOTH_BAD,
    BOTH_GOOD,
    Example,
    ExampleItem,
    PreferenceCampaign,
    TrapQuestion,
)
from crowd.selectors import query_levels
from crowd.services.examples import signature_of_ids
from evaluation.core.clear_cut import clear_cut_kinds, clear_cut_lists

QUIZ_EXPLANATIONS = {
    A_BETTER: "The clips of one list sound far more like the query than the other list's.",
    B_BETTER: "The clips of one list sound far more like the query than the other list's.",
    BOTH_GOOD: "The clips of both lists sound very much like the query.",
    BOTH_BAD: "None of the clips of either list sounds like the query.",
}
"""What a worker reads after missing a made quiz question: why, without the judgments'
numbers (they would tell more about the clips than the question needs)."""

_TRIES = 20
"""Draws tried before giving up on a question the campaign does not have yet."""


def quiz_question_make(
    *, campaign: PreferenceCampaign, rng: random.Random | None = None
) -> Example | None:
    """A new quiz question of the campaign, made from the official judgments; None when
    the judgments cannot make one.

    A query among those that can, one of the answers its clips allow, then the two lists
    (:func:`~evaluation.core.clear_cut.clear_cut_lists`), all at random; a draw the
    campaign already has is drawn again.
    """
    if campaign.is_pairs:
        return None  # its quiz is the quiz pool of trap pairs (pairwise.services.traps)
    rng = rng or random.SystemRandom()
    k = campaign.list_length
    levels = query_levels(campaign=campaign)
    feasible = [(q, kinds) for q, clips in levels.items() if (kinds := clear_cut_kinds(clips, k=k))]
    for _ in range(_TRIES if feasible else 0):
        query_id, kinds = rng.choice(sorted(feasible))
        answer = rng.choice(kinds)
        list_a, list_b = clear_cut_lists(levels[query_id], k=k, answer=answer, rng=rng)
        try:
            with transaction.atomic():
                example = Example.objects.create(
                    campaign=campaign, query_id=query_id, source=Example.SOURCE_QUIZ,
                    signature=signature_of_ids(query_id, list_a, list_b),
                )  # fmt: skip
        except IntegrityError:
            continue  # the campaign has this one already: draw again
        ExampleItem.objects.bulk_create(
            ExampleItem(example=example, side=side, rank=rank, clip_id=clip)
            for side, clips in (("a", list_a), ("b", list_b))
            for rank, clip in enumerate(clips, start=1)
        )
        TrapQuestion.objects.create(
            example=example, accepted_answers=[answer], explanation=QUIZ_EXPLANATIONS[answer],
            pool=TrapQuestion.QUIZ,
        )  # fmt: skip
        return example
    return None
