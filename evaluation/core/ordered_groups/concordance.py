"""Agreement between experts who each ranked the same candidates: Kendall's W.

The coefficient of concordance of :math:`m` complete rankings of :math:`n` candidates
without ties (Kendall and Babington Smith 1939, eq. (1); Kendall and Gibbons 1990,
ch. 6): with :math:`R_i` the sum of the ranks candidate :math:`i` got,

.. math::

    W = \\frac{12\\,S}{m^2 (n^3 - n)}, \\qquad
    S = \\sum_{i=1}^{n} \\left(R_i - \\frac{m (n + 1)}{2}\\right)^2 ,

1 when every expert gave the same order, 0 when the rank sums are all equal (no common
order at all). Its test of "no agreement" is Friedman's: :math:`\\chi^2 = m (n - 1) W`
with :math:`n - 1` degrees of freedom (Friedman 1937), the statistic
``scipy.stats.friedmanchisquare`` computes from the same ranks.

Earshot's expert-ranking campaigns (``relevance``: each assessor orders every candidate
of a query, strictly) give exactly such rankings; the campaign page shows W per query.

References
    M. G. Kendall, B. Babington Smith, "The problem of m rankings", Ann. Math. Statist.
    10(3):275–287, 1939, doi:10.1214/aoms/1177732186. M. Friedman, "The use of ranks to
    avoid the assumption of normality implicit in the analysis of variance", J. Amer.
    Statist. Assoc. 32(200):675–701, 1937, doi:10.1080/01621459.1937.10503522.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Concordance:
    """Kendall's W of ``experts`` rankings of ``candidates``, with Friedman's test."""

    w: float
    experts: int
    candidates: int
    chi2: float
    pvalue: float


def kendalls_w(rankings: Sequence[Sequence[str]]) -> Concordance | None:
    """Kendall's W of complete strict rankings, each the candidates best first.

    Every ranking must hold the same candidates, each once. None when there are fewer
    than two rankings or two candidates (nothing to agree on).

    >>> kendalls_w(["abc", "abc", "acb"]).w  # rank sums 3, 7, 8; S = 14; 12·14/(9·24)
    0.7777777777777778
    """
    if len(rankings) < 2 or len(rankings[0]) < 2:
        return None
    candidates = sorted(rankings[0])
    if len(set(candidates)) != len(candidates):
        raise ValueError("a ranking names a candidate twice")
    position = {doc: i for i, doc in enumerate(candidates)}
    m, n = len(rankings), len(candidates)
    ranks = np.zeros((m, n))
    for e, ranking in enumerate(rankings):
        if sorted(ranking) != candidates:
            raise ValueError(f"ranking {e + 1} does not hold the same candidates as the first")
        for rank, doc in enumerate(ranking, start=1):
            ranks[e, position[doc]] = rank
    sums = ranks.sum(axis=0)
    s = float(((sums - m * (n + 1) / 2.0) ** 2).sum())
    w = 12.0 * s / (m * m * (n**3 - n))
    chi2 = m * (n - 1) * w
    from scipy import stats  # here: the plain evaluate command loads no scipy

    return Concordance(
        w=w, experts=m, candidates=n, chi2=chi2, pvalue=float(stats.chi2.sf(chi2, n - 1))
    )
