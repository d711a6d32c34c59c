"""Measures on binary relevance: P@k, AP@k, RR@k, R-precision, recall (thesis §2.5.1).

Every kernel takes ``relevant``, a ``(n_queries, depth)`` 0/1 matrix (column ``i`` is
rank ``i + 1``; ranks past the end of a ranking are 0), and returns one score per query.
With a graded scale, ``relevant`` is :math:`\\mathbb{1}(r_{A_i} \\ge \\ell_{min})`, which
turns eqs. (2.2)–(2.4) into (2.5)–(2.7).
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, ranks, top


def precision(relevant: np.ndarray, *, k: int) -> np.ndarray:
    """Precision at k, eq. (2.2)/(2.5); the same in both forms (and trec_eval's ``P_k``).

    .. math:: P@k = \\frac{1}{k} \\sum_{i=1}^{k} \\mathbb{1}(r_{A_i} \\ge \\ell_{min})

    >>> precision(np.array([[1, 0, 1, 0, 0]]), k=5)
    array([0.4])
    """
    return top(relevant, k).sum(axis=1) / k


def average_precision(
    relevant: np.ndarray, *, k: int | None, normaliser: np.ndarray | float
) -> np.ndarray:
    """Average precision at k with an explicit normaliser.

    .. math:: AP@k = \\frac{1}{N} \\sum_{i=1}^{k} \\mathbb{1}(r_{A_i} \\ge \\ell_{min}) \\cdot P@i

    The normaliser :math:`N` picks the formulation:

    - user form, eq. (3.1): :math:`N = k`;
    - system form, eq. (5.6): :math:`N = \\min(k, |\\mathcal{R}|)` (ntcireval);
    - original, eq. (2.3)/(2.6): :math:`N = |\\mathcal{R}|` (trec_eval's ``map`` when
      ``k`` is the whole ranking).

    A query with :math:`N = 0` scores 0.

    >>> average_precision(np.array([[1, 0, 1]]), k=3, normaliser=2)  # (1/1 + 2/3) / 2
    array([0.83333333])
    """
    rel = top(relevant, k)
    rows, columns = np.nonzero(rel)
    if not (rel[rows, columns] == 1.0).all():  # not 0/1: the dense formula
        precision_at_i = np.cumsum(rel, axis=1) / ranks(rel.shape[1])
        return divide((rel * precision_at_i).sum(axis=1), normaliser)
    # only the relevant ranks contribute: the n-th relevant document of a query, at
    # rank i, adds n / i, summed in rank order as trec_eval does
    first = np.searchsorted(rows, rows)  # index of each row's first relevant rank
    found_so_far = np.arange(1, len(rows) + 1) - first
    total = np.bincount(rows, weights=found_so_far / (columns + 1.0), minlength=rel.shape[0])
    return divide(total, normaliser)


def reciprocal_rank(relevant: np.ndarray, *, k: int | None = None) -> np.ndarray:
    """Reciprocal rank at k, eq. (3.2): 1 / rank of the first relevant, 0 if none in top k.

    Without ``k`` this is eq. (2.4) over the whole ranking (trec_eval's ``recip_rank``).

    >>> reciprocal_rank(np.array([[0, 0, 1], [0, 0, 0]]), k=3)
    array([0.33333333, 0.        ])
    """
    rel = top(relevant, k) > 0
    found = rel.any(axis=1)
    first = np.argmax(rel, axis=1) + 1.0
    return np.where(found, 1.0 / first, 0.0)


def r_precision(relevant: np.ndarray, *, num_rel: np.ndarray) -> np.ndarray:
    """R-precision: precision at rank :math:`R = |\\mathcal{R}|` (trec_eval ``Rprec``).

    >>> r_precision(np.array([[1, 0, 1, 1]]), num_rel=np.array([2]))
    array([0.5])
    """
    rel = np.asarray(relevant, dtype=np.float64)
    num_rel = np.asarray(num_rel, dtype=np.int64)
    width = int(num_rel.max(initial=0))
    found = np.cumsum(top(rel, max(width, 1)), axis=1)
    at_r = found[np.arange(rel.shape[0]), np.maximum(num_rel - 1, 0)]
    return divide(np.where(num_rel > 0, at_r, 0.0), num_rel)


def recall(relevant: np.ndarray, *, k: int | None, num_rel: np.ndarray) -> np.ndarray:
    """Recall at k: relevant documents in the top k over all known relevant ones.

    .. math:: R@k = \\frac{1}{|\\mathcal{R}|} \\sum_{i=1}^{k} \\mathbb{1}(r_{A_i} \\ge \\ell_{min})

    >>> recall(np.array([[1, 0, 1]]), k=2, num_rel=np.array([4]))
    array([0.25])
    """
    return divide(top(relevant, k).sum(axis=1), num_rel)
