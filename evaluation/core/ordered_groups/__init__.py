"""A partially ordered ground truth: ordered groups of candidates per query.

Typke, Veltkamp and Wiering (2006) evaluate against groups of documents whose order is
known while the order inside a group is not; ADR (:mod:`evaluation.core.measures.adr`,
thesis eq. 2.17) scores a ranking against them. This package builds such groups and
reads and writes them; no Django.

:mod:`~evaluation.core.ordered_groups.files`
    the groups file ``NAME QUERY DOC GROUP`` (:func:`read_groups`, :func:`groups_text`,
    :func:`write_groups`) and the judgments it stands for (:func:`groups_qrels`).
:mod:`~evaluation.core.ordered_groups.rankings`
    from experts' rankings: Typke et al. (2005) and Urbano et al. (2010)'s rules
    (:func:`groups_from_ranks`, :func:`read_rankings`), with the rank-sum test of
    :mod:`~evaluation.core.ordered_groups.ranksum`.
:mod:`~evaluation.core.ordered_groups.concordance`
    agreement between experts who ranked the same candidates: Kendall's W
    (:func:`kendalls_w`).
:mod:`~evaluation.core.ordered_groups.quicksort`
    from pairwise preferences: Urbano, Morato, Marrero and Martín's (2010) three-way
    QuickSort in rounds, as a state machine an application drives as answers arrive
    (:func:`quicksort_start`, :func:`quicksort_advance`, :func:`round_progress`), and
    for a finished study (:func:`groups_from_answered_pairs`); answers counted by
    :class:`~evaluation.core.ordered_groups.votes.PairVotes`.
:mod:`~evaluation.core.ordered_groups.past_study`
    a past pairwise study's answers CSV (Mechanical Turk's batch results among others)
    read into votes and groups (:func:`read_past_study`, :func:`past_study_groups`).

The command line: ``python -m evaluation.core groups rankings|votes FILE`` prints a
groups file; ``python -m evaluation.core GROUPS RUN … --qrels-format groups -m ADR``
scores runs against one. ``docs/ordered-groups.md`` explains the three ways.
"""

from evaluation.core.ordered_groups.concordance import Concordance, kendalls_w
from evaluation.core.ordered_groups.files import (
    group_levels,
    groups_qrels,
    groups_text,
    read_groups,
    write_groups,
)
from evaluation.core.ordered_groups.past_study import (
    PastStudy,
    past_study_groups,
    read_past_study,
)
from evaluation.core.ordered_groups.quicksort import (
    RoundProgress,
    SortState,
    groups_from_answered_pairs,
    quicksort_advance,
    quicksort_start,
    round_progress,
)
from evaluation.core.ordered_groups.rankings import (
    RankGrouping,
    groups_from_ranks,
    read_rankings,
)
from evaluation.core.ordered_groups.ranksum import rank_sum_pvalue
from evaluation.core.ordered_groups.votes import PairVotes

__all__ = [
    "Concordance",
    "PairVotes",
    "PastStudy",
    "RankGrouping",
    "RoundProgress",
    "SortState",
    "group_levels",
    "groups_from_answered_pairs",
    "groups_from_ranks",
    "groups_qrels",
    "groups_text",
    "kendalls_w",
    "past_study_groups",
    "quicksort_advance",
    "quicksort_start",
    "rank_sum_pvalue",
    "read_groups",
    "read_past_study",
    "read_rankings",
    "round_progress",
    "write_groups",
]
