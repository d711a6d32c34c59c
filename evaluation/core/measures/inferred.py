"""Inferred average precision (trec_eval's ``infAP``; Yilmaz & Aslam 2006).

For a judgment pool of which only a random sample was judged: the documents of the
ranking are *not in the pool* (not in the judgments: they count as non-relevant),
*pooled but unjudged* (a negative judgment, by trec_eval's convention) or judged.

References
----------
E. Yilmaz and J. A. Aslam (2006). Estimating average precision with incomplete and
imperfect judgments. *CIKM '06*, 102–111. https://doi.org/10.1145/1183614.1183633
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide

EPSILON = 1e-5
"""trec_eval's ``INFAP_EPSILON``: smooths the judged proportion above a relevant document."""


def inferred_ap(
    relevant: np.ndarray, nonrelevant: np.ndarray, unjudged: np.ndarray, *, num_rel
) -> np.ndarray:
    r"""infAP of each row of a ``(n_queries, depth)`` ranking.

    With, above rank :math:`k` (1-based), :math:`r` judged relevant, :math:`n` judged
    non-relevant and :math:`u` pooled-but-unjudged documents, a judged relevant document
    at rank :math:`k` adds the expected precision at :math:`k`

    .. math::

        E[P@k] = \frac{1}{k} + \frac{k-1}{k}\cdot\frac{r + n + u}{k-1}\cdot
                 \frac{r + \epsilon}{r + n + 2\epsilon}

    (1 at rank 1), and infAP is their sum over :math:`R` = ``num_rel`` (the judged
    relevant documents of the query; 0 when there are none). Documents outside the pool
    add nothing to :math:`r + n + u` but count in :math:`k`: they are non-relevant.

    Parameters
    ----------
    relevant, nonrelevant, unjudged : array_like of bool, (n_queries, depth)
        Where the ranking has a judged relevant, a judged non-relevant and a
        pooled-but-unjudged document; a rank that is none of them is outside the pool.
    num_rel : array_like, (n_queries,)

    Examples
    --------
    Ranks: relevant, unjudged, outside the pool, relevant; 2 relevant judged. The second
    relevant document (k = 4; r = 1, n = 0, u = 1) adds
    1/4 + 3/4 · 2/3 · (1 + ε)/(1 + 2ε) ≈ 0.75, so infAP ≈ (1 + 0.75) / 2:

    >>> rel = np.array([[1, 0, 0, 1]], bool)
    >>> unj = np.array([[0, 1, 0, 0]], bool)
    >>> round(float(inferred_ap(rel, np.zeros_like(rel), unj, num_rel=[2])[0]), 5)
    0.875
    """
    rel = np.asarray(relevant, dtype=bool)
    non = np.asarray(nonrelevant, dtype=bool)
    unj = np.asarray(unjudged, dtype=bool)

    def above(mask):  # how many before each rank
        counts = np.cumsum(mask, axis=1)
        return counts - mask

    r, n, u = above(rel), above(non), above(unj)
    k = np.arange(1, rel.shape[1] + 1, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = 1.0 / k + ((k - 1) / k) * ((r + n + u) / (k - 1)) * (
            (r + EPSILON) / (r + n + 2 * EPSILON)
        )
    expected[:, :1] = 1.0  # rank 1
    total = np.where(rel, expected, 0.0).sum(axis=1)
    return divide(total, np.asarray(num_rel, dtype=np.float64))
