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

__all__ = ["ReliabilityResult", "reliability"]


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
