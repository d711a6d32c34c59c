"""What a recompute will cost, stated before it starts, and the refusal of what is too big.

Each computation of a recompute counts its cost from numbers it has before computing
anything, and refuses work over the configured limits with a message the organiser
reads on the results page (the recompute fails with it, :class:`work.limits.WorkRefused`):

- the leaderboards' significance tests: ``k`` systems make k(k−1)/2 pairs, each tested
  over the judged queries with the configured resamples, once per measure — at most
  ``EARSHOT_LIMIT_PAIRS`` pairs (what the significance page and the stored rows hold) and
  ``EARSHOT_LIMIT_RESAMPLED`` resampled differences (pairs × queries × resamples ×
  measures);
- "Choosing a test" (the split-half study of thesis ch. 5): random splits × 2 halves ×
  pairs × measures × tests p-values, and resampled differences counted as above (splits ×
  2 × pairs × measures × half the queries × resamples × the bootstrap and permutation
  tests), at most ``EARSHOT_LIMIT_PAIRS`` pairs and ``EARSHOT_LIMIT_RESAMPLED`` differences;
- low-cost estimates: a pool of (query, clip) pairs at most ``EARSHOT_LIMIT_POOL``, and
  the systems' pairs at most ``EARSHOT_LIMIT_PAIRS`` (the estimates compare every pair).

Work within the limits that costs more than ``EARSHOT_INTERACTIVE_MAX_COST`` goes to the
heavy queue (:func:`work.limits.work_admit`). Within the limits the pairwise tests are
computed in blocks of pairs within a memory budget: the differences of a block of pairs
(``evaluation.core.pairwise.PAIR_BLOCK_BYTES``, 64 MiB) and the resampled means of the
bootstrap and permutation tests in one buffer reused for every block
(``evaluation.core._paired_kernels.RESAMPLED_BYTES``, 64 MiB, and the resamples drawn, at
most 96 MiB), whatever the number of systems and resamples.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from evaluation.core.optimality import optimality_cost
from evaluation.core.significance import RESAMPLING_TESTS
from work.limits import WorkRefused, amount, work_admit


@dataclass(frozen=True)
class Cost:
    """What a computation will do, in numbers (``units``: numbers computed, for the queue)."""

    statement: str
    units: int


def pairs_of(n_systems: int) -> int:
    """k(k−1)/2: the unordered pairs of ``n_systems`` systems.

    >>> pairs_of(3018), pairs_of(18)
    (4552653, 153)
    """
    return n_systems * (n_systems - 1) // 2


def _pairs_check(n_systems: int, *, what: str, change: str) -> int:
    pairs = pairs_of(n_systems)
    limit = settings.EARSHOT_LIMIT_PAIRS
    if pairs > limit:
        raise WorkRefused(
            f"{n_systems:,} systems: {what} would need {amount(pairs)} pairs of systems; the "
            f"limit is {limit:,} pairs (about {_systems_for(limit):,} systems, "
            f"EARSHOT_LIMIT_PAIRS). {change}"
        )
    return pairs


def _systems_for(pairs: int) -> int:
    k = 1
    while pairs_of(k + 1) <= pairs:
        k += 1
    return k


def leaderboards_admit(
    *, n_systems: int, n_queries: int, n_measures: int, test: str, resamples: int
) -> Cost:
    """The cost of a collection's leaderboards, or :class:`WorkRefused` over a limit."""
    fewer = "Leave out systems you do not need (delete their runs), or ask an administrator to raise the limit."
    pairs = _pairs_check(n_systems, what="the pairwise tests", change=fewer)
    statement = (
        f"{n_systems:,} systems × {n_queries:,} queries × {n_measures} measures; "
        f"{amount(pairs)} pairs"
    )
    per_pair = 1
    if test in RESAMPLING_TESTS:
        per_pair = resamples
        resampled = pairs * n_queries * resamples * n_measures
        statement += f" × {resamples:,} resamples = {amount(resampled)} resampled differences"
        limit = settings.EARSHOT_LIMIT_RESAMPLED
        if resampled > limit:
            raise WorkRefused(
                f"{n_systems:,} systems: the {test} test on every pair would need "
                f"{amount(pairs)} pairs × {n_queries:,} queries × {resamples:,} resamples × "
                f"{n_measures} measures = {amount(resampled)} resampled differences; the limit "
                f"is {amount(limit)} (EARSHOT_LIMIT_RESAMPLED). Choose a cheaper test (the t "
                "test draws no resamples), fewer resamples or fewer measures in Results "
                f"settings. {fewer}"
            )
    units = n_measures * n_queries * (n_systems + pairs * per_pair)
    work_admit(cost=units)
    return Cost(statement=statement, units=units)


def estimates_admit(*, n_systems: int, n_queries: int, pool_pairs: int) -> Cost:
    """The cost of low-cost estimates over a pool, or :class:`WorkRefused` over a limit."""
    limit = settings.EARSHOT_LIMIT_POOL
    if pool_pairs > limit:
        raise WorkRefused(
            f"The low-cost estimates would cover a pool of {amount(pool_pairs)} (query, clip) "
            f"pairs; the limit is {limit:,} (EARSHOT_LIMIT_POOL). Judge fewer queries at a "
            "time or a smaller depth, or ask an administrator to raise the limit."
        )
    pairs = _pairs_check(
        n_systems,
        what="the low-cost estimates",
        change="Leave out systems you do not need (delete their runs), or ask an administrator "
        "to raise the limit.",
    )
    units = pool_pairs * n_systems + pairs * n_queries
    work_admit(cost=units)
    return Cost(statement=f"{amount(pool_pairs)} pool pairs × {n_systems:,} systems", units=units)


def optimality_admit(
    *, n_systems: int, n_queries: int, n_measures: int, tests, trials: int, resamples: int
) -> Cost:
    """The cost of a collection's split-half study, or :class:`WorkRefused` over a limit."""
    _pairs_check(
        n_systems,
        what="choosing a test",
        change="Leave out systems you do not need (delete their runs), or ask an administrator "
        "to raise the limit.",
    )
    cost = optimality_cost(
        n_systems=n_systems, n_queries=n_queries, n_measures=n_measures, tests=tests,
        trials=trials, resamples=resamples,
    )  # fmt: skip
    limit = settings.EARSHOT_LIMIT_RESAMPLED
    if cost.resampled > limit:
        raise WorkRefused(
            f"Choosing a test would draw {amount(cost.resampled)} resampled differences "
            f"({cost.statement}); the limit is {amount(limit)} (EARSHOT_LIMIT_RESAMPLED). Ask "
            "for fewer random splits or resamples on the page, or ask an administrator to raise "
            "the limit."
        )
    work_admit(cost=cost.units)
    return Cost(statement=cost.statement, units=cost.units)
