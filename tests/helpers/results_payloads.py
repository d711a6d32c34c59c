"""Stored results for page tests: payloads shaped like evaluation.services.leaderboards' output.

The numbers are made up (the pages only read what was stored); the services' own tests
check real numbers against the numerical core. :func:`store_results` stores them the way
a recompute does (:func:`evaluation.services.leaderboard_store.leaderboard_store`), so the
parts the pages read are there too.
"""

from __future__ import annotations

from django.utils import timezone

from catalog.models import System
from evaluation.models import Leaderboard, ReliabilityStudy
from evaluation.services.leaderboard_store import leaderboard_store

MEASURE = "CG(scale=fine)@5"


def _row(rank, system, mean, group):
    return {
        "rank": rank, "system": system, "mean": mean, "ci_low": mean - 0.05, "ci_high": mean + 0.05,
        "half_width": 0.05, "pred_low": max(0.0, mean - 0.4), "pred_high": min(1.0, mean + 0.4),
        "pred_family": "empirical", "psat_floor": round(mean - 0.3, 2),
        "psat_mean": mean + 0.1, "psat_low": mean + 0.06, "psat_high": mean + 0.14,
        "psat_half_width": 0.04, "psucc": round(mean, 2), "group": group,
        "group_label": "ab"[group - 1], "group_parity": (group - 1) % 2,
        "report": f"{MEASURE} = {mean:.4f} ± 0.0500\nP(Sat) = {mean + 0.1:.4f} ± 0.0400\n"
        f"95% of future queries are expected to get P(Sat) > {mean - 0.3:.2f}",
    }  # fmt: skip


SYSTEMS = ("Alpha", "Beta", "Gamma")


def leaderboard_payload(systems: tuple[str, str, str] = SYSTEMS) -> dict:
    alpha, beta, gamma = systems
    rows = [_row(1, alpha, 0.6, 1), _row(2, beta, 0.55, 1), _row(3, gamma, 0.2, 2)]
    scores = [[0.5, 0.7], [0.5, 0.6], [0.1, 0.3]]
    pair = lambda a, b, d, p: {  # noqa: E731
        "a": a, "b": b, "delta": d, "ci_low": d - 0.03, "ci_high": d + 0.03, "p": p,
        "p_adjusted": min(1.0, 3 * p), "delta_psat": d * 0.9,
        "report": f"Δ{MEASURE} = {d:.4f} ± 0.0300 (p={p:.3f})",
    }  # fmt: skip
    return {
        "measure": MEASURE,
        "n_queries": 2,
        "prediction_family": "empirical",
        "systems": list(systems),
        "queries": ["q1", "q2"],
        "scores": scores,
        "psat": [[s + 0.1 for s in r] for r in scores],
        "mapping": {
            "source": "published",
            "label": "the published mapping of thesis Table 4.3 for CG_l@5 (fine)",
            "coefficients": [0.2007, -0.4632, 3.6754, -2.6338],
        },
        "test": "bootstrap",
        "test_label": "bootstrap (shift method, eq. 5.4)",
        "resamples": 10000,
        "adjustment": "holm",
        "alpha": 0.05,
        "seed": 1,
        "rows": rows,
        "pairs": [
            pair(alpha, beta, 0.05, 0.3),
            pair(alpha, gamma, 0.4, 0.001),
            pair(beta, gamma, 0.35, 0.002),
        ],
        "groups": [[alpha, beta], [gamma]],
        "report": f"{alpha}: CG(scale=fine)@5 = 0.6000 ± 0.0500",
    }


def reliability_payload() -> dict:
    queries = list(range(1, 11))
    return {
        "measure": MEASURE,
        "n_systems": 3,
        "n_queries": 2,
        "prediction_family": "empirical",
        "components": [
            {"name": "systems (σ²_s)", "key": "system", "variance": 0.02, "proportion": 0.5},
            {"name": "queries (σ²_q)", "key": "query", "variance": 0.01, "proportion": 0.25},
            {"name": "residual (σ²_e)", "key": "residual", "variance": 0.01, "proportion": 0.25},
        ],
        "erho2": 0.8,
        "phi": 0.667,
        "target": 0.95,
        "needed": {"erho2": 10, "phi": 19},
        "curve": {
            "queries": queries,
            "erho2": [0.02 / (0.02 + 0.01 / n) for n in queries],
            "phi": [0.02 / (0.02 + 0.02 / n) for n in queries],
        },
    }


def store_results(collection, systems: tuple[str, str, str] = SYSTEMS) -> Leaderboard:
    """Stored results of ``systems`` (created in the collection if missing)."""
    for name in systems:
        System.objects.get_or_create(collection=collection, name=name)
    now = timezone.now()
    ReliabilityStudy.objects.create(
        collection=collection, measure=MEASURE, payload=reliability_payload(), computed_at=now
    )
    return leaderboard_store(
        collection=collection,
        measure=MEASURE,
        payload=leaderboard_payload(systems),
        computed_at=now,
    )
