"""Cascade measures: ERR@k and EDCG@k (thesis eqs. 2.14, 2.15, 3.7, 3.10).

The user scans the ranking top-down and stops at document :math:`A_i` with probability

.. math:: p_d = \\frac{g(r_d)}{g(n_\\mathcal{L} - 1) + 1}  \\qquad (2.15)

so :math:`P(\\text{stop at } i) = p_{A_i} \\prod_{j<i} (1 - p_{A_j})`. ERR weights a stop at
rank i by 1/i, EDCG by the gain of the document. Both are divided by the same
quantity for the ideal ranking: k documents of maximal relevance (user form,
eqs. 3.7 and 3.10) or the sorted judgments (system form; the thesis gives no
equation for it, so it follows eqs. 5.8 and 2.10: the ideal ranking I replaces the
user-oriented one).
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, ranks, top


def _stop_probabilities(gains: np.ndarray, max_gain: float) -> np.ndarray:
    p = gains / (max_gain + 1.0)
    reach = np.cumprod(1.0 - p, axis=1)
    reach = np.hstack([np.ones((p.shape[0], 1)), reach[:, :-1]])
    return p * reach


def expected_reciprocal_rank(
    gains: np.ndarray, *, k: int, max_gain: float, ideal_gains: np.ndarray
) -> np.ndarray:
    """Expected reciprocal rank at k, eq. (3.7) (user form) or its system form.

    .. math:: ERR@k = \\frac{\\sum_{i=1}^{k} \\frac{1}{i}\\, p_{A_i} \\prod_{j=1}^{i-1} (1 - p_{A_j})}
                            {\\sum_{i=1}^{k} \\frac{1}{i}\\, p_{I_i} \\prod_{j=1}^{i-1} (1 - p_{I_j})}

    With the user ideal the denominator is :math:`p' \\sum_{i=1}^{k} \\frac{1}{i}(1-p')^{i-1}`
    as printed in (3.7). ``max_gain`` is :math:`g(n_\\mathcal{L} - 1)` in both forms.

    >>> expected_reciprocal_rank(np.array([[1., 0.]]), k=2, max_gain=1.0,
    ...                          ideal_gains=np.array([[1., 1.]]))  # .5 / (.5 + .25/2)
    array([0.8])
    """
    weight = 1.0 / ranks(k)
    actual = (_stop_probabilities(top(gains, k), max_gain) * weight).sum(axis=1)
    ideal = (_stop_probabilities(top(ideal_gains, k), max_gain) * weight).sum(axis=1)
    return divide(actual, ideal)


def expected_dcg(
    gains: np.ndarray, *, k: int, max_gain: float, ideal_gains: np.ndarray
) -> np.ndarray:
    """Expected discounted cumulative gain at k, eq. (3.10) (user form) or its system form.

    .. math:: EDCG@k = \\frac{\\sum_{i=1}^{k} g(r_{A_i})\\, p_{A_i} \\prod_{j=1}^{i-1} (1 - p_{A_j})}
                             {\\sum_{i=1}^{k} g(r_{I_i})\\, p_{I_i} \\prod_{j=1}^{i-1} (1 - p_{I_j})}

    >>> expected_dcg(np.array([[0., 1.]]), k=2, max_gain=1.0,
    ...              ideal_gains=np.array([[1., 1.]]))  # .5 / (.5 + .25)
    array([0.66666667])
    """
    g = top(gains, k)
    ideal = top(ideal_gains, k)
    actual = (g * _stop_probabilities(g, max_gain)).sum(axis=1)
    best = (ideal * _stop_probabilities(ideal, max_gain)).sum(axis=1)
    return divide(actual, best)
