"""A leaderboard and a reliability study as result objects: one document for every caller.

:func:`leaderboard` and :func:`reliability` compute on a
:class:`~evaluation.core.scores.ScoreMatrix`; their :class:`LeaderboardResult` and
:class:`ReliabilityResult` give the JSON document with ``to_dict()``. The Django layer
stores that document as a payload (``evaluation.services.leaderboards``) and the command
line prints it (``python -m evaluation.core leaderboard`` and ``reliability``), so both
name everything alike.

Leaderboard document::

    measure, n_queries, systems, queries, scores[i][j], psat[i][j] | None,
    mapping: {source, label, coefficients} | None,
    test, test_label, resamples, adjustment, alpha, seed,
    prediction_family, interval_methods, judged_label,
    rows: [{rank, system, mean, ci_low, ci_high, half_width, ci_method, pred_low,
            pred_high, pred_family, psat_floor, psat_mean, psat_low, psat_high,
            psat_half_width, psat_method, psucc, judged, letters, report}],  # best first
    pairs: [{a, b, delta, ci_low, ci_high, ci_method, p, p_adjusted, delta_psat, report}],
    warnings: [{code, message}], report
    (+ score_distributions: the results pages' and the ``leaderboard`` command's "Score
    distributions" study, :func:`evaluation.core.goodness_of_fit.leaderboard_fits`)

Reliability document (:mod:`evaluation.core.reliability`)::

    measure, n_systems, n_queries,
    components: [{name, key, variance, proportion}], mean_squares: {system, query, residual},
    erho2, phi, target, needed: {erho2, phi},
    curve: {queries, erho2, phi}, warnings: [{code, message}]

Intervals stay within what the quantity can take
(:func:`evaluation.core.bounded_intervals.mean_intervals`; ``ci_method`` says which:
eq. 4.6 or the bootstrap percentile interval). Below
:func:`evaluation.core.caveats.min_queries_for_tests` queries no p-value is given (``p``
and ``p_adjusted`` are ``None``) and every system shares the letter ``a``. Systems that
share a letter are not significantly different
(:func:`evaluation.core.letters.compact_letters`, Piepho 2004).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §4.1–4.2 (intervals, P(Sat)),
§5.6.2 (how to report), ch. 6 (Generalizability Theory).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from evaluation.core import stats
from evaluation.core.caveats import Caveat
from evaluation.core.jsonsafe import json_safe, number_or_none
from evaluation.core.names import parse_measure
from evaluation.core.reliability import ReliabilityResult, reliability
from evaluation.core.scores import ScoreMatrix
from evaluation.core.significance import RESAMPLING_TESTS, ci_method

__all__ = [
    "TEST_LABELS",
    "LeaderboardResult",
    "ReliabilityResult",
    "leaderboard",
    "leaderboard_report",
    "reliability",
]

TEST_LABELS = {
    "bootstrap": "bootstrap (shift method, eq. 5.4)",
    "permutation": "permutation (eq. 5.5)",
    "t": "paired t (eq. 5.1)",
    "wilcoxon": "Wilcoxon signed-rank (eq. 5.2)",
    "sign": "sign (eq. 5.3)",
}

Report = Callable[..., None]


def _no_report(fraction: float, message: str = "", *, force: bool = False) -> None:
    return None


def _bounds(scores: np.ndarray) -> tuple[float, float] | None:
    """[0, 1] when every score is in it (the measures the thesis uses), else none known."""
    return (0.0, 1.0) if bool(np.all((scores >= 0) & (scores <= 1))) else None


@dataclass(frozen=True, eq=False)
class LeaderboardResult:
    """The systems of one measure ranked best first, their pairs and what they cannot say."""

    measure: str
    systems: tuple[str, ...]
    queries: tuple[str, ...]
    scores: np.ndarray
    psat: np.ndarray | None
    mapping: dict | None
    test: str
    resamples: int
    adjustment: str
    alpha: float
    seed: int | None
    prediction_family: str
    judged_label: str | None
    judged_only: bool
    rows: tuple[dict, ...]
    pairs: tuple[dict, ...]
    warnings: tuple[Caveat, ...]

    def to_dict(self) -> dict:
        """The leaderboard document (see the module), JSON-safe."""
        methods = {row[k] for row in self.rows for k in ("ci_method", "psat_method") if row[k]}
        document = {
            "measure": self.measure,
            "n_queries": len(self.queries),
            "prediction_family": self.prediction_family,
            "systems": list(self.systems),
            "queries": list(self.queries),
            "scores": self.scores.tolist(),
            "psat": self.psat.tolist() if self.psat is not None else None,
            "mapping": self.mapping,
            "test": self.test,
            "test_label": TEST_LABELS.get(self.test, self.test),
            "resamples": self.resamples,
            "adjustment": self.adjustment,
            "alpha": self.alpha,
            "seed": self.seed,
            "interval_methods": sorted(methods),
            "judged_label": self.judged_label,
            "judged_only": self.judged_only,
            "rows": [dict(row) for row in self.rows],
            "pairs": [dict(pair) for pair in self.pairs],
            "warnings": [w.to_dict() for w in self.warnings],
        }
        document["report"] = leaderboard_report(document)
        return json_safe(document)


def leaderboard(
    matrix: ScoreMatrix,
    *,
    test: str = "t",
    resamples: int = 10_000,
    seed: int | None = None,
    adjustment: str = "holm",
    alpha: float = 0.05,
    mapping: dict | None = None,
    judged: dict | None = None,
    judged_only: bool = False,
    queries_needed: int | None = None,
    reliability_target: float = 0.95,
    report: Report = _no_report,
) -> LeaderboardResult:
    """The leaderboard of one measure: means, P(Sat), intervals, pairs, letters, warnings.

    Parameters
    ----------
    matrix : ScoreMatrix
        Per-query scores of one measure (systems × queries, at least 2 queries).
    test, resamples, seed, adjustment, alpha
        The paired test of every pair (:func:`evaluation.core.pairwise.all_pairs`), its
        p-values' adjustment and the level of the letters.
    mapping : dict, optional
        ``{source, label, coefficients}``: the cubic of eq. 4.3 that maps λ to P(Sat).
    judged : dict, optional
        ``{"label": "Judged(scale=fine)@5", "k": 5, "systems": {system: mean}}``:
        ir_measures' Judged@k of each system on the measure's scale and depth, and
        optionally ``pool_filters``: the relevance campaigns whose pool leaves out clips
        by the query's artist, and ``retrieved``: each system's mean share of its top k
        that holds a document (:func:`evaluation.core.caveats.unjudged_documents`).
    judged_only : bool
        Whether the scores were computed with unjudged documents left out of each list
        (trec_eval ``-J``, :func:`evaluation.core.evaluate.evaluate`); said in the document.
    queries_needed : int, optional
        What the D-study says the collection needs for ``reliability_target``.
    report : callable
        ``report(fraction, message)`` hears how far the computation is.
    """
    measure = matrix.measure
    scores = np.asarray(matrix.scores, dtype=float)
    order = np.argsort(-scores.mean(axis=1), kind="stable")
    systems = tuple(matrix.systems[i] for i in order)
    scores = scores[order]
    sat = stats.CubicMapping(*mapping["coefficients"]) if mapping else None
    psat = np.clip(sat(scores), 0.0, 1.0) if sat else None
    levels = parse_measure(measure).relevance_levels
    bounds = _bounds(scores)
    n_queries = len(matrix.queries)
    resampling = {"resamples": resamples, "seed": seed}

    report(0.1, f"{measure}: intervals")
    intervals = stats.mean_intervals(scores, bounds=bounds, **resampling)
    sat_intervals = (
        stats.mean_intervals(psat, bounds=(0.0, 1.0), **resampling) if psat is not None else None
    )
    judged_of = (judged or {}).get("systems", {})
    rows = []
    for i, system in enumerate(systems):
        ci = intervals[i]
        pred = stats.score_prediction_interval(scores[i], n_levels=levels)
        row = {
            "rank": i + 1,
            "system": system,
            "mean": ci.estimate,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "half_width": ci.margin,
            "ci_method": ci.method,
            "pred_low": pred.low,
            "pred_high": pred.high,
            "pred_family": pred.family,
            "psat_floor": None,
            "psat_mean": None,
            "psat_low": None,
            "psat_high": None,
            "psat_half_width": None,
            "psat_method": None,
            "psucc": None,
            "judged": judged_of.get(system),
        }
        lines = [stats.format_estimate(measure, ci)]
        if psat is not None:
            sat_ci = sat_intervals[i]
            row.update(
                psat_mean=sat_ci.estimate,
                psat_low=sat_ci.low,
                psat_high=sat_ci.high,
                psat_half_width=sat_ci.margin,
                psat_method=sat_ci.method,
                psucc=stats.success_probability(psat[i]),
            )
            floor = stats.satisfaction_floor(scores[i], sat, n_levels=levels)
            row["psat_floor"] = floor.value
            lines += [stats.format_estimate("P(Sat)", sat_ci), f"P(Succ) = {row['psucc']:.2f}"]
            lines.append(stats.format_satisfaction_floor(floor))
        row["report"] = "\n".join(lines)
        rows.append(row)

    tests_allowed = n_queries >= stats.min_queries_for_tests(alpha)
    pairs, letters, too_many = [], ["a"] * len(systems), None
    if len(systems) > 1:
        report(0.3, f"{measure}: {test} test on every pair")
        pairs, adjusted = _pairs(
            ScoreMatrix(measure, systems, tuple(matrix.queries), scores),
            psat=psat, test=test, resamples=resamples, seed=seed, adjustment=adjustment,
            bounded=bounds is not None, tests_allowed=tests_allowed,
        )  # fmt: skip
        try:
            letters = stats.compact_letters(stats.significant_pairs(adjusted, alpha=alpha))
        except ValueError as error:  # too tangled to read: no letters, and say so
            letters, too_many = [None] * len(systems), stats.letters_unavailable(error)
    for row, text in zip(rows, letters, strict=True):
        row["letters"] = text

    warnings = [
        too_many,
        stats.too_few_queries_for_tests(n_queries, alpha=alpha),
        stats.fewer_queries_than_needed(
            n_queries, needed=queries_needed, target=reliability_target
        ),
    ]
    if judged:
        warnings.append(
            stats.unjudged_documents(
                judged["systems"],
                k=judged["k"],
                n_queries=n_queries,
                label=judged["label"],
                pool_filters=judged.get("pool_filters", ()),
                retrieved=judged.get("retrieved"),
            )
        )
    return LeaderboardResult(
        measure=measure,
        systems=systems,
        queries=tuple(matrix.queries),
        scores=scores,
        psat=psat,
        mapping=mapping,
        test=test,
        resamples=resamples,
        adjustment=adjustment,
        alpha=alpha,
        seed=seed,
        prediction_family=stats.recommended_family(n_queries, n_levels=levels),
        judged_label=judged["label"] if judged else None,
        judged_only=judged_only,
        rows=tuple(rows),
        pairs=tuple(pairs),
        warnings=tuple(w for w in warnings if w is not None),
    )


def _pairs(ranked: ScoreMatrix, *, psat, test, resamples, seed, adjustment, bounded, tests_allowed):
    """Every pair's row and the matrix of adjusted p-values (all NaN when p-values are
    withheld). A pair's interval is its test's when eq. 4.6 would do for the pair
    (:func:`evaluation.core.bounded_intervals.mean_intervals` keeps "t"), else the
    bootstrap percentile interval of the differences, within [−1, 1]."""
    systems, scores, measure = ranked.systems, ranked.scores, ranked.measure
    comparison = stats.all_pairs(ranked, test=test, resamples=resamples, seed=seed)
    adjusted = comparison.adjusted_pvalues(adjustment)
    if not tests_allowed:  # only the data: no p-value, and no letter tells systems apart
        adjusted = np.full_like(adjusted, np.nan)
    shown_resamples = resamples if test in RESAMPLING_TESTS else None
    upper_i, upper_j = np.triu_indices(len(systems), 1)
    auto = stats.mean_intervals(
        scores[upper_i] - scores[upper_j],
        bounds=(-1.0, 1.0) if bounded else None,
        resamples=resamples,
        seed=seed,
    )
    # the pairs' numbers read once as Python floats, not pair by pair from the matrices
    delta = comparison.mean_difference[upper_i, upper_j].tolist()
    low = comparison.ci_low[upper_i, upper_j].tolist()
    high = comparison.ci_high[upper_i, upper_j].tolist()
    pvalue = comparison.pvalue[upper_i, upper_j].tolist()
    p_adjusted = adjusted[upper_i, upper_j].tolist()
    delta_psat = (psat[upper_i] - psat[upper_j]).mean(axis=1).tolist() if psat is not None else None
    method = ci_method(test)
    pairs = []
    for c, (i, j, interval) in enumerate(
        zip(upper_i.tolist(), upper_j.tolist(), auto, strict=True)
    ):
        if interval.method == "t":
            interval = stats.Interval(
                estimate=delta[c],
                low=low[c],
                high=high[c],
                margin=(high[c] - low[c]) / 2,
                confidence=comparison.confidence,
                sd=math.nan,
                n=comparison.n,
                method=method,
            )
        p = pvalue[c] if tests_allowed else None
        pairs.append(
            {
                "a": systems[i],
                "b": systems[j],
                "delta": delta[c],
                "ci_low": interval.low,
                "ci_high": interval.high,
                "ci_method": interval.method,
                "p": p,
                "p_adjusted": number_or_none(p_adjusted[c]),
                "delta_psat": delta_psat[c] if psat is not None else None,
                "report": stats.format_difference(measure, interval, p, resamples=shown_resamples),
            }
        )
    return pairs, adjusted


def leaderboard_report(document: dict) -> str:
    """The thesis-style report (§5.6.2): the best system with intervals, and its lead."""
    rows = document["rows"]
    if not rows:
        return ""
    top = rows[0]
    lines = [f"{top['system']}: " + top["report"].replace("\n", ", ")]
    if document["pairs"]:
        lead = next(
            p for p in document["pairs"] if {p["a"], p["b"]} == {top["system"], rows[1]["system"]}
        )
        text = f"{lead['a']} − {lead['b']}: {lead['report']}"
        if lead["p_adjusted"] is not None:
            resamples = document["resamples"] if document["test"] in RESAMPLING_TESTS else None
            adjusted = stats.format_pvalue(lead["p_adjusted"], resamples=resamples)
            text += f", {document['adjustment']}-adjusted {adjusted}"
        if lead["delta_psat"] is not None:
            text += f", ΔP(Sat) = {lead['delta_psat']:.4f}"
        lines.append(text)
        if lead["p"] is not None:
            lines.append(
                f"Systems that share a letter are not significantly different at "
                f"α = {document['alpha']} ({document['test']} test, "
                f"{document['n_queries']} queries)."
            )
    return "\n".join(lines)
