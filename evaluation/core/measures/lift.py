"""Normalized Lift Curve (Serra 2007, §3.3)."""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, top


def normalized_lift_curve(
    relevant: np.ndarray, *, num_rel: np.ndarray, k: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Points of the Normalized Lift Curve of each query.

    Serra plots the fraction of the relevant documents found,
    :math:`\\%Pos.Ex. / |R_q|`, against the fraction of the answer list examined,
    :math:`\\%Ex. / |A|`. For an answer list of length :math:`|A|` (``k``, or the
    matrix depth) the points are

    .. math:: x_i = \\frac{i}{|A|}, \\qquad y_i = \\frac{1}{|R_q|} \\sum_{j=1}^{i} r_{A_j},
              \\qquad i = 0, \\dots, |A|

    Returns
    -------
    x : ``(|A| + 1,)`` array, the same for every query.
    y : ``(n_queries, |A| + 1)`` array; average over axis 0 for the mean curve.

    >>> x, y = normalized_lift_curve(np.array([[1, 0, 1]]), num_rel=np.array([4]))
    >>> x.tolist(), y.tolist()
    ([0.0, 0.3333333333333333, 0.6666666666666666, 1.0], [[0.0, 0.25, 0.25, 0.5]])
    """
    rel = top(relevant, k)
    length = rel.shape[1]
    found = np.hstack([np.zeros((rel.shape[0], 1)), np.cumsum(rel > 0, axis=1)])
    y = divide(found, np.broadcast_to(np.asarray(num_rel, dtype=np.float64)[:, None], found.shape))
    return np.arange(length + 1) / max(length, 1), y
