"""Binary preference measures: bpref, bpref-10 (Buckley & Voorhees 2004) and bpref*
(Serra 2007, eq. 1).

They only use judged documents: unjudged ones (not in the judgments, or judged with a
negative value as trec_eval's "in pool but unjudged") are skipped, not counted as
non-relevant. Every kernel takes ``relevant`` and ``judged``, two ``(n_queries, depth)``
0/1 matrices, and sums over the relevant retrieved documents r a penalty for the judged
non-relevant documents ranked above r, :math:`n_r`.

References: C. Buckley, E. M. Voorhees, "Retrieval evaluation with incomplete
information", SIGIR 2004, doi:10.1145/1008992.1009000. J. Serrà, "A qualitative
assessment of measures for the evaluation of a cover song identification system",
ISMIR 2007.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import divide, top


def _nonrelevant_above(relevant: np.ndarray, judged: np.ndarray, k: int | None):
    rel = top(relevant, k) > 0
    judged_nonrel = (top(judged, k) > 0) & ~rel
    above = np.cumsum(judged_nonrel, axis=1) - judged_nonrel
    return rel, above.astype(np.float64)


def bpref(
    relevant: np.ndarray,
    judged: np.ndarray,
    *,
    num_rel: np.ndarray,
    num_nonrel: np.ndarray,
    k: int | None = None,
) -> np.ndarray:
    """bpref exactly as trec_eval computes it.

    .. math:: bpref = \\frac{1}{R} \\sum_{r} \\left(1 - \\frac{\\min(n_r, R)}{\\min(R, N)}\\right)

    with R relevant and N judged non-relevant documents for the query (a term is 1 when
    :math:`n_r = 0`).

    >>> bpref(np.array([[0, 1, 1]]), np.array([[1, 1, 1]]),
    ...       num_rel=np.array([2]), num_nonrel=np.array([3]))  # (1 - 1/2 + 1 - 1/2) / 2
    array([0.5])
    """
    rel, above = _nonrelevant_above(relevant, judged, k)
    num_rel = np.asarray(num_rel, dtype=np.float64)[:, None]
    scale = np.minimum(num_rel, np.asarray(num_nonrel, dtype=np.float64)[:, None])
    penalty = divide(np.minimum(above, num_rel), np.broadcast_to(scale, above.shape))
    return divide((rel * (1.0 - penalty)).sum(axis=1), num_rel[:, 0])


def bpref_10(
    relevant: np.ndarray, judged: np.ndarray, *, num_rel: np.ndarray, k: int | None = None
) -> np.ndarray:
    """bpref-10 (Buckley & Voorhees 2004): only the top 10 + R judged non-relevant count.

    .. math:: bpref\\text{-}10 = \\frac{1}{R} \\sum_{r} \\left(1 - \\frac{\\min(n_r, 10 + R)}{10 + R}\\right)

    >>> bpref_10(np.array([[0, 1]]), np.array([[1, 1]]), num_rel=np.array([1]))  # 1 - 1/11
    array([0.90909091])
    """
    rel, above = _nonrelevant_above(relevant, judged, k)
    cap = 10.0 + np.asarray(num_rel, dtype=np.float64)[:, None]
    terms = rel * (1.0 - np.minimum(above, cap) / cap)
    return divide(terms.sum(axis=1), num_rel)


def bpref_star(
    relevant: np.ndarray,
    judged: np.ndarray,
    *,
    num_rel: np.ndarray,
    answer_length: np.ndarray,
    k: int | None = None,
) -> np.ndarray:
    """bpref* (Serra 2007, eq. 1).

    .. math:: bpref^* = \\frac{1}{|R_q|} \\sum_{j=1}^{|R_a|} \\left(1 - \\frac{N_{nr}(j)}{|A| + |R_q|}\\right)

    :math:`|R_q|` is the number of relevant documents of the query, :math:`|A|` the length
    of the answer list (``answer_length``, at most ``k``) and :math:`N_{nr}(j)` the number
    of judged non-relevant documents ranked above the j-th relevant one retrieved.

    >>> bpref_star(np.array([[0, 1]]), np.array([[1, 1]]), num_rel=np.array([1]),
    ...            answer_length=np.array([2]))  # 1 - 1/(2 + 1)
    array([0.66666667])
    """
    rel, above = _nonrelevant_above(relevant, judged, k)
    num_rel = np.asarray(num_rel, dtype=np.float64)
    length = np.asarray(answer_length, dtype=np.float64)
    if k is not None:
        length = np.minimum(length, k)
    terms = rel * (1.0 - above / (length + num_rel)[:, None])
    return divide(terms.sum(axis=1), num_rel)
