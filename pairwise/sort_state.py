"""A :class:`~evaluation.core.ordered_groups.quicksort.SortState` as plain JSON data and
back, for :attr:`pairwise.models.PairwiseSort.state`.

>>> from evaluation.core.ordered_groups.quicksort import quicksort_start
>>> state = quicksort_start(["3", "1", "2"], seed=7)
>>> state_from_data(state_data(state)) == state
True
"""

from __future__ import annotations

from evaluation.core.ordered_groups.quicksort import Part, SortState


def state_data(state: SortState) -> dict:
    """``{"rounds", "seed", "parts": [{"docs", "ties", "settled"}, …]}``."""
    return {
        "rounds": state.rounds,
        "seed": state.seed,
        "parts": [
            {"docs": list(part.docs), "ties": list(part.ties), "settled": part.settled}
            for part in state.parts
        ],
    }


def state_from_data(data: dict) -> SortState:
    """The state :func:`state_data` wrote."""
    parts = tuple(
        Part(docs=tuple(p["docs"]), ties=tuple(p["ties"]), settled=bool(p["settled"]))
        for p in data["parts"]
    )
    return SortState(parts=parts, rounds=int(data["rounds"]), seed=int(data["seed"]))
