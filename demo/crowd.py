"""The demo's crowd study, written by :func:`demo.seed.demo_seed`.

Every pair of systems on every query, plus the thesis' generated examples (§3.2.1);
clear-cut ones among them, drawn at random in proportion to each source (issue 29),
become the work pool's trap questions (§3.2.2); each worker's quiz question is made for
them from the judgments; the campaign keeps the default listening check.
"""

from __future__ import annotations

import random

from catalog.models import Collection
from crowd.services.campaigns import preference_campaign_create
from crowd.services.examples import examples_generate
from crowd.services.traps import trap_pools_fill
from demo.plan import DEFAULT_SEED

PREFERENCE_CAMPAIGN_NAME = "Demo preference study"


def seed_preference_campaign(collection: Collection, *, measure: str) -> int:
    """The crowd study of ``collection`` if missing; 1 if it is new.

    The generator adds lists built from the judgments so that every Δ``measure`` bin
    has examples. A worker's quiz is 1 question, made for them from the judgments
    (nobody else is shown it); the work pool gets what a trap rate of 0.06 needs with
    the demo's 73 ordinary examples (``campaign_pool_needs``: 5), drawn with the demo's
    seed so that every demo is the same: all 4 clear-cut examples of the systems' 60 and 1
    of the generator's 18, as many as keeps either source from holding trap questions
    more often than the other (``traps.SOURCE_LIFT_MAX``). The campaign keeps the default listening check (the
    query and one clip of each list heard, 5 s on each task) and flags answers faster
    than 10 s.
    """
    if collection.preference_campaigns.filter(name=PREFERENCE_CAMPAIGN_NAME).exists():
        return 0
    campaign = preference_campaign_create(
        collection=collection,
        name=PREFERENCE_CAMPAIGN_NAME,
        quiz_length=1,
        trap_rate=0.06,
        max_answers_per_worker=12,
    )
    examples_generate(campaign=campaign, measures=[measure], per_bin=3, seed=DEFAULT_SEED)
    trap_pools_fill(campaign=campaign, rng=random.Random(DEFAULT_SEED))
    return 1
