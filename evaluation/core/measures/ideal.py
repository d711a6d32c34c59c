"""Ideal rankings: what separates the user- and system-oriented form of a measure.

Every measure with two forms is computed by one kernel that takes the ideal ranking
as input (thesis §3.1.1 and §5.2.1):

``form="user"`` (thesis ch. 3)
    The ideal is *k documents of maximal relevance* :math:`\\langle n_\\mathcal{L} - 1,
    \\dots, n_\\mathcal{L} - 1 \\rangle`, independent of the judgments, so a score of 1
    means the user got k perfect documents.
``form="system"`` (thesis ch. 5)
    The ideal :math:`I` is the known judgments sorted by decreasing relevance, so a
    score of 1 means the system did the best the collection allows.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures._matrix import top

FORMS = ("system", "user")


def ideal_levels(
    judged_levels: np.ndarray, *, k: int, form: str = "system", top_level: float = 1.0
) -> np.ndarray:
    """The ``(n_queries, k)`` relevance levels of the ideal ranking of each query.

    Parameters
    ----------
    judged_levels:
        ``(n_queries, n)`` levels of every judged document of each query, sorted
        decreasingly and padded with 0 (only used by the system form).
    k:
        Cut-off.
    form:
        ``"system"`` (the judgments sorted) or ``"user"`` (k documents of ``top_level``).
    top_level:
        :math:`n_\\mathcal{L} - 1`.

    >>> ideal_levels(np.array([[2., 1., 0.]]), k=2)
    array([[2., 1.]])
    >>> ideal_levels(np.array([[2., 1., 0.]]), k=2, form="user", top_level=3)
    array([[3., 3.]])
    """
    judged_levels = np.asarray(judged_levels, dtype=np.float64)
    if form == "user":
        return np.full((judged_levels.shape[0], k), float(top_level))
    if form != "system":
        raise ValueError(f"unknown form {form!r}; valid: {', '.join(FORMS)}")
    return top(-np.sort(-judged_levels, axis=1), k)
