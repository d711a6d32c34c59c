"""Probabilistic effectiveness measures: E and Var of CG, DCG, nDCG and RBP (thesis §8.1).

With relevance a random variable (independent across pairs, :math:`E[R_d]`,
:math:`Var[R_d]` from :mod:`.estimators`), a measure with rank weights :math:`w_i`
(linear gain, thesis §8.1) is a ratio of sums:

========  ===========================  =================================================
measure   weight :math:`w_i`           normaliser
========  ===========================  =================================================
CG@k      1                            :math:`\\eta = k (n_\\mathcal{L}-1)` (8.1)–(8.2)
DCG@k     :math:`1/\\log_2(i+1)`        :math:`\\eta = \\sum_i (n_\\mathcal{L}-1) w_i` (8.3)–(8.4)
nDCG@k    :math:`1/\\log_2(i+1)`        the ideal ranking :math:`\\sum_i R_{I_i} w_i` (random)
RBP@k     :math:`p^{i-1}`              the ideal ranking (8.7)–(8.8) (``form=user``:
                                       :math:`\\sum_i (n_\\mathcal{L}-1) w_i`)
========  ===========================  =================================================

A constant normaliser gives :math:`E = \\sum_i w_i E[R_{A_i}] / \\eta` and
:math:`Var = \\sum_i w_i^2 Var[R_{A_i}] / \\eta^2`. The ideal ranking sorts every pair of
the query by :math:`E[R_d]`; numerator X and denominator Y are taken as independent
and the ratio follows the delta method (8.5)–(8.6):
:math:`E \\approx E[X]/E[Y]`,
:math:`Var \\approx Var[X]/E[Y]^2 + E[X]^2 Var[Y]/E[Y]^4`.

Differences between two systems sum over *documents* (8.9)–(8.16): a pair ranked by
both at ranks i and j contributes :math:`E[R_d](w_i - w_j)` and
:math:`Var[R_d](w_i - w_j)^2`, so shared documents cancel. For all system pairs at
once this is a quadratic form: with :math:`c_{s,d}` the (normalised) weight of d in
system s, :math:`\\sum_d Var[R_d](c_{A,d} - c_{B,d})^2 = a_A + a_B - 2 G_{AB}`,
:math:`G = C\\,\\mathrm{diag}(Var[R])\\,C^\\top`.

Means over queries (8.17)–(8.18), intervals (8.19) with the t distribution on
:math:`n_\\mathcal{Q} - 1` degrees of freedom, and the confidence in the sign of each
mean difference (8.20), :math:`C_{AB} = \\max(F_t(-E/\\sqrt{Var}), 1 - F_t(-E/\\sqrt{Var}))`
(the thesis prints :math:`F_t(E/\\sqrt{Var})` for :math:`P(\\Delta \\le 0)`; the sign is
what the definition needs, and the max is the same either way). The confidence in the
ranking is the mean over system pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import sparse, stats

from evaluation.core.lowcost.estimators import RelevanceEstimates
from evaluation.core.lowcost.ordinal import SCALE_MAX
from evaluation.core.lowcost.pool import Pool
from evaluation.core.names import Measure, parse_measure

FAMILIES = ("CG", "DCG", "nDCG", "RBP")


class UnsupportedMeasure(ValueError):
    """A measure the probabilistic framework of §8.1 does not define."""


@dataclass(frozen=True)
class MeasureSpec:
    """A measure of §8.1 as the probabilistic kernels need it."""

    label: str
    family: str
    k: int
    scale: str | None
    p: float
    ideal: bool  # normalised by the (random) ideal ranking rather than a constant

    def discount(self) -> np.ndarray:
        """Rank weights :math:`w_i`, i = 1 .. k (non-increasing)."""
        i = np.arange(1, self.k + 1, dtype=np.float64)
        if self.family == "CG":
            return np.ones(self.k)
        if self.family == "RBP":
            return self.p ** (i - 1)
        return 1.0 / np.log2(i + 1)

    def normaliser(self, top: float) -> float:
        """:math:`\\eta` of the constant-normalised measures (``top`` = n_L - 1)."""
        return float(self.discount().sum() * top)


def measure_spec(measure: str | Measure) -> MeasureSpec:
    """Check that ``measure`` (a name or a parsed :class:`Measure`) has a §8.1 definition.

    >>> measure_spec("nDCG@5").ideal
    True
    """
    m = parse_measure(measure) if isinstance(measure, str) else measure
    if m.family not in FAMILIES:
        raise UnsupportedMeasure(
            f"{m.label}: low-cost evaluation defines {', '.join(FAMILIES)} (thesis §8.1)"
        )
    if m.k is None:
        raise UnsupportedMeasure(f"{m.label}: give a cut-off, e.g. {m.family}@5")
    if m.option("gain") != "lin":
        raise UnsupportedMeasure(f"{m.label}: only the linear gain is defined (thesis §8.1)")
    if m.option("rel") is not None:
        raise UnsupportedMeasure(f"{m.label}: binary relevance (rel=) is not defined here")
    scale = m.option("scale")
    if scale not in (None, "broad", "fine"):
        raise UnsupportedMeasure(f"{m.label}: the relevance models predict broad or fine only")
    ideal = m.family == "nDCG" or (m.family == "RBP" and m.option("form") == "system")
    p = float(m.option("p")) if m.family == "RBP" else 0.0
    return MeasureSpec(m.label, m.family, int(m.k), scale, p, ideal)


@dataclass(frozen=True, eq=False)
class ExpectedScores:
    """Expected effectiveness, its variance and the confidence in the ranking.

    Attributes
    ----------
    systems, queries:
        Names, as in the pool.
    query_expectation, query_variance:
        ``(n_systems, n_queries)`` per-query :math:`E[\\Lambda_q]`, :math:`Var[\\Lambda_q]`.
    expectation, variance:
        ``(n_systems,)`` means over queries (8.17)–(8.18).
    difference, difference_variance:
        ``(n_systems, n_systems)``: :math:`E` and :math:`Var` of the mean difference
        row − column, computed document by document (8.9)–(8.16).
    confidence:
        ``(n_systems, n_systems)``: (8.20); 1 on the diagonal.
    ranking_confidence:
        Mean confidence over system pairs.
    level:
        Confidence level of the intervals (0.95).
    """

    measure: str
    systems: tuple[str, ...]
    queries: tuple[str, ...]
    query_expectation: np.ndarray
    query_variance: np.ndarray
    expectation: np.ndarray
    variance: np.ndarray
    difference: np.ndarray
    difference_variance: np.ndarray
    confidence: np.ndarray
    ranking_confidence: float
    level: float = 0.95

    @property
    def df(self) -> int:
        return max(len(self.queries) - 1, 1)

    @cached_property
    def half_width(self) -> np.ndarray:
        """:math:`t_{\\alpha} \\sqrt{Var[\\bar\\Lambda]}` of each system (8.19)."""
        t = stats.t.ppf(0.5 + self.level / 2, self.df)
        return t * np.sqrt(self.variance)

    @cached_property
    def bounds(self) -> tuple[float, float] | None:
        """[0, 1] when every per-query expectation lies in it (every measure this module
        computes is normalised so), else ``None``: no bounds known."""
        e = self.query_expectation
        return (0.0, 1.0) if bool(np.all((e >= 0) & (e <= 1))) else None

    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        """(8.19), cut at the measure's bounds.

        The t interval of (8.19) can leave [0, 1] with few queries or uncertain
        estimates (e.g. E = 0.05 ± 0.12). The mean effectiveness cannot, so the interval
        is intersected with the bounds: whenever (8.19) covers the true mean, so does the
        cut interval, and its coverage is at least (8.19)'s.

        >>> es = ExpectedScores("CG@1", ("A",), ("q1", "q2"), np.array([[0.0, 0.1]]),
        ...     np.zeros((1, 2)), np.array([0.05]), np.array([0.0036]), np.zeros((1, 1)),
        ...     np.zeros((1, 1)), np.ones((1, 1)), 1.0)
        >>> low, high = es.interval()   # t(0.975, 1 df) = 12.706; 12.706 * 0.06 = 0.7624
        >>> float(low[0]), round(float(high[0]), 4)
        (0.0, 0.8124)
        """
        low, high = self.expectation - self.half_width, self.expectation + self.half_width
        if self.bounds is None:
            return low, high
        return np.maximum(low, self.bounds[0]), np.minimum(high, self.bounds[1])

    def order(self) -> np.ndarray:
        """Systems from the highest expected score down (ties by name)."""
        return np.lexsort((np.arange(len(self.systems)), -self.expectation))

    def upper_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        return np.triu_indices(len(self.systems), k=1)

    def leaderboard(self) -> dict:
        """The estimated leaderboard as plain data (what the command line and the app show).

        ``systems``: best first by E, each with E, Var and the (8.19) interval
        (``half_width``, ``low``, ``high``, cut at the measure's bounds, ``cut`` saying
        whether it was: :meth:`interval`); ``differences``: every system pair with the
        better system by E first, its E[Δ], Var[Δ] and confidence (8.20), most confident
        first (ties by the better system's name); ``ranking_confidence``: their mean.

        >>> pool = Pool.from_rankings({"A": {"q": ["d1"]}, "B": {"q": ["d2"]}}, depth=1)
        >>> est = RelevanceEstimates(np.array([20.0, 80.0]), np.zeros(2), np.zeros(2, int),
        ...                          np.ones(2, bool), "fine")
        >>> board = expected_scores(pool, est, "CG@1").leaderboard()
        >>> [r["system"] for r in board["systems"]], board["differences"][0]["better"]
        (['B', 'A'], 'B')
        """
        low, high = self.interval()
        systems = [
            {
                "system": self.systems[s],
                "expectation": float(self.expectation[s]),
                "variance": float(self.variance[s]),
                "half_width": float(self.half_width[s]),
                "low": float(low[s]),
                "high": float(high[s]),
                "cut": bool(
                    low[s] != self.expectation[s] - self.half_width[s]
                    or high[s] != self.expectation[s] + self.half_width[s]
                ),
            }
            for s in self.order()
        ]
        pairs = [
            (int(a), int(b)) if self.difference[a, b] >= 0 else (int(b), int(a))
            for a, b in zip(*self.upper_pairs(), strict=True)
        ]
        pairs.sort(key=lambda ab: (-self.confidence[ab], self.systems[ab[0]]))
        differences = [
            {
                "better": self.systems[a],
                "worse": self.systems[b],
                "expectation": float(self.difference[a, b]),
                "variance": float(self.difference_variance[a, b]),
                "confidence": float(self.confidence[a, b]),
            }
            for a, b in pairs
        ]
        return {
            "measure": self.measure,
            "level": self.level,
            "n_queries": len(self.queries),
            "ranking_confidence": float(self.ranking_confidence),
            "systems": systems,
            "differences": differences,
        }


def confidence_in_sign(expectation, variance, df: int) -> np.ndarray:
    """(8.20): :math:`\\max(P(\\Delta \\le 0), P(\\Delta > 0))` with the t distribution.

    A difference with no variance is certain (1), unless it is exactly 0 (0.5).

    >>> confidence_in_sign(np.array([0.0, 0.1, 0.1]), np.array([1.0, 0.0, 0.01]), 99).round(4)
    array([0.5   , 1.    , 0.8401])
    """
    expectation = np.asarray(expectation, dtype=np.float64)
    sd = np.sqrt(np.maximum(np.asarray(variance, dtype=np.float64), 0.0))
    z = np.divide(np.abs(expectation), sd, out=np.full(expectation.shape, np.inf), where=sd > 0)
    out = stats.t.cdf(z, df)
    return np.where((sd == 0) & (expectation == 0), 0.5, out)


class ProbabilisticMeasure:
    """One measure of §8.1 bound to a pool: what stays fixed while estimates change."""

    def __init__(self, pool: Pool, measure: str | Measure, *, scale: str = "fine") -> None:
        self.spec = measure_spec(measure)
        if self.spec.scale is not None and self.spec.scale != scale:
            raise UnsupportedMeasure(
                f"{self.spec.label} asks for the {self.spec.scale} scale but the estimates "
                f"are on the {scale} scale"
            )
        if pool.depth < self.spec.k:
            raise ValueError(f"the pool has depth {pool.depth}, below {self.spec.label}'s cut-off")
        self.pool, self.scale = pool, scale
        self.top = SCALE_MAX[scale]
        self.w = self.spec.discount()
        ranked = pool.ranked[:, :, : self.spec.k]
        self.ranked = ranked
        s, q, r = np.nonzero(ranked >= 0)
        self.entry_system, self.entry_query, self.entry_rank = s, q, r
        self.entry_pair = ranked[s, q, r]
        self.entry_weight = self.w[r]
        self.n_systems, self.n_queries = len(pool.systems), len(pool.queries)
        self.entry_cell = s * self.n_queries + q  # (system, query) of each entry, flat

    # -- the normaliser of each query ---------------------------------------------------

    def ideal(self, estimates: RelevanceEstimates) -> tuple[np.ndarray, np.ndarray]:
        """E and Var of each query's normaliser: the ideal ranking by E[R] (or η)."""
        if not self.spec.ideal:
            eta = self.spec.normaliser(self.top)
            return np.full(self.n_queries, eta), np.zeros(self.n_queries)
        pool, k = self.pool, self.spec.k
        order = np.lexsort((-estimates.expectation, pool.pair_query))
        position = np.arange(pool.n_pairs) - pool.query_slices[pool.pair_query[order]]
        top = position < k
        chosen, rank = order[top], position[top]
        query = pool.pair_query[chosen]
        e = np.bincount(
            query, weights=self.w[rank] * estimates.expectation[chosen], minlength=self.n_queries
        )
        v = np.bincount(
            query, weights=self.w[rank] ** 2 * estimates.variance[chosen], minlength=self.n_queries
        )
        return e, v

    def scores(self, estimates: RelevanceEstimates, *, level: float = 0.95) -> ExpectedScores:
        """:class:`ExpectedScores` of every system under ``estimates``."""
        e_rel, v_rel = estimates.expectation, estimates.variance
        s, q, pair, w = self.entry_system, self.entry_query, self.entry_pair, self.entry_weight
        shape = (self.n_systems, self.n_queries)
        cell, size = self.entry_cell, self.n_systems * self.n_queries
        e_num = np.bincount(cell, weights=w * e_rel[pair], minlength=size).reshape(shape)
        v_num = np.bincount(cell, weights=w**2 * v_rel[pair], minlength=size).reshape(shape)
        e_den, v_den = self.ideal(estimates)
        inv = np.divide(1.0, e_den, out=np.zeros_like(e_den), where=e_den > 0)
        e_q = e_num * inv
        # (8.6) with Cov = 0: Var[X]/E[Y]^2 + E[X]^2 Var[Y]/E[Y]^4
        u = e_num * (np.sqrt(v_den) * inv**2)  # (n_systems, n_queries)
        v_q = v_num * inv**2 + u**2
        n_q = self.n_queries
        mean_e = e_q.mean(axis=1)
        mean_v = v_q.sum(axis=1) / n_q**2
        # pairwise: numerator part document by document, denominator part query by query
        scaled = w * inv[q]
        C = sparse.csr_matrix((scaled, (s, pair)), shape=(self.n_systems, self.pool.n_pairs))
        G = np.asarray((C.multiply(v_rel[None, :]) @ C.T).todense())
        U = u @ u.T
        a = np.diag(G) + np.diag(U)
        diff_v = (a[:, None] + a[None, :] - 2.0 * (G + U)) / n_q**2
        diff_v = np.maximum(diff_v, 0.0)
        np.fill_diagonal(diff_v, 0.0)
        diff_e = mean_e[:, None] - mean_e[None, :]
        conf = confidence_in_sign(diff_e, diff_v, max(n_q - 1, 1))
        np.fill_diagonal(conf, 1.0)
        iu = np.triu_indices(self.n_systems, k=1)
        ranking = float(conf[iu].mean()) if len(iu[0]) else 1.0
        return ExpectedScores(
            self.spec.label,
            self.pool.systems,
            self.pool.queries,
            e_q,
            v_q,
            mean_e,
            mean_v,
            diff_e,
            diff_v,
            conf,
            ranking,
            level,
        )

    def query_difference(
        self, estimates: RelevanceEstimates, a: int, b: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per-query E and Var of :math:`\\Lambda_A - \\Lambda_B` (8.11)–(8.16), summed over
        documents: shared documents at equal weights cancel."""
        e_den, v_den = self.ideal(estimates)
        inv = np.divide(1.0, e_den, out=np.zeros_like(e_den), where=e_den > 0)
        coef = np.zeros(self.pool.n_pairs)
        for system, sign in ((a, 1.0), (b, -1.0)):
            mine = self.entry_system == system
            np.add.at(coef, self.entry_pair[mine], sign * self.entry_weight[mine])
        q = self.pool.pair_query
        e_num = np.bincount(q, weights=coef * estimates.expectation, minlength=self.n_queries)
        v_num = np.bincount(q, weights=coef**2 * estimates.variance, minlength=self.n_queries)
        return e_num * inv, v_num * inv**2 + e_num**2 * v_den * inv**4

    # -- which judgment next (§8.3–8.4) ---------------------------------------------------

    def relative_weights(self, estimates: RelevanceEstimates) -> np.ndarray:
        """§8.3: :math:`w_d = \\sum_{(A,B)} |c_{A,d} - c_{B,d}|` over system pairs, divided
        by the query's expected normaliser (for nDCG and RBP; η otherwise).

        With :math:`n_{d,i}` systems ranking d at rank i (weights non-increasing in i)
        the sum is :math:`(n_S - n_d)\\sum_i n_{d,i} w_i + \\sum_{i<j} n_{d,i} n_{d,j}(w_i - w_j)`,
        linear in the pool instead of quadratic in the systems. For CG@k it is the
        number of system pairs d separates, :math:`n_d (n_S - n_d)`.
        """
        counts = self.pool.rank_counts[:, : self.spec.k].astype(np.float64)
        w = self.w
        n_d = counts.sum(axis=1)
        mass = counts * w[None, :]
        before = np.cumsum(counts, axis=1) - counts  # systems at better ranks
        after = n_d[:, None] - before - counts  # systems at worse ranks
        within = (mass * after).sum(axis=1) - (mass * before).sum(axis=1)
        total = (self.n_systems - n_d) * mass.sum(axis=1) + within
        e_den, _ = self.ideal(estimates)
        inv = np.divide(1.0, e_den, out=np.zeros_like(e_den), where=e_den > 0)
        return total * inv[self.pool.pair_query]

    def absolute_weights(
        self, estimates: RelevanceEstimates, scores: ExpectedScores, *, per: str = "query"
    ) -> np.ndarray:
        """§8.4: :math:`w_d = \\sum_{A \\ni d} Var[\\Lambda_A]`, over the systems that ranked d.

        ``per="query"`` (default, as Allcea) uses each system's variance on d's query,
        :math:`Var[\\Lambda_{q,A}]`; ``per="mean"`` the variance of its mean
        :math:`Var[\\bar\\Lambda_{\\mathcal{Q},A}]` as printed in the thesis (which cannot tell
        an uncertain document from a known one of the same systems).
        """
        s, q, pair = self.entry_system, self.entry_query, self.entry_pair
        if per == "query":
            contrib = scores.query_variance[s, q]
        elif per == "mean":
            contrib = scores.variance[s]
        else:
            raise ValueError(f"unknown per={per!r}; valid: query, mean")
        return np.bincount(pair, weights=contrib, minlength=self.pool.n_pairs)


def expected_scores(
    pool: Pool,
    estimates: RelevanceEstimates,
    measure: str | Measure,
    *,
    level: float = 0.95,
) -> ExpectedScores:
    """E and Var of every system's scores, differences and confidences (thesis §8.1).

    >>> from evaluation.core.lowcost.estimators import RelevanceEstimates
    >>> pool = Pool.from_rankings({"A": {"q": ["d1", "d2"]}, "B": {"q": ["d2", "d3"]}}, depth=2)
    >>> est = RelevanceEstimates(np.array([100.0, 50, 0]), np.array([0.0, 100, 0]),
    ...                          np.zeros(3, int), np.ones(3, bool), "fine")
    >>> scores = expected_scores(pool, est, "CG@2")
    >>> scores.expectation.round(4), float(scores.difference_variance[0, 1])  # d2 cancels
    (array([0.75, 0.25]), 0.0)
    """
    return ProbabilisticMeasure(pool, measure, scale=estimates.scale).scores(estimates, level=level)
