"""The driver of a pairs campaign: the three-way QuickSort of each query, moved on as
answers arrive (issue 32, item 3; Urbano, Morato, Marrero and Martín 2010).

:func:`pairwise_drive` reads the votes of every query (:func:`pairwise.selectors.study_votes`:
answers that count only), moves each query's sort on as far as they allow
(:func:`~evaluation.core.ordered_groups.quicksort.quicksort_advance`: a round is complete
when every one of its pairs has ``answers_per_example`` votes, the campaign's redundancy),
makes the examples of the round each query is in now, tops the work pool's trap pairs up
to the campaign's trap rate (:mod:`pairwise.services.traps`), and writes the groups of a
query whose sort is done into the campaign's source (replacing that query's groups:
:func:`catalog.services.ordered_groups.source_groups_write`).

**When it runs.** After every answer, and whenever answers start or stop counting (a
worker trusted or stopped), the crowd hands the campaign's change over
(:func:`work.handoff.preference_answers_changed`, coalesced, once per wait); this app
receives it (:func:`pairs_answers_received`, registered in ``PairwiseConfig.ready()``).
A change the broker did not take is handed over by the sweep, which also drives every
unfinished sort (:func:`pairwise_sweep_step`), so a dead broker delays a round and loses
nothing: the answers are saved by the web request whatever the broker does.

**Idempotent, one at a time.** The study's row is locked for the whole drive
(``SELECT … FOR UPDATE``; SQLite writes one transaction at a time anyway), the state is
computed from all the votes so far, a pair is one example (its signature is unique per
campaign), and the groups written are the same groups: driving twice, or two drives at
once, makes the same state and no second example.

Rules the paper does not give, ours (``docs/ordered-groups.md``): a round waits for every
answer of every one of its pairs, then uses them all; an answer arriving after its pair's
round is complete (a worker who kept a task open) is stored and counted where it still
matters (nowhere, once the round has moved on).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from django.db import transaction

from catalog.services.ordered_groups import source_groups_write
from crowd.models import TrapQuestion
from crowd.selectors.integrity import work_pool_needed
from evaluation.core.ordered_groups.quicksort import quicksort_advance
from evaluation.core.ordered_groups.votes import PairVotes
from pairwise.models import PairwiseSort, PairwiseStudy
from pairwise.selectors import study_votes
from pairwise.services.examples import pair_example_ensure, pair_signature
from pairwise.services.traps import trap_pairs_add
from pairwise.sort_state import state_data, state_from_data

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Drive:
    """What one drive did."""

    rounds: int = 0
    """Rounds completed by this drive, over all queries."""
    examples: int = 0
    """Pairs made (work and trap pairs)."""
    written: int = 0
    """Queries whose groups were written."""
    problem: str = ""


def pairwise_drive(*, campaign_id: int) -> Drive:
    """Move the sorts of pairs campaign ``campaign_id`` on (see the module)."""
    with transaction.atomic():
        # The row alone (PostgreSQL locks no nullable side of a join: the source may be gone).
        study = PairwiseStudy.objects.select_for_update().filter(pk=campaign_id).first()
        if study is None:
            return Drive()
        campaign = study.campaign
        per_pair = campaign.answers_per_example
        if study.margin > per_pair:
            return Drive(
                problem=f"the margin ({study.margin}) is larger than the answers per pair "
                f"({per_pair}): no candidate could ever leave its pivot's side"
            )
        votes = study_votes(campaign_id=campaign_id)
        # The pairs made already, read once: a drive with nothing new asks nothing per pair
        have = set(campaign.examples.values_list("signature", flat=True))
        rounds = examples = 0
        finished: dict[int, list[list[int]]] = {}
        done_sorts = []
        for sort in study.sorts.filter(written=False):
            state = state_from_data(sort.state)
            moved = quicksort_advance(
                state, votes.get(sort.query_id, PairVotes()),
                margin=study.margin, answers_per_pair=per_pair,
            )  # fmt: skip
            if moved != state or moved.done != sort.done:
                rounds += moved.rounds - state.rounds
                sort.state, sort.done = state_data(moved), moved.done
                sort.save(update_fields=["state", "done", "updated_at"])
            for doc, pivot in moved.round_pairs():
                if pair_signature(sort.query_id, int(doc), int(pivot)) in have:
                    continue
                _, made = pair_example_ensure(
                    campaign=campaign, query_id=sort.query_id, first=int(doc),
                    second=int(pivot), seed=study.seed,
                )  # fmt: skip
                examples += made
            if moved.done:
                finished[sort.query_id] = [[int(d) for d in g] for g in moved.groups()]
                done_sorts.append(sort.pk)
        if examples:
            examples += _work_traps_top_up(study=study)
        written = 0
        if finished and study.source is not None:
            source_groups_write(
                source=study.source, groups=finished, replace=True,
                origin=f"crowd pairs campaign “{campaign.name}”",
            )  # fmt: skip
            written = study.sorts.filter(pk__in=done_sorts).update(written=True)
    return Drive(rounds=rounds, examples=examples, written=written)


def _work_traps_top_up(*, study: PairwiseStudy) -> int:
    """Trap pairs of the work pool up to the campaign's trap rate among its pairs
    (:func:`crowd.selectors.integrity.work_pool_needed`), as far as the ground truth
    has pairs left."""
    campaign = study.campaign
    plain = campaign.examples.filter(trap__isnull=True).count()
    have = campaign.examples.filter(trap__pool=TrapQuestion.WORK).count()
    needed = work_pool_needed(ordinary=plain, trap_rate=campaign.trap_rate)
    if needed is None or needed <= have:
        return 0
    rng = random.Random(f"{study.seed}:traps:{plain}")
    return trap_pairs_add(study=study, count=needed - have, rng=rng)


def pairs_answers_received(target_id: int) -> bool:
    """A hand-off of campaign ``target_id``'s answers (:mod:`work.handoff`): drive it if it
    is a pairs campaign; whether new pairs were made."""
    if not PairwiseStudy.objects.filter(pk=target_id).exists():
        return False  # a campaign of lists, or deleted meanwhile
    drive = pairwise_drive(campaign_id=target_id)
    if drive.problem:
        logger.warning("pairs campaign %s: %s", target_id, drive.problem)
    return drive.examples > 0


def pairs_work_coming(campaign) -> bool:
    """Whether a pairs campaign will have new pairs: a query's sort is not done
    (:func:`crowd.services.tasks.work_coming_register`)."""
    return (
        campaign.is_open and PairwiseSort.objects.filter(study_id=campaign.pk, done=False).exists()
    )


def pairwise_sweep_step(*, worker: str = "", started_at=None) -> dict[str, int]:
    """A step of the one sweep (:mod:`work.sweep`): drive every study with a query not
    written yet (a hand-off lost with its broker is caught up here)."""
    studies = (
        PairwiseStudy.objects.filter(sorts__written=False).distinct().values_list("pk", flat=True)
    )
    rounds = 0
    for pk in list(studies):
        rounds += pairwise_drive(campaign_id=pk).rounds
    return {"pairwise_rounds": rounds}
