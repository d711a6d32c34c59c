"""Relevance estimates E[R] and Var[R] of every pair of a pool (thesis §7.1–7.2, §7.4).

A judged pair has :math:`E[R_d] = r_d` and :math:`Var[R_d] = 0` (§7.1). An unjudged one
gets the first estimate of a chain that applies to it:

``mjud``        M_jud (needs fSYS, aSYS and aART) → M_out → the fixed distribution
``mout``        M_out (needs fSYS, OV, fART, sGEN, fGEN) → the fixed distribution
``historical``  the MIREX 2007–2011 distribution (§7.2.1)
``uniform``     every level equally likely (§7.2.1)

(the order of §7.4; the fixed distribution is ``historical`` unless ``fallback`` says
``uniform``, which is what Allcea falls back to).

:class:`RelevanceEstimator` computes the output-based features and the M_out estimates
once, so re-estimating as judgments arrive costs only the judgment-based features and
one M_jud evaluation (what the simulation and a live campaign do every few judgments).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from evaluation.core.lowcost.features import judgment_features, output_features
from evaluation.core.lowcost.models import HISTORICAL, M_JUD, M_OUT, UNIFORM
from evaluation.core.lowcost.ordinal import OrdinalModel, check_scale
from evaluation.core.lowcost.pool import Metadata, Pool

ESTIMATORS = ("mjud", "mout", "historical", "uniform")
#: Names of :attr:`RelevanceEstimates.source` codes.
SOURCES = ("judged", "M_jud", "M_out", "historical", "uniform")


@dataclass(frozen=True, eq=False)
class RelevanceEstimates:
    """E[R] and Var[R] of every pair, and where each came from.

    Attributes
    ----------
    expectation, variance:
        ``(n_pairs,)`` on the scale's values (Broad 0–2, Fine 0–100).
    source:
        ``(n_pairs,)`` index into :data:`SOURCES`.
    judged:
        ``(n_pairs,)`` True where the pair is judged.
    scale:
        ``broad`` or ``fine``.
    """

    expectation: np.ndarray
    variance: np.ndarray
    source: np.ndarray
    judged: np.ndarray
    scale: str

    def with_judgment(self, pair: int, value: float) -> RelevanceEstimates:
        """A copy where ``pair`` is judged ``value`` (E = value, Var = 0)."""
        return self.with_judgments([pair], [value])

    def with_judgments(self, pairs, values) -> RelevanceEstimates:
        """A copy where each of ``pairs`` is known to be the matching ``values``
        (E = value, Var = 0, §7.1), e.g. pairs that will never be judged and count as
        not relevant, as trec_eval counts unjudged documents.

        >>> est = RelevanceEstimates(np.array([40.0, 60.0]), np.array([9.0, 4.0]),
        ...                          np.array([2, 2]), np.array([False, False]), "fine")
        >>> known = est.with_judgments([1], [0.0])
        >>> known.expectation.tolist(), known.variance.tolist(), known.judged.tolist()
        ([40.0, 0.0], [9.0, 0.0], [False, True])
        """
        pairs = np.asarray(pairs, dtype=np.int64)
        values = np.broadcast_to(np.asarray(values, dtype=np.float64), pairs.shape)
        e, v, s, j = (a.copy() for a in (self.expectation, self.variance, self.source, self.judged))
        e[pairs], v[pairs], s[pairs], j[pairs] = values, 0.0, 0, True
        return RelevanceEstimates(e, v, s, j, self.scale)

    def counts(self) -> dict[str, int]:
        """How many pairs each source estimated."""
        found = np.bincount(self.source, minlength=len(SOURCES))
        return {name: int(n) for name, n in zip(SOURCES, found, strict=True) if n}


class RelevanceEstimator:
    """The estimator chain of §7.4 bound to one pool, its metadata and a scale.

    ``models`` may replace the published ``{"M_out": ..., "M_jud": ...}`` of Table A.1
    (e.g. models fitted with :func:`~.ordinal.fit_model` on a complete collection).
    """

    def __init__(
        self,
        pool: Pool,
        metadata: Metadata | None = None,
        *,
        scale: str = "fine",
        estimator: str = "mjud",
        fallback: str = "historical",
        models: Mapping[str, OrdinalModel] | None = None,
        teams: Mapping[str, str] | None = None,
    ) -> None:
        self.scale = check_scale(scale)
        if estimator not in ESTIMATORS:
            raise ValueError(f"unknown estimator {estimator!r}; valid: {', '.join(ESTIMATORS)}")
        if fallback not in ("historical", "uniform"):
            raise ValueError(f"unknown fallback {fallback!r}; valid: historical, uniform")
        self.pool, self.metadata = pool, metadata or Metadata.empty()
        self.estimator = estimator
        models = dict(models or {})
        self.m_out = models.get("M_out", M_OUT[scale])
        self.m_jud = models.get("M_jud", M_JUD[scale])
        for model in (self.m_out, self.m_jud):
            if model.scale != scale:
                raise ValueError(f"model {model.name} is for the {model.scale} scale, not {scale}")
        fixed_name = estimator if estimator in ("historical", "uniform") else fallback
        fixed = (HISTORICAL if fixed_name == "historical" else UNIFORM)[scale]
        self.features = output_features(pool, self.metadata, teams=teams)
        n = pool.n_pairs
        self._base_e = np.full(n, fixed.expectation)
        self._base_v = np.full(n, fixed.variance)
        self._base_s = np.full(n, SOURCES.index(fixed_name), dtype=np.int64)
        if estimator in ("mjud", "mout"):
            X = self.m_out.design(self.features)
            ok = ~np.isnan(X).any(axis=1)
            if ok.any():
                self._base_e[ok], self._base_v[ok] = self.m_out.moments(X[ok])
                self._base_s[ok] = SOURCES.index("M_out")

    def judgment_features(self, judged: np.ndarray) -> dict[str, np.ndarray]:
        return judgment_features(self.pool, judged, self.metadata)

    def estimate(self, judged: np.ndarray | None = None) -> RelevanceEstimates:
        """Estimates given ``judged`` (``(n_pairs,)`` judged values, NaN where unjudged)."""
        n = self.pool.n_pairs
        judged = np.full(n, np.nan) if judged is None else np.asarray(judged, dtype=np.float64)
        if judged.shape != (n,):
            raise ValueError(f"expected {n} judged values (one per pair), got {judged.shape}")
        e, v, s = self._base_e.copy(), self._base_v.copy(), self._base_s.copy()
        is_judged = ~np.isnan(judged)
        if self.estimator == "mjud" and is_judged.any():
            features = {**self.features, **self.judgment_features(judged)}
            X = self.m_jud.design(features)
            ok = ~np.isnan(X).any(axis=1) & ~is_judged
            if ok.any():
                e[ok], v[ok] = self.m_jud.moments(X[ok])
                s[ok] = SOURCES.index("M_jud")
        e[is_judged], v[is_judged], s[is_judged] = judged[is_judged], 0.0, 0
        return RelevanceEstimates(e, v, s, is_judged, self.scale)


def estimate_relevance(
    pool: Pool,
    judged: np.ndarray | None = None,
    metadata: Metadata | None = None,
    *,
    scale: str = "fine",
    estimator: str = "mjud",
    fallback: str = "historical",
    models: Mapping[str, OrdinalModel] | None = None,
    teams: Mapping[str, str] | None = None,
) -> RelevanceEstimates:
    """E[R] and Var[R] of every pair of ``pool`` (thesis §7.1–7.2; chain of §7.4).

    ``judged`` is ``(n_pairs,)`` with the known judgments and NaN elsewhere
    (:meth:`Pool.judgments` builds it from qrels).
    """
    return RelevanceEstimator(
        pool,
        metadata,
        scale=scale,
        estimator=estimator,
        fallback=fallback,
        models=models,
        teams=teams,
    ).estimate(judged)
