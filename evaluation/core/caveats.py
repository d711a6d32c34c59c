"""What a result cannot say: warnings that go with leaderboards and reliability studies.

Each warning is a :class:`Caveat` with a stable ``code`` (for programs) and a
``message`` (for people). The functions here decide from numbers alone whether a caveat
applies; they return ``None`` when it does not.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §5.1.2 (the paired tests),
ch. 6 (Generalizability Theory).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Caveat",
    "fewer_queries_than_needed",
    "letters_unavailable",
    "min_queries_for_tests",
    "reliability_not_estimable",
    "too_few_queries_for_tests",
    "unjudged_documents",
]


@dataclass(frozen=True)
class Caveat:
    """One warning: ``code`` names the kind, ``message`` says it with its numbers."""

    code: str
    message: str

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


def min_queries_for_tests(alpha: float) -> int:
    r"""The fewest queries with which a paired test can be significant at level ``alpha``.

    With :math:`n` queries the two-sided sign test (eq. 5.3) and the exact sign-flip
    permutation test (eq. 5.5) cannot give a p-value below

    .. math:: p_{\min} = 2 \cdot 2^{-n}

    (every difference of one sign, the most extreme of the :math:`2^n` sign patterns), so
    below the smallest :math:`n` with :math:`2^{1-n} < \alpha` no distribution-free test
    can reject, and the t and bootstrap tests rest on a normal or resampling
    approximation that so few values cannot support.

    >>> min_queries_for_tests(0.05), min_queries_for_tests(0.01)
    (6, 8)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    return math.floor(1 - math.log2(alpha)) + 1


def too_few_queries_for_tests(n_queries: int, *, alpha: float) -> Caveat | None:
    """A caveat when ``n_queries`` is below :func:`min_queries_for_tests` (no p-values)."""
    needed = min_queries_for_tests(alpha)
    if n_queries >= needed:
        return None
    return Caveat(
        "too_few_queries",
        f"{n_queries} judged queries are too few for significance tests: with fewer than "
        f"{needed} no paired test that does not assume normal scores can reach "
        f"p < {alpha} (the smallest two-sided p-value is 2/2^n = {2 ** (1 - n_queries):.3g}). "
        "No p-values are shown; the differences and their intervals are the data.",
    )


def fewer_queries_than_needed(
    n_queries: int, *, needed: int | None, target: float
) -> Caveat | None:
    """A caveat when the D-study (eq. 6.6) needs more queries than the collection has."""
    if needed is None or n_queries >= needed:
        return None
    return Caveat(
        "fewer_queries_than_needed",
        f"The D-study says {needed} queries are needed for Eρ² ≥ {target}; this collection "
        f"has {n_queries}, so its ranking of systems may not hold on other queries.",
    )


def unjudged_documents(
    judged: dict[str, float],
    *,
    k: int,
    n_queries: int,
    label: str,
    pool_filters: Sequence[str] = (),
    retrieved: dict[str, float] | None = None,
) -> Caveat | None:
    """A caveat naming the systems whose top ``k`` hold unjudged documents.

    ``judged`` is each system's mean ``Judged@k`` (ir_measures; the ``label`` it was
    computed as), over ``n_queries`` queries; an unjudged document scores 0, so such a
    system's score is a lower bound. ``retrieved`` is each system's mean share of its top
    ``k`` that holds a document (1 for a system it leaves out: every list ``k`` long):
    Judged@k counts the empty ranks of a shorter list as not judged, but they are no
    documents, so they are not counted here. ``pool_filters`` names the relevance
    campaigns whose pool leaves out clips by the query's artist (one reason documents
    stay unjudged).

    >>> unjudged_documents({"A": 1.0, "B": 0.9}, k=5, n_queries=2, label="Judged@5").message
    'Unjudged documents in the top 5, which score 0: B 1 of 10 (Judged@5 = 0.90).'

    Lists of 3 (``retrieved`` 3/5): A's are all judged, one of B's 6 documents is not.

    >>> unjudged_documents({"A": 0.6, "B": 0.5}, k=5, n_queries=2, label="Judged@5",
    ...                    retrieved={"A": 0.6, "B": 0.6}).message
    'Unjudged documents in the top 5, which score 0: B 1 of 6 (Judged@5 = 0.50).'
    """
    retrieved = retrieved or {}
    parts = []
    for system, value in sorted(judged.items(), key=lambda item: item[1]):
        documents = round(retrieved.get(system, 1.0) * k * n_queries)
        unjudged = documents - round(value * k * n_queries)
        if unjudged > 0:
            parts.append(f"{system} {unjudged} of {documents} ({label} = {value:.2f})")
    if not parts:
        return None
    message = f"Unjudged documents in the top {k}, which score 0: {'; '.join(parts)}."
    if pool_filters:
        names = ", ".join(f"“{name}”" for name in pool_filters)
        message += (
            f" The pool of {names} leaves out clips by the query's artist, so such clips "
            "stay unjudged."
        )
    return Caveat("unjudged_documents", message)


def letters_unavailable(error: ValueError) -> Caveat:
    """The caveat when the letter display would need too many letters to be read
    (:data:`evaluation.core.letters.MAX_LETTER_COLUMNS`)."""
    return Caveat(
        "letters_unavailable",
        f"No letters: {error}. The adjusted p-value of every pair is on the significance page.",
    )


def reliability_not_estimable(
    *, system_variance: float, total_variance: float, n_queries: int
) -> Caveat | None:
    """A caveat when Eρ² and Φ (eqs. 6.4, 6.5) cannot be estimated from the G-study.

    They are ratios of the system variance σ²_s to itself plus error; when σ²_s is
    estimated as 0 (its ANOVA estimate is negative and truncated, eq. 6.3) or there is
    no variance at all, the ratios say nothing about the collection.
    """
    if n_queries >= 2 and system_variance > 0 and total_variance > 0:
        return None
    return Caveat(
        "reliability_not_estimable",
        f"With {n_queries} queries the G-study estimates no variance between systems "
        "(σ²ₛ = 0): Eρ² and Φ cannot be estimated, and neither can the queries needed.",
    )
