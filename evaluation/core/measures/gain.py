"""Gain-based measures: CG@k, DCG@k, nDCG@k and RBP@k (thesis §2.5.2, §3.1.1, §5.2.1).

Kernels take ``gains``, a ``(n_queries, depth)`` matrix of :math:`g(r_{A_i})`, and for
the normalised measures ``ideal_gains``, the gains of the ideal ranking (see
:mod:`evaluation.core.measures.ideal`): k documents of maximal relevance for the
user-oriented form, the sorted judgments for the system-oriented form.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, log2_discount, top


def cumulative_gain(gains: np.ndarray, *, k: int, max_gain: float) -> np.ndarray:
    """Normalised cumulative gain at k, eq. (3.3) (one form; used in §5.2.1 too).

    .. math:: CG@k = \\frac{1}{k} \\sum_{i=1}^{k} \\frac{g(r_{A_i})}{g(n_\\mathcal{L} - 1)}

    ``max_gain`` is :math:`g(n_\\mathcal{L} - 1)`. MIREX reports it unnormalised,
    eq. (2.8): multiply by ``k * max_gain``.

    >>> cumulative_gain(np.array([[2., 1., 0.]]), k=3, max_gain=2.0)  # (2+1+0) / (3*2)
    array([0.5])
    """
    return divide(top(gains, k).sum(axis=1), k * max_gain)


def ndcg(gains: np.ndarray, *, k: int | None, ideal_gains: np.ndarray) -> np.ndarray:
    """Normalised discounted cumulative gain, eq. (2.10), :math:`d(i) = \\log_2(i+1)`.

    .. math:: nDCG@k = \\frac{\\sum_{i=1}^{k} g(r_{A_i}) / d(i)}{\\sum_{i=1}^{k} g(r_{I_i}) / d(i)}

    With the sorted judgments as ideal this is the system-oriented nDCG@k of §5.2.1 and
    trec_eval's ``ndcg_cut.k`` (``ndcg`` without ``k``); with k documents of maximal
    gain it is the user-oriented DCG@k of eq. (3.4), see :func:`dcg`. A query whose
    ideal gain is 0 scores 0.

    >>> ndcg(np.array([[0., 1.]]), k=2, ideal_gains=np.array([[1., 0.]]))  # 1/log2(3)
    array([0.63092975])
    """
    width = k if k is not None else max(np.shape(gains)[1], np.shape(ideal_gains)[1])
    discount = log2_discount(width)
    actual = (top(gains, width) / discount).sum(axis=1)
    ideal = (top(ideal_gains, width) / discount).sum(axis=1)
    return divide(actual, ideal)


def dcg(gains: np.ndarray, *, k: int, max_gain: float) -> np.ndarray:
    """Bounded discounted cumulative gain at k, eq. (3.4) (one form; used in §5.2.1 too).

    .. math:: DCG@k = \\frac{\\sum_{i=1}^{k} g(r_{A_i}) / d(i)}{\\sum_{i=1}^{k} g(n_\\mathcal{L} - 1) / d(i)}

    >>> dcg(np.array([[1., 0.]]), k=2, max_gain=1.0)  # 1 / (1 + 1/log2(3))
    array([0.61314719])
    """
    n_queries = np.shape(gains)[0]
    return ndcg(gains, k=k, ideal_gains=np.full((n_queries, k), float(max_gain)))


def rank_biased_precision(
    gains: np.ndarray, *, k: int, p: float = 0.8, ideal_gains: np.ndarray
) -> np.ndarray:
    """Rank-biased precision at k, normalised by the ideal ranking: eqs. (3.6) and (5.8).

    .. math:: RBP@k = \\frac{\\sum_{i=1}^{k} g(r_{A_i})\\, p^{i-1}}{\\sum_{i=1}^{k} g(r_{I_i})\\, p^{i-1}}

    The user form (3.6) uses k documents of maximal gain as ideal, the system form
    (5.8) the sorted judgments. ``p = 0.8`` makes a user see 1/(1-p) = 5 documents
    on average (thesis §3.1.1).

    >>> rank_biased_precision(np.array([[0., 1.]]), k=2, p=0.5, ideal_gains=np.array([[1., 1.]]))
    array([0.33333333])
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"RBP persistence p must be in (0, 1), got {p}")
    weight = p ** np.arange(k, dtype=np.float64)
    actual = (top(gains, k) * weight).sum(axis=1)
    ideal = (top(ideal_gains, k) * weight).sum(axis=1)
    return divide(actual, ideal)
