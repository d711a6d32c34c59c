"""Average dynamic recall (Typke et al. 2006; thesis eqs. 2.17 and 3.9).

Reference: R. Typke, R. C. Veltkamp, F. Wiering, "A measure for evaluating retrieval
techniques based on partially ordered ground truth lists", ICME 2006,
doi:10.1109/ICME.2006.262780.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from evaluation.core.measures._matrix import ranks, top


def average_dynamic_recall(
    levels: np.ndarray,
    *,
    k: int,
    ideal_levels: np.ndarray,
) -> np.ndarray:
    """Average dynamic recall at k: eq. (2.17) (system form) or eq. (3.9) (user form).

    .. math::

        ADR@k = \\frac{1}{k} \\sum_{i=1}^{k} \\frac{|\\{d \\in \\mathcal{D} : r_d \\ge
                r_{I_i},\\ r_d > 0\\} \\cap \\{A_1, \\dots, A_i\\}|}{i}

    At rank i the documents that "should have been seen" are those at least as relevant
    as the i-th ideal document. With the sorted judgments as ideal this is (2.17); with
    k documents of level :math:`n_\\mathcal{L} - 1` it is the restrictive user form
    (3.9), which only counts documents of maximal relevance.

    Only documents of the ground truth count (:math:`r_d > 0`): Typke et al.'s relevant
    set at rank i is the ground-truth groups up to the one holding the i-th ground-truth
    item, so past the last item (:math:`i > |\\mathcal{R}^{>0}|`, where the ideal runs out of relevant
    documents and :math:`r_{I_i} = 0`) it is the whole ground truth, never a document
    outside it. Read literally, (2.17) would count every retrieved document there
    (:math:`r_d \\ge 0`), so five non-relevant documents would score 0.8 at k = 5 with
    one relevant document judged; here they score 0. The thesis recommends
    :math:`k = |\\mathcal{R}^{>0}|`, where both readings agree.

    >>> average_dynamic_recall(np.array([[1., 2.]]), k=2,
    ...                        ideal_levels=np.array([[2., 1.]]))  # (0/1 + 2/2) / 2
    array([0.5])
    >>> average_dynamic_recall(np.zeros((1, 5)), k=5,
    ...                        ideal_levels=np.array([[1., 0, 0, 0, 0]]))
    array([0.])
    """
    return _dynamic_recall(levels, ideal_levels, k).sum(axis=1) / k


def _dynamic_recall(levels: np.ndarray, ideal_levels: np.ndarray, k: int) -> np.ndarray:
    """The ``(n_queries, k)`` dynamic recall :math:`r_i` at each rank i up to k."""
    r = top(levels, k)
    ideal = top(ideal_levels, k)
    found = np.zeros(r.shape)
    in_ground_truth = r > 0
    # The threshold r_{I_i} only takes a few distinct values: one pass per value.
    for value in np.unique(ideal):
        seen = np.cumsum((r >= value) & in_ground_truth, axis=1)
        found = np.where(ideal == value, seen, found)
    return found / ranks(k)


def average_dynamic_recall_at_n(levels: np.ndarray, *, ideal_levels: np.ndarray) -> np.ndarray:
    """ADR over the first :math:`n` ranks of each query, :math:`n` its number of
    ground-truth items :math:`|\\mathcal{R}^{>0}|` (Typke et al. 2006, §3: "the average
    recall over the first n documents, where n is the number of items in the ground
    truth"; the cut-off the thesis recommends for eq. 2.17). The measure ``ADR``
    without ``@k``. A query without ground-truth items scores 0.

    >>> average_dynamic_recall_at_n(np.array([[1., 2., 0.], [0., 0., 1.]]),
    ...                             ideal_levels=np.array([[2., 1., 0.], [1., 0., 0.]]))
    array([0.5, 0. ])
    """
    ideal_levels = np.asarray(ideal_levels, dtype=np.float64)
    n = (ideal_levels > 0).sum(axis=1)
    depth = max(int(n.max(initial=0)), 1)
    recall = _dynamic_recall(levels, ideal_levels, depth)
    within = ranks(depth)[None, :] <= n[:, None]
    return np.divide((recall * within).sum(axis=1), n, out=np.zeros(len(n)), where=n > 0)


def average_dynamic_recall_groups(
    ranking: Sequence[Hashable], groups: Sequence[Sequence[Hashable]], *, k: int | None = None
) -> float:
    """ADR of one ranking against a partially ordered ground truth (Typke et al. 2006).

    ``groups`` lists groups of documents from most to least similar; the order inside a
    group is unknown. At rank i the relevant set holds every group up to the one that
    contains the i-th ground-truth item, and

    .. math:: r_i = \\frac{\\#\\{R_w : w \\le i,\\ R_w \\in G^1 \\cup \\dots \\cup G^c\\}}{i},
              \\qquad ADR = \\frac{1}{n} \\sum_{i=1}^{n} r_i

    with :math:`n` the number of ground-truth items (or ``k`` if given; past the
    ground truth, :math:`c` is the last group). This is eq. (2.17) with group g of
    g_total groups taking level g_total - g + 1.

    >>> round(average_dynamic_recall_groups([2, 3, 1, 5, 7, 8, 9, 4], [(1, 2), (3, 4, 5)]), 4)
    0.86
    """
    level_of = {}
    for position, group in enumerate(groups):
        for item in group:
            if item in level_of:
                raise ValueError(f"item {item!r} is in more than one group")
            level_of[item] = float(len(groups) - position)
    ideal = sorted(level_of.values(), reverse=True)
    k = len(ideal) if k is None else k
    levels = np.array([[level_of.get(item, 0.0) for item in ranking]])
    score = average_dynamic_recall(levels, k=k, ideal_levels=np.array([ideal]))
    return float(score[0])
