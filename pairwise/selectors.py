"""Reads of a pairs campaign's sort: the votes its answers give, and how far each query is.

**Which answers are votes.** An answer counts when it counts for the crowd's results
(``accepted_at`` set: a trusted worker's, not excluded), and also a trusted worker's
answer to a trap pair of the work pool: a trap pair is a pair of the same query's
candidates (:mod:`pairwise.services.traps`), and when the sort asks for that very pair
the trap's answers are its answers (the crowd never accepts a trap question's answers
for results, so they are added here). Quiz and practice pairs never count. An answer
about the clips as stored (``outcome``) says ``a_better`` (the clip stored as a is more
similar), ``b_better``, or ``both_good`` (equally similar).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from crowd.models import A_BETTER, B_BETTER, BOTH_GOOD, Answer, ExampleItem, TrapQuestion
from evaluation.core.ordered_groups.quicksort import RoundProgress, round_progress
from evaluation.core.ordered_groups.votes import PairVotes
from pairwise.models import PairwiseSort, PairwiseStudy
from pairwise.sort_state import state_from_data

VOTE = {A_BETTER: "A", B_BETTER: "B", BOTH_GOOD: "equal"}
"""A stored answer as :class:`PairVotes` takes it (about the clips stored as a and b)."""


def example_clips(*, campaign_id: int) -> dict[int, tuple[str, str]]:
    """``{example id: (clip stored as a, clip stored as b)}`` of a pairs campaign."""
    sides: dict[int, dict[str, str]] = defaultdict(dict)
    items = ExampleItem.objects.filter(example__campaign_id=campaign_id).order_by()
    for example_id, side, clip_id in items.values_list("example_id", "side", "clip_id"):
        sides[example_id][side] = str(clip_id)
    return {pk: (s["a"], s["b"]) for pk, s in sides.items() if "a" in s and "b" in s}


def study_votes(*, campaign_id: int) -> dict[int, PairVotes]:
    """Each query's votes (see the module), in two statements."""
    clips = example_clips(campaign_id=campaign_id)
    counted = Answer.objects.filter(example__campaign_id=campaign_id, excluded=False).filter(
        Q(accepted_at__isnull=False)
        | Q(example__trap__pool=TrapQuestion.WORK, worker__trusted=True)
    )
    votes: dict[int, PairVotes] = defaultdict(PairVotes)
    rows = counted.order_by().values_list("example__query_id", "example_id", "outcome")
    for query_id, example_id, outcome in rows:
        if example_id in clips and outcome in VOTE:
            a, b = clips[example_id]
            votes[query_id].add(a, b, VOTE[outcome])
    return dict(votes)


@dataclass(frozen=True)
class QueryProgress:
    """One query's sort as the organiser's page shows it."""

    sort: PairwiseSort
    progress: RoundProgress
    groups: tuple[tuple[str, ...], ...]
    """The groups once done; before, the settled groups and the parts still to sort, in
    order (a part to sort is shown as one unsettled stretch)."""
    settled: tuple[bool, ...]


def study_progress(*, study: PairwiseStudy) -> list[QueryProgress]:
    """How far each query's sort is, in the order of its queries' names."""
    votes = study_votes(campaign_id=study.pk)
    found = []
    sorts = study.sorts.select_related("query__clip").order_by("query__clip__external_id")
    for sort in sorts:
        state = state_from_data(sort.state)
        progress = round_progress(
            state,
            votes.get(sort.query_id, PairVotes()),
            answers_per_pair=study.campaign.answers_per_example,
        )
        found.append(
            QueryProgress(
                sort=sort,
                progress=progress,
                groups=tuple(tuple(sorted((*p.docs, *p.ties))) for p in state.parts),
                settled=tuple(p.settled for p in state.parts),
            )
        )
    return found
