"""Trap pairs: pairs of a sort's own candidates whose order an official ground truth knows.

A worker's trust comes from trap questions (thesis §3.2.2, :mod:`crowd.services.trust`);
in a pairs campaign they are pairs of the **same queries and candidates** as the work,
made and stored like any work pair (:mod:`pairwise.services.examples`: same source,
stored sides drawn the same way, shown in each worker's own random order, served by the
same statement), so nothing on the page or in the serving tells them apart. A pair is a
trap when the collection's official ground truth says clearly which clip is more similar
(a pair the sort asks may be one):

- **relevance judgments**: the clips' judged levels (Fine / 100, else Broad / 2:
  :func:`crowd.selectors.judged_levels.official_levels`) differ by at least :data:`TRAP_GAP`. One clip's judgment is
  noisier than a list's mean, so the gap is wider than the 0.40 lead two lists need
  (:data:`evaluation.core.clear_cut.CLEAR_LEAD`): 60 Fine points, and on the Broad scale
  only *Very similar* against *Not similar* (*Somewhat* is 0.5 from either);
- **official ordered groups**: the clips are :data:`TRAP_GROUPS_APART` or more groups apart
  (next groups were told apart by a margin of votes or a rank-sum test, which a single
  worker may well miss).

The accepted answer is the more similar clip's side as stored; the explanation names no
side (:mod:`crowd.explanations`), so it is right whichever way a worker saw the clips.
"""

from __future__ import annotations

import random
from collections import defaultdict

from catalog.models import JudgmentSource, OrderedGroupEntry
from crowd.models import A_BETTER, B_BETTER, TrapQuestion
from crowd.selectors.judged_levels import official_levels
from crowd.services.traps import trap_question_mark
from pairwise.models import PairwiseStudy
from pairwise.services.examples import pair_example_ensure, pair_signature

TRAP_GAP = 0.6
"""Judged levels (0–1) at least this far apart make a trap pair."""

TRAP_GROUPS_APART = 2
"""Official ordered groups at least this far apart make a trap pair."""

TRAP_EXPLANATION = "One of the two clips sounds far more like the query than the other."


def known_orders(*, study: PairwiseStudy) -> dict[int, list[tuple[int, int]]]:
    """Each query's pairs (more similar clip, less similar clip) that the official ground
    truth orders clearly (see the module), among the sort's candidates."""
    collection_id = study.campaign.collection_id
    levels = official_levels(collection_id=collection_id)
    groups: dict[int, dict[int, int]] = defaultdict(dict)
    entries = OrderedGroupEntry.objects.filter(
        source__collection_id=collection_id, source__status=JudgmentSource.OFFICIAL
    ).order_by()
    for query_id, clip_id, group in entries.values_list("query_id", "clip_id", "group"):
        groups[query_id][clip_id] = group
    found: dict[int, list[tuple[int, int]]] = {}
    for query_id, candidates in study.sorts.values_list("query_id", "candidates"):
        clips = sorted(int(c) for c in candidates)
        judged, grouped = levels.get(query_id, {}), groups.get(query_id, {})
        pairs = set()
        for x in clips:
            for y in clips:
                clear_level = x in judged and y in judged and judged[x] - judged[y] >= TRAP_GAP
                clear_group = (
                    x in grouped and y in grouped and grouped[y] - grouped[x] >= TRAP_GROUPS_APART
                )
                if clear_level or clear_group:
                    pairs.add((x, y))
        if pairs:
            found[query_id] = sorted(pairs)
    return found


def trap_pairs_add(
    *, study: PairwiseStudy, count: int, pool: str = TrapQuestion.WORK, rng: random.Random
) -> int:
    """Make up to ``count`` new trap pairs in ``pool`` (work or quiz), the queries taken in
    turn in a random order so that the traps spread over them like the work. A work pair
    of the sort that nobody was shown yet may become a trap pair of the work pool (its
    answers then measure trust, and a trusted worker's are still votes:
    :mod:`pairwise.selectors`); any other pair the campaign has is left alone. How many
    were made."""
    campaign = study.campaign
    tag = "quiz" if pool == TrapQuestion.QUIZ else ""
    unshown = campaign.examples.filter(trap__isnull=True, tasks__isnull=True)
    reusable = set() if tag else set(unshown.values_list("signature", flat=True))
    taken = set(campaign.examples.values_list("signature", flat=True)) - reusable
    by_query = {
        query_id: [p for p in pairs if pair_signature(query_id, *p, tag) not in taken]
        for query_id, pairs in known_orders(study=study).items()
    }
    for pairs in by_query.values():
        rng.shuffle(pairs)
    queries = sorted(q for q, pairs in by_query.items() if pairs)
    rng.shuffle(queries)
    made = 0
    while made < count and queries:
        for query_id in list(queries):
            if made >= count:
                break
            if not by_query[query_id]:
                queries.remove(query_id)
                continue
            better, worse = by_query[query_id].pop()
            example, created = pair_example_ensure(
                campaign=campaign, query_id=query_id, first=better, second=worse,
                seed=study.seed, tag=tag,
            )  # fmt: skip
            if not created and example.signature not in reusable:
                continue
            stored_a = example.items.get(side="a").clip_id
            trap_question_mark(
                example=example, accepted_answers=[A_BETTER if stored_a == better else B_BETTER],
                explanation=TRAP_EXPLANATION, pool=pool,
            )  # fmt: skip
            made += 1
    return made
