"""Sakai's Q-measure at k (thesis eqs. 2.11, 3.5 and 5.7)."""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, ranks, top


def q_measure(
    gains: np.ndarray, *, k: int, beta: float = 1.0, ideal_gains: np.ndarray
) -> np.ndarray:
    """Q-measure at k, normalised by the ideal ranking.

    .. math::

        Q@k = \\frac{1}{N} \\sum_{i=1}^{k} \\mathbb{1}(r_{A_i} > 0)
              \\frac{\\sum_{j=1}^{i} \\mathbb{1}(r_{A_j} > 0) + \\beta \\sum_{j=1}^{i} g(r_{A_j})}
                   {i + \\beta \\sum_{j=1}^{i} g(r_{I_j})}

    where :math:`N` is the number of relevant documents in the ideal top k: :math:`k`
    for the user form, eq. (3.5), whose ideal is k documents of maximal gain, and
    :math:`\\min(k, |\\mathcal{R}^{>0}|)` for the system form, eq. (5.7), whose ideal
    is the sorted judgments. A document is relevant when its gain is positive. With
    ``beta = 0`` this is AP@k (eqs. 3.1 and 5.6).

    >>> q_measure(np.array([[1., 0.]]), k=2, beta=1.0, ideal_gains=np.array([[2., 2.]]))
    array([0.33333333])
    """
    g = top(gains, k)
    ideal = top(ideal_gains, k)
    relevant = (g > 0).astype(np.float64)
    bonus = np.cumsum(relevant, axis=1) + beta * np.cumsum(g, axis=1)
    ideal_bonus = ranks(k) + beta * np.cumsum(ideal, axis=1)
    normaliser = (ideal > 0).sum(axis=1)
    return divide((relevant * bonus / ideal_bonus).sum(axis=1), normaliser)
