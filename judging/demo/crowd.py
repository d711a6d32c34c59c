"""The demo's crowd study, written by :func:`judging.demo.seed.demo_seed`.

Every pair of systems on every query, plus the thesis' generated examples (§3.2.1);
the clear-cut ones among them become trap questions in a quiz pool and a work pool
(§3.2.2), and the campaign keeps the default listening check.
"""

from __future__ import annotations

from judging.demo.plan import DEFAULT_SEED
from judging.models import Collection, TrapQuestion
from judging.services.crowd.campaigns import preference_campaign_create
from judging.services.crowd.examples import examples_generate
from judging.services.crowd.traps import trap_questions_from_judgments

PREFERENCE_CAMPAIGN_NAME = "Demo preference study"
DEMO_QUIZ_POOL = 4
"""Trap questions of the crowd study's quiz pool: its quiz is 1 question, and no worker
sees more than a quarter of the pool (``selectors.crowd_integrity.QUIZ_MAX_SHARE``)."""
DEMO_WORK_POOL = 8
"""Trap questions asked for the work pool (as many as the judgments make clear-cut)."""


def seed_preference_campaign(collection: Collection, *, measure: str) -> int:
    """The crowd study of ``collection`` if missing; 1 if it is new.

    The generator adds lists built from the judgments so that every Δ``measure`` bin
    has examples; the clear-cut ones among them become trap questions: 4 in the quiz
    pool (the first answer of a worker is a quiz, with feedback) and the rest (6 with
    the default seed) in the work pool, mixed in and never revealed. The trap rate, 0.08,
    is what 6 work traps allow with the seed's 68 ordinary examples (issue 22: each
    trap question shown to no more workers than an ordinary example needs
    ceil(68 × 0.08 / 0.92) = 6, ``campaign_pool_needs``). The campaign
    keeps the default listening check (the query and one clip of each list heard, 5 s
    on each task) and flags answers faster than 10 s.
    """
    if collection.preference_campaigns.filter(name=PREFERENCE_CAMPAIGN_NAME).exists():
        return 0
    campaign = preference_campaign_create(
        collection=collection,
        name=PREFERENCE_CAMPAIGN_NAME,
        quiz_length=1,
        trap_rate=0.08,
        max_answers_per_worker=12,
    )
    examples_generate(campaign=campaign, measures=[measure], per_bin=3, seed=DEFAULT_SEED)
    trap_questions_from_judgments(campaign=campaign, count=DEMO_QUIZ_POOL, pool=TrapQuestion.QUIZ)
    trap_questions_from_judgments(campaign=campaign, count=DEMO_WORK_POOL, pool=TrapQuestion.WORK)
    return 1
