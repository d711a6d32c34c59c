"""Generalizability Theory for test-collection reliability (thesis ch. 6).

A G-study estimates variance components from an existing collection by ANOVA; a
D-study turns them into the reliability of collections of other sizes: the
generalizability coefficient Eρ² (stability of differences between systems) and the
index of dependability Φ (stability of absolute scores), and the number of queries
needed to reach a target.

Two designs:

* crossed systems × queries, :math:`s \\times q` (eqs. 6.1–6.7), one score per cell;
* systems × (assessors nested in queries), :math:`s \\times (h:q)` (eqs. 6.8–6.10), a
  score per system, query and assessor, where the assessors of one query need not be
  those of another.

Negative variance estimates are set to 0 (Brennan 2001). They are set to 0 after all
components have been estimated from the mean squares, i.e. a negative estimate is not
fed back into the others (Brennan's convention, not Cronbach et al.'s algorithm).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, ch. 6. PhD thesis.
http://hdl.handle.net/10016/18041

R. L. Brennan (2001). *Generalizability Theory*. Springer.
https://doi.org/10.1007/978-1-4757-3456-0

D. Bodoff, P. Li (2007). Test theory for assessing IR test collections. SIGIR.
https://doi.org/10.1145/1277741.1277800
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evaluation.core.scores import ScoreMatrix

__all__ = [
    "CrossedGStudy",
    "DStudy",
    "NestedGStudy",
    "d_study",
    "g_study",
    "g_study_nested",
    "queries_needed",
]


@dataclass(frozen=True)
class CrossedGStudy:
    r"""Variance components of the crossed :math:`s \times q` design (eqs. 6.2–6.3).

    ``system`` :math:`\hat\sigma^2_s`, ``query`` :math:`\hat\sigma^2_q`, ``residual``
    :math:`\hat\sigma^2_e = \hat\sigma^2_{sq}` (interaction confounded with error), each
    clipped at 0; ``raw_*`` keep the unclipped estimates. ``ms_*`` are the mean squares.
    """

    system: float
    query: float
    residual: float
    n_systems: int
    n_queries: int
    ms_system: float
    ms_query: float
    ms_residual: float
    raw_system: float
    raw_query: float

    @property
    def total(self) -> float:
        return self.system + self.query + self.residual

    def proportions(self) -> dict[str, float]:
        """Each component over their sum, as in thesis Table 6.1."""
        t = self.total
        return {
            "system": self.system / t,
            "query": self.query / t,
            "residual": self.residual / t,
        }


@dataclass(frozen=True)
class NestedGStudy:
    r"""Variance components of the :math:`s \times (h:q)` design (eq. 6.8), clipped at 0.

    ``system`` :math:`\sigma^2_s`, ``query`` :math:`\sigma^2_q`, ``system_query``
    :math:`\sigma^2_{sq}`, ``assessor_query`` :math:`\sigma^2_{h:q}` and ``residual``
    :math:`\sigma^2_{sh:q} = \sigma^2_e`.
    """

    system: float
    query: float
    system_query: float
    assessor_query: float
    residual: float
    n_systems: int
    n_queries: int
    n_assessors: int

    @property
    def total(self) -> float:
        return self.system + self.query + self.system_query + self.assessor_query + self.residual

    def proportions(self) -> dict[str, float]:
        """Each component over their sum, as in thesis Table 6.4."""
        t = self.total
        return {
            "system": self.system / t,
            "query": self.query / t,
            "system_query": self.system_query / t,
            "assessor_query": self.assessor_query / t,
            "residual": self.residual / t,
        }


@dataclass(frozen=True, eq=False)
class DStudy:
    """Eρ² and Φ for each number of queries (and assessors): curves over ``n_queries``."""

    n_queries: np.ndarray
    n_assessors: int
    e_rho2: np.ndarray
    phi: np.ndarray


def _matrix(scores) -> np.ndarray:
    X = np.asarray(scores.scores if isinstance(scores, ScoreMatrix) else scores, dtype=float)
    if not np.all(np.isfinite(X)):
        raise ValueError("scores contain NaN or infinite values")
    return X


def g_study(scores: ScoreMatrix | np.ndarray) -> CrossedGStudy:
    r"""G-study of the crossed systems × queries design (thesis eq. 6.3).

    From the two-way ANOVA mean squares,

    .. math::

        \hat\sigma^2_{sq} = \hat\sigma^2_e = MS_{residual},\qquad
        \hat\sigma^2_s = \frac{MS_s - \hat\sigma^2_e}{n_q},\qquad
        \hat\sigma^2_q = \frac{MS_q - \hat\sigma^2_e}{n_s}
        \qquad\text{(Urbano 2013, eq. 6.3)}

    Parameters
    ----------
    scores : ScoreMatrix or array_like, systems × queries

    Examples
    --------
    >>> g = g_study([[0.1, 0.5, 0.3], [0.2, 0.7, 0.3], [0.4, 0.6, 0.5]])
    >>> round(g.system, 4), round(g.query, 4), round(g.residual, 4)
    (0.0072, 0.0317, 0.0083)
    """
    X = _matrix(scores)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 2:
        raise ValueError(f"need a systems × queries matrix with at least 2 of each, got {X.shape}")
    ns, nq = X.shape
    grand = X.mean()
    row = X.mean(axis=1)
    col = X.mean(axis=0)
    ms_s = nq * float(((row - grand) ** 2).sum()) / (ns - 1)
    ms_q = ns * float(((col - grand) ** 2).sum()) / (nq - 1)
    resid = X - row[:, None] - col[None, :] + grand
    ms_e = float((resid**2).sum()) / ((ns - 1) * (nq - 1))
    s = (ms_s - ms_e) / nq
    q = (ms_q - ms_e) / ns
    return CrossedGStudy(
        system=max(s, 0.0),
        query=max(q, 0.0),
        residual=max(ms_e, 0.0),
        n_systems=ns,
        n_queries=nq,
        ms_system=ms_s,
        ms_query=ms_q,
        ms_residual=ms_e,
        raw_system=s,
        raw_query=q,
    )


def g_study_nested(scores) -> NestedGStudy:
    r"""G-study of systems × (assessors nested in queries), :math:`s \times (h:q)` (eq. 6.8).

    ``scores[s, q, h]`` is system s on query q as judged by the h-th assessor of q.
    With the mean squares of the nested ANOVA (Brennan 2001),

    .. math::

        \hat\sigma^2_{sh:q} &= \hat\sigma^2_e = MS_{residual}\\
        \hat\sigma^2_{sq} &= \frac{MS_{sq} - \hat\sigma^2_{sh:q}}{n_h}\\
        \hat\sigma^2_{h:q} &= \frac{MS_{h:q} - \hat\sigma^2_{sh:q}}{n_s}\\
        \hat\sigma^2_q &= \frac{MS_q - n_h\hat\sigma^2_{sq} - n_s\hat\sigma^2_{h:q}
                               - \hat\sigma^2_{sh:q}}{n_s n_h}\\
        \hat\sigma^2_s &= \frac{MS_s - n_h\hat\sigma^2_{sq} - \hat\sigma^2_{sh:q}}{n_h n_q}
        \qquad\text{(Urbano 2013, eq. 6.8)}
    """
    X = _matrix(scores)
    if X.ndim != 3 or min(X.shape) < 2:
        raise ValueError(
            f"need systems × queries × assessors with at least 2 of each, got {X.shape}"
        )
    ns, nq, nh = X.shape
    g = X.mean()
    m_s = X.mean(axis=(1, 2))
    m_q = X.mean(axis=(0, 2))
    m_sq = X.mean(axis=2)
    m_hq = X.mean(axis=0)  # q × h
    ss_s = nq * nh * float(((m_s - g) ** 2).sum())
    ss_q = ns * nh * float(((m_q - g) ** 2).sum())
    ss_hq = ns * float(((m_hq - m_q[:, None]) ** 2).sum())
    ss_sq = nh * float(((m_sq - m_s[:, None] - m_q[None, :] + g) ** 2).sum())
    resid = X - m_sq[:, :, None] - m_hq[None, :, :] + m_q[None, :, None]
    ss_e = float((resid**2).sum())
    ms_s = ss_s / (ns - 1)
    ms_q = ss_q / (nq - 1)
    ms_hq = ss_hq / (nq * (nh - 1))
    ms_sq = ss_sq / ((ns - 1) * (nq - 1))
    ms_e = ss_e / ((ns - 1) * nq * (nh - 1))
    e = ms_e
    sq = (ms_sq - e) / nh
    hq = (ms_hq - e) / ns
    q = (ms_q - nh * sq - ns * hq - e) / (ns * nh)
    s = (ms_s - nh * sq - e) / (nh * nq)
    return NestedGStudy(
        system=max(s, 0.0),
        query=max(q, 0.0),
        system_query=max(sq, 0.0),
        assessor_query=max(hq, 0.0),
        residual=max(e, 0.0),
        n_systems=ns,
        n_queries=nq,
        n_assessors=nh,
    )


def _errors(g, n_assessors: int) -> tuple[float, float]:
    """Relative and absolute error variances per query (multiply by 1/n'_q)."""
    if isinstance(g, NestedGStudy):
        rel = g.system_query + g.residual / n_assessors
        ab = g.query + g.system_query + (g.assessor_query + g.residual) / n_assessors
        return rel, ab
    if n_assessors != 1:
        raise ValueError("the crossed design has no assessor facet; use n_assessors=1")
    return g.residual, g.query + g.residual


def d_study(g: CrossedGStudy | NestedGStudy, n_queries=None, *, n_assessors: int = 1) -> DStudy:
    r"""D-study: Eρ² and Φ for ``n_queries`` queries (and ``n_assessors`` per query).

    Crossed design (eqs. 6.4, 6.5):

    .. math::

        E\rho^2(n'_q) = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_e / n'_q},\qquad
        \Phi(n'_q) = \frac{\sigma^2_s}{\sigma^2_s + (\sigma^2_q + \sigma^2_e)/n'_q}

    Nested design (eq. 6.10):

    .. math::

        E\rho^2(n'_q, n'_h) = \frac{\sigma^2_s}{\sigma^2_s + \frac{\sigma^2_{sq}}{n'_q}
                              + \frac{\sigma^2_{sh:q}}{n'_q n'_h}},\qquad
        \Phi(n'_q, n'_h) = \frac{\sigma^2_s}{\sigma^2_s + \frac{\sigma^2_q + \sigma^2_{sq}}{n'_q}
                           + \frac{\sigma^2_{h:q} + \sigma^2_{sh:q}}{n'_q n'_h}}

    ``n_queries`` is a number or a sequence (a curve); by default 1 … 2·n_q of the
    G-study. When all components are 0 the coefficients are NaN.
    """
    if n_queries is None:
        n_queries = np.arange(1, 2 * g.n_queries + 1)
    nq = np.atleast_1d(np.asarray(n_queries, dtype=float))
    if np.any(nq <= 0) or n_assessors < 1:
        raise ValueError("numbers of queries and assessors must be positive")
    rel, ab = _errors(g, n_assessors)
    s = g.system
    with np.errstate(divide="ignore", invalid="ignore"):
        e_rho2 = s / (s + rel / nq)
        phi = s / (s + ab / nq)
    return DStudy(nq, n_assessors, e_rho2, phi)


def queries_needed(
    g: CrossedGStudy | NestedGStudy,
    *,
    target: float = 0.95,
    coefficient: str = "e_rho2",
    n_assessors: int = 1,
) -> int:
    r"""Fewest queries for Eρ² or Φ to reach ``target`` (eqs. 6.6, 6.7).

    .. math::

        n'_{E\rho^2}(\pi) = \left\lceil \frac{\pi\,\sigma^2_e}{\sigma^2_s(1-\pi)} \right\rceil,
        \qquad
        n'_{\Phi}(\pi) = \left\lceil \frac{\pi(\sigma^2_q + \sigma^2_e)}{\sigma^2_s(1-\pi)}
        \right\rceil
        \qquad\text{(Urbano 2013, eqs. 6.6–6.7)}

    For the nested design the error variances of eq. (6.10) replace
    :math:`\sigma^2_e` and :math:`\sigma^2_q + \sigma^2_e`. At least 1.

    Raises
    ------
    ValueError
        If there is no system variance, so no number of queries reaches the target.
    """
    if not 0 < target < 1:
        raise ValueError(f"target must be in (0, 1), got {target}")
    rel, ab = _errors(g, n_assessors)
    if coefficient == "e_rho2":
        err = rel
    elif coefficient == "phi":
        err = ab
    else:
        raise ValueError("coefficient must be 'e_rho2' or 'phi'")
    if g.system <= 0:
        raise ValueError("the system variance is 0: no number of queries reaches the target")
    n = target * err / (g.system * (1 - target))
    # guard against 31.999999 → 32 when the exact value is an integer
    return max(1, math.ceil(round(n, 9)))
