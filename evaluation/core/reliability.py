"""A reliability study as a result object (thesis ch. 6): :func:`reliability` →
:class:`ReliabilityResult`, whose ``to_dict()`` is the document the results pages store
and the command line prints (its keys in :mod:`evaluation.core.results`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evaluation.core import stats
from evaluation.core.caveats import Caveat
from evaluation.core.jsonsafe import json_safe, number_or_none
from evaluation.core.scores import ScoreMatrix

__all__ = ["NestedReliabilityResult", "ReliabilityResult", "reliability", "reliability_nested"]


@dataclass(frozen=True, eq=False)
class ReliabilityResult:
    """G-study of the crossed systems × queries design and its D-study (ch. 6)."""

    measure: str
    n_systems: int
    n_queries: int
    g: stats.CrossedGStudy
    target: float
    curve: stats.DStudy
    needed: dict
    warnings: tuple[Caveat, ...]

    @property
    def estimable(self) -> bool:
        return not self.warnings

    def coefficient(self, value) -> float | None:
        """Eρ² or Φ, ``None`` when σ²_s is estimated as 0 (they say nothing then)."""
        return number_or_none(value) if self.estimable else None

    def to_dict(self) -> dict:
        """The reliability document (see the module), JSON-safe."""
        g = self.g
        proportions = g.proportions() if g.total > 0 else {}
        names = {
            "system": "systems (σ²_s)",
            "query": "queries (σ²_q)",
            "residual": "residual (σ²_e)",
        }
        current = stats.d_study(g, [self.n_queries])
        return json_safe(
            {
                "measure": self.measure,
                "n_systems": self.n_systems,
                "n_queries": self.n_queries,
                "components": [
                    {
                        "name": names[k],
                        "key": k,
                        "variance": getattr(g, k),
                        "proportion": proportions.get(k),
                    }
                    for k in ("system", "query", "residual")
                ],
                "mean_squares": {
                    "system": g.ms_system,
                    "query": g.ms_query,
                    "residual": g.ms_residual,
                },
                "erho2": self.coefficient(current.e_rho2[0]),
                "phi": self.coefficient(current.phi[0]),
                "target": self.target,
                "needed": dict(self.needed),
                "curve": {
                    "queries": self.curve.n_queries.astype(int).tolist(),
                    "erho2": [self.coefficient(v) for v in self.curve.e_rho2],
                    "phi": [self.coefficient(v) for v in self.curve.phi],
                },
                "warnings": [w.to_dict() for w in self.warnings],
            }
        )


def reliability(matrix: ScoreMatrix, *, target: float = 0.95, sizes=None) -> ReliabilityResult:
    """G-study (eq. 6.3) and D-study (eqs. 6.4–6.7) of a systems × queries matrix.

    ``sizes`` are the query-set sizes of the D-study curve: by default 1 to twice the
    collection's (at least 10). Eρ² and Φ are ``None`` in the document, with the warning
    ``reliability_not_estimable``, when σ²_s is estimated as 0.
    """
    g = stats.g_study(matrix)
    n_queries = len(matrix.queries)
    if sizes is None:
        sizes = np.arange(1, max(2 * n_queries, 10) + 1)
    caveat = stats.reliability_not_estimable(
        system_variance=g.system, total_variance=g.total, n_queries=n_queries
    )
    needed = {}
    for coefficient, key in (("e_rho2", "erho2"), ("phi", "phi")):
        try:
            needed[key] = stats.queries_needed(g, target=target, coefficient=coefficient)
        except ValueError:
            needed[key] = None  # no system variance: unreachable
    return ReliabilityResult(
        measure=matrix.measure,
        n_systems=len(matrix.systems),
        n_queries=n_queries,
        g=g,
        target=target,
        curve=stats.d_study(g, sorted(set(int(n) for n in sizes))),
        needed=needed,
        warnings=(caveat,) if caveat else (),
    )


NESTED_NAMES = {
    "system": "systems (σ²_s)",
    "query": "queries (σ²_q)",
    "system_query": "systems × queries (σ²_sq)",
    "assessor_query": "assessors within queries (σ²_h:q)",
    "residual": "residual (σ²_sh:q = σ²_e)",
}
NESTED_ASSESSORS = (1, 2, 3, 4, 5)
"""The assessors per query of the nested D-study curves (thesis Figure 6.5: 1 to 5)."""


@dataclass(frozen=True, eq=False)
class NestedReliabilityResult:
    """G-study of systems × (assessors nested in queries) and its D-study (§6.4)."""

    measure: str
    systems: tuple[str, ...]
    queries: tuple[str, ...]
    g: stats.NestedGStudy
    target: float
    sizes: tuple[int, ...]
    left_out: dict

    def to_dict(self) -> dict:
        """``{measure, design: "nested", n_systems, n_queries, n_assessors, components,
        erho2, phi, target, needed: {erho2, phi}, curves: [{assessors, queries, erho2,
        phi}], left_out: {query: assessors}, report}`` (eqs. 6.8–6.10)."""
        g = self.g
        proportions = g.proportions() if g.total > 0 else {}
        current = stats.d_study(g, [g.n_queries], n_assessors=g.n_assessors)
        needed = {}
        for coefficient, key in (("e_rho2", "erho2"), ("phi", "phi")):
            try:
                needed[key] = stats.queries_needed(
                    g, target=self.target, coefficient=coefficient, n_assessors=g.n_assessors
                )
            except ValueError:
                needed[key] = None
        curves = []
        for h in sorted({*NESTED_ASSESSORS, g.n_assessors}):
            d = stats.d_study(g, list(self.sizes), n_assessors=h)
            curves.append(
                {
                    "assessors": h,
                    "queries": d.n_queries.astype(int).tolist(),
                    "erho2": [number_or_none(v) for v in d.e_rho2],
                    "phi": [number_or_none(v) for v in d.phi],
                }
            )
        document = {
            "measure": self.measure,
            "design": "nested",
            "n_systems": g.n_systems,
            "n_queries": g.n_queries,
            "n_assessors": g.n_assessors,
            "components": [
                {
                    "name": NESTED_NAMES[k],
                    "key": k,
                    "variance": getattr(g, k),
                    "proportion": proportions.get(k),
                }
                for k in NESTED_NAMES
            ],
            "erho2": number_or_none(current.e_rho2[0]),
            "phi": number_or_none(current.phi[0]),
            "target": self.target,
            "needed": needed,
            "curves": curves,
            "left_out": dict(self.left_out),
        }
        document["report"] = _nested_report(document)
        return json_safe(document)


def _nested_report(d: dict) -> str:
    c = {x["key"]: x for x in d["components"]}
    share = c["assessor_query"]["proportion"]
    system = c["system"]["proportion"]
    if share is None or system is None:
        return "All variance components are 0: the study says nothing about these scores."
    return (
        f"With {d['n_assessors']} assessors per query, differences between assessors of the "
        f"same query make {100 * share:.1f} % of the variance of the scores, against "
        f"{100 * system:.1f} % for differences between systems (thesis Table 6.4)."
    )


def reliability_nested(
    scores,
    *,
    measure: str,
    systems,
    queries,
    target: float = 0.95,
    sizes=None,
    left_out: dict | None = None,
) -> NestedReliabilityResult:
    """G-study of ``scores[s, q, h]`` (eq. 6.8) and its D-study (eqs. 6.9–6.10).

    ``sizes`` are the query-set sizes of the curves (by default 1 to twice the
    collection's, at least 10); each curve is one number of assessors per query
    (:data:`NESTED_ASSESSORS` and the collection's own).
    """
    g = stats.g_study_nested(scores)
    if sizes is None:
        sizes = range(1, max(2 * g.n_queries, 10) + 1)
    return NestedReliabilityResult(
        measure=measure,
        systems=tuple(systems),
        queries=tuple(queries),
        g=g,
        target=target,
        sizes=tuple(sorted({int(n) for n in sizes})),
        left_out=dict(left_out or {}),
    )
