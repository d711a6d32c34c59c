"""Graded average precision at k (Robertson et al. 2010; thesis eqs. 2.16, 3.8, 5.9)."""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, ranks, top


def _threshold_cdf(levels: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """:math:`C(\\ell) = \\sum_{s=1}^{\\ell} p_s` for integer levels (``C(0) = 0``)."""
    cdf = np.concatenate([[0.0], np.cumsum(probabilities)])
    index = np.clip(levels.astype(np.int64), 0, len(probabilities))
    return cdf[index]


def graded_average_precision(
    levels: np.ndarray,
    *,
    k: int,
    ideal_levels: np.ndarray,
    top_level: int,
    probabilities: np.ndarray | None = None,
) -> np.ndarray:
    """Graded average precision at k: eq. (3.8) (user form) or eq. (5.9) (system form).

    A user sets the relevance threshold :math:`\\ell_{min} = \\ell` with probability
    :math:`p_\\ell` (uniform :math:`1/(n_\\mathcal{L}-1)` by default). The expected
    precision at a rank i holding a relevant document is

    .. math:: E[P@i] = \\frac{1}{i} \\sum_{\\ell=1}^{r_{A_i}} p_\\ell \\sum_{j=1}^{i} \\mathbb{1}(r_{A_j} \\ge \\ell)

    and GAP@k divides their sum by the most the ideal top k can collect:

    .. math:: GAP@k = \\frac{\\sum_{i=1}^{k} E[P@i]}{\\sum_{i=1}^{k} \\sum_{s=1}^{r_{I_i}} p_s}

    which is (5.9) with the sorted judgments as ideal and ``k`` (eq. 3.8) with k documents
    of level :math:`n_\\mathcal{L} - 1`. (The thesis prints the inner sum as
    :math:`\\sum_{s=1}^{\\ell} p_\\ell`; :math:`p_s` is meant, as in Robertson et al.)

    Parameters
    ----------
    levels, ideal_levels:
        Integer relevance levels ``0 .. top_level`` of the ranking and of the ideal.
    top_level:
        :math:`n_\\mathcal{L} - 1`.
    probabilities:
        :math:`p_1 .. p_{n_\\mathcal{L}-1}`, summing to 1; uniform if ``None``.

    >>> graded_average_precision(np.array([[2., 1.]]), k=2, top_level=2,
    ...                          ideal_levels=np.array([[2., 2.]]))  # (1 + .5*2/2) / (1 + 1)
    array([0.75])
    """
    top_level = int(top_level)
    if probabilities is None:
        probabilities = np.full(top_level, 1.0 / max(top_level, 1))
    probabilities = np.asarray(probabilities, dtype=np.float64)
    if len(probabilities) != top_level or not np.isclose(probabilities.sum(), 1.0):
        raise ValueError(f"GAP needs {top_level} threshold probabilities summing to 1")
    r = np.floor(top(levels, k))
    expected = np.zeros(r.shape)
    previous = 0.0
    # Between consecutive distinct levels v' < v, every threshold l in (v', v] sees the
    # same documents as relevant (those with r >= v): one pass per distinct level.
    for value in np.unique(r[r > 0]):
        weight = _threshold_cdf(np.array([value]), probabilities)[0] - previous
        previous += weight
        at_least = r >= value
        expected += weight * at_least * np.cumsum(at_least, axis=1)
    numerator = (expected / ranks(k)).sum(axis=1)
    denominator = _threshold_cdf(np.floor(top(ideal_levels, k)), probabilities).sum(axis=1)
    return divide(numerator, denominator)
