"""Leaderboards and reliability studies of a collection, computed with the numerical core.

Everything numerical comes from :mod:`evaluation.core` (``evaluate`` for the scores,
``evaluation.core.stats`` for intervals, tests, mappings and Generalizability Theory);
this module only arranges inputs and stores outputs as JSON payloads.

Leaderboard payload (what the exports and the API give; the pages read the parts
:mod:`evaluation.services.leaderboard_store` splits from it when it is stored)::

    measure, n_queries, systems, queries, scores[i][j], psat[i][j] | None,
    mapping: {source: "published" | "campaign", label, coefficients} | None,
    judgment_sources: {used: [name, ...], left_out: [name, ...], consolidation},
    test, test_label, resamples, adjustment, alpha, seed,
    prediction_family, interval_methods, judged_label,
    rows: [{rank, system, mean, ci_low, ci_high, half_width, ci_method, psat_mean,
            psat_low, psat_high, psat_half_width, psat_method, psucc, pred_low, pred_high,
            pred_family, psat_floor, judged, letters, report}],   # best first
    pairs: [{a, b, delta, ci_low, ci_high, ci_method, p, p_adjusted, delta_psat, report}],
    warnings: [{code, message}], report

Intervals stay within what the quantity can take
(:func:`evaluation.core.bounded_intervals.mean_intervals`, ``ci_method`` says which:
eq. 4.6 or the bootstrap percentile interval). Below
:func:`evaluation.core.caveats.min_queries_for_tests` queries no p-value is given (``p``
and ``p_adjusted`` are ``None``). Systems that share a letter are not significantly
different (:func:`evaluation.core.letters.compact_letters`, Piepho 2004). Leaderboards
stored before these keys existed have ``group``/``group_label`` instead of ``letters``
and no ``warnings``; the pages and exports read both. The measured mapping used for
P(Sat) is a campaign's own or the published one of Table 4.3
(:func:`evaluation.core.published_mappings.published_mapping_for`).
"""

from __future__ import annotations

import math

import numpy as np
from django.db import transaction
from django.utils import timezone

from evaluation.core import evaluate, stats
from evaluation.core.jsonsafe import json_safe
from evaluation.core.names import parse_measure
from evaluation.core.published_mappings import published_mapping_for
from evaluation.core.scores import ScoreMatrix
from evaluation.core.significance import RESAMPLING_TESTS
from evaluation.core.trec import Qrels, Run
from evaluation.models import ReliabilityStudy, ResultsConfig
from evaluation.selectors import CollectionRuns, QrelsRecord
from evaluation.services.leaderboard_store import leaderboard_store
from evaluation.services.recompute import Report, no_report
from judging.models import Collection

UNJUDGED = -1.0
"""What a pair judged on one scale but not the other gets on the missing scale:
negative relevance is "in the pool but unjudged", as in trec_eval."""

TEST_LABELS = {
    "bootstrap": "bootstrap (shift method, eq. 5.4)",
    "permutation": "permutation (eq. 5.5)",
    "t": "paired t (eq. 5.1)",
    "wilcoxon": "Wilcoxon signed-rank (eq. 5.2)",
    "sign": "sign (eq. 5.3)",
}


def default_measures(qrels: list[QrelsRecord]) -> list[str]:
    """CG_l@5 and DCG_l@5 (thesis ch. 5–6: the most powerful and among the most stable)
    on each scale the collection has judgments on, Fine first."""
    scales = []
    if any(r.fine is not None for r in qrels):
        scales.append("fine")
    if any(r.broad is not None for r in qrels):
        scales.append("broad")
    return [f"{family}(scale={scale})@5" for scale in scales for family in ("CG", "DCG")]


def core_inputs(runs: CollectionRuns, qrels: list[QrelsRecord]):
    """The core's ``Qrels`` (columns ``fine`` and ``broad``) and one ``Run`` per system."""
    has_fine = any(r.fine is not None for r in qrels)
    core_qrels = Qrels.from_records(
        [
            (
                r.query,
                r.clip,
                UNJUDGED if r.fine is None else r.fine,
                UNJUDGED if r.broad is None else r.broad,
            )
            for r in qrels
        ],
        columns=("fine", "broad"),
        default="fine" if has_fine else "broad",
    )
    core_runs = {
        system: Run.from_ranked_lists(runs.rankings[system], name=system)
        for system in runs.systems
        if runs.rankings[system]
    }
    return core_qrels, core_runs


def _cubic(coefficients):
    return stats.CubicMapping(*coefficients)


def _number(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else x


def _bounds(scores: np.ndarray) -> tuple[float, float] | None:
    """[0, 1] when every score is in it (the measures the thesis uses), else none known."""
    return (0.0, 1.0) if bool(np.all((scores >= 0) & (scores <= 1))) else None


def leaderboard_payload(
    matrix,
    *,
    config: ResultsConfig,
    mapping: dict | None,
    judged: dict | None = None,
    queries_needed: int | None = None,
    report: Report = no_report,
) -> dict:
    """The leaderboard of one measure's :class:`~evaluation.core.scores.ScoreMatrix`.

    ``judged`` is ``{"label": "Judged(scale=fine)@5", "k": 5, "systems": {system: mean}}``
    (ir_measures' Judged@k of each system on the measure's scale and depth), and
    ``queries_needed`` what the D-study says the collection needs for its target; both
    only add warnings and a column.
    """
    measure = matrix.measure
    scores = np.asarray(matrix.scores, dtype=float)
    order = np.argsort(-scores.mean(axis=1), kind="stable")
    systems = [matrix.systems[i] for i in order]
    scores = scores[order]
    sat = _cubic(mapping["coefficients"]) if mapping else None
    psat = np.clip(sat(scores), 0.0, 1.0) if sat else None
    levels = parse_measure(measure).relevance_levels
    bounds = _bounds(scores)
    n_queries = len(matrix.queries)
    resampling = {"resamples": config.resamples, "seed": config.seed}

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

    tests_allowed = n_queries >= stats.min_queries_for_tests(config.alpha)
    pairs, letters = [], ["a"] * len(systems)
    if len(systems) > 1:
        report(0.3, f"{measure}: {config.test} test on every pair")
        pairs, adjusted = _pairs(
            ScoreMatrix(measure, tuple(systems), tuple(matrix.queries), scores),
            psat=psat,
            config=config,
            bounded=bounds is not None,
            tests_allowed=tests_allowed,
        )
        letters = stats.compact_letters(stats.significant_pairs(adjusted, alpha=config.alpha))
    for row, text in zip(rows, letters, strict=True):
        row["letters"] = text

    warnings = [
        stats.too_few_queries_for_tests(n_queries, alpha=config.alpha),
        stats.fewer_queries_than_needed(
            n_queries, needed=queries_needed, target=config.reliability_target
        ),
    ]
    if judged:
        warnings.append(
            stats.unjudged_documents(
                judged["systems"], k=judged["k"], n_queries=n_queries, label=judged["label"]
            )
        )
    payload = {
        "measure": measure,
        "n_queries": n_queries,
        "prediction_family": stats.recommended_family(n_queries, n_levels=levels),
        "systems": systems,
        "queries": list(matrix.queries),
        "scores": scores.tolist(),
        "psat": psat.tolist() if psat is not None else None,
        "mapping": mapping,
        "test": config.test,
        "test_label": TEST_LABELS.get(config.test, config.test),
        "resamples": config.resamples,
        "adjustment": config.adjustment,
        "alpha": config.alpha,
        "seed": config.seed,
        "interval_methods": sorted(
            {row[key] for row in rows for key in ("ci_method", "psat_method") if row[key]}
        ),
        "judged_label": judged["label"] if judged else None,
        "rows": rows,
        "pairs": pairs,
        "warnings": [w.to_dict() for w in warnings if w is not None],
    }
    payload["report"] = leaderboard_report(payload)
    return payload


def _pairs(ranked: ScoreMatrix, *, psat, config, bounded: bool, tests_allowed: bool):
    """Every pair's row and the matrix of adjusted p-values (all NaN when p-values are
    withheld). A pair's interval is its test's when eq. 4.6 would do for the pair
    (:func:`evaluation.core.bounded_intervals.mean_intervals` keeps "t"), else the
    bootstrap percentile interval of the differences, within [−1, 1]."""
    systems, scores, measure = ranked.systems, ranked.scores, ranked.measure
    comparison = stats.all_pairs(
        ranked, test=config.test, resamples=config.resamples, seed=config.seed
    )
    adjusted = comparison.adjusted_pvalues(config.adjustment)
    if not tests_allowed:  # only the data: no p-value, and no letter tells systems apart
        adjusted = np.full_like(adjusted, np.nan)
    resamples = config.resamples if config.test in RESAMPLING_TESTS else None
    upper_i, upper_j = np.triu_indices(len(systems), 1)
    auto = stats.mean_intervals(
        scores[upper_i] - scores[upper_j],
        bounds=(-1.0, 1.0) if bounded else None,
        resamples=config.resamples,
        seed=config.seed,
    )
    pairs = []
    for i, j, interval in zip(upper_i.tolist(), upper_j.tolist(), auto, strict=True):
        result = comparison.result(i, j)
        if interval.method == "t":
            interval = stats.Interval(
                estimate=result.mean_difference,
                low=result.ci_low,
                high=result.ci_high,
                margin=(result.ci_high - result.ci_low) / 2,
                confidence=result.confidence,
                sd=math.nan,
                n=result.n,
                method=result.ci_method,
            )
        p = result.pvalue if tests_allowed else None
        pairs.append(
            {
                "a": systems[i],
                "b": systems[j],
                "delta": result.mean_difference,
                "ci_low": interval.low,
                "ci_high": interval.high,
                "ci_method": interval.method,
                "p": p,
                "p_adjusted": _number(adjusted[i, j]),
                "delta_psat": float(np.mean(psat[i] - psat[j])) if psat is not None else None,
                "report": stats.format_difference(measure, interval, p, resamples=resamples),
            }
        )
    return pairs, adjusted


def leaderboard_report(payload: dict) -> str:
    """The thesis-style report (§5.6.2): the best system with intervals, and its lead."""
    rows = payload["rows"]
    if not rows:
        return ""
    top = rows[0]
    lines = [f"{top['system']}: " + top["report"].replace("\n", ", ")]
    if payload["pairs"]:
        lead = next(
            p for p in payload["pairs"] if {p["a"], p["b"]} == {top["system"], rows[1]["system"]}
        )
        text = f"{lead['a']} − {lead['b']}: {lead['report']}"
        if lead["p_adjusted"] is not None:
            resamples = payload["resamples"] if payload["test"] in RESAMPLING_TESTS else None
            adjusted = stats.format_pvalue(lead["p_adjusted"], resamples=resamples)
            text += f", {payload['adjustment']}-adjusted {adjusted}"
        if lead["delta_psat"] is not None:
            text += f", ΔP(Sat) = {lead['delta_psat']:.4f}"
        lines.append(text)
        if lead["p"] is not None:
            lines.append(
                f"Systems that share a letter are not significantly different at "
                f"α = {payload['alpha']} ({payload['test']} test, "
                f"{payload['n_queries']} queries)."
            )
    return "\n".join(lines)


def reliability_payload(matrix, *, target: float) -> dict:
    """G-study of the crossed systems × queries design and its D-study curves (ch. 6)."""
    g = stats.g_study(matrix)
    current = stats.d_study(g, [len(matrix.queries)])
    curve = stats.d_study(g, np.arange(1, max(2 * len(matrix.queries), 10) + 1))
    proportions = g.proportions() if g.total > 0 else {}
    names = {"system": "systems (σ²_s)", "query": "queries (σ²_q)", "residual": "residual (σ²_e)"}
    caveat = stats.reliability_not_estimable(
        system_variance=g.system, total_variance=g.total, n_queries=len(matrix.queries)
    )
    needed = {}
    for coefficient, key in (("e_rho2", "erho2"), ("phi", "phi")):
        try:
            needed[key] = stats.queries_needed(g, target=target, coefficient=coefficient)
        except ValueError:
            needed[key] = None

    def coefficient(v):  # Eρ² and Φ say nothing when σ²_s is estimated as 0
        return None if caveat else _number(v)

    return {
        "measure": matrix.measure,
        "n_systems": len(matrix.systems),
        "n_queries": len(matrix.queries),
        "components": [
            {
                "name": names[k],
                "key": k,
                "variance": getattr(g, k),
                "proportion": proportions.get(k),
            }
            for k in ("system", "query", "residual")
        ],
        "erho2": coefficient(current.e_rho2[0]),
        "phi": coefficient(current.phi[0]),
        "target": target,
        "needed": needed,
        "curve": {
            "queries": curve.n_queries.astype(int).tolist(),
            "erho2": [coefficient(v) for v in curve.e_rho2],
            "phi": [coefficient(v) for v in curve.phi],
        },
        "warnings": [caveat.to_dict()] if caveat else [],
    }


def judged_label(label: str, *, default_scale: str) -> tuple[str, int] | None:
    """The ir_measures ``Judged@k`` on the scale and depth of measure ``label``, and k."""
    measure = parse_measure(label)
    if measure.k is None or measure.family in ("Judged", "num_q", "num_ret"):
        return None
    scale = measure.option("scale") or default_scale
    return parse_measure(f"Judged(scale={scale})@{measure.k}").label, measure.k


def collection_results_store(
    *,
    collection: Collection,
    runs: CollectionRuns,
    qrels: list[QrelsRecord],
    mappings: dict[str, dict] | None = None,
    sources: dict | None = None,
    report: Report = no_report,
) -> list[str]:
    """Compute and store (overwriting) every configured leaderboard and reliability study.

    ``mappings`` gives a campaign's own mapping per measure label; other measures use
    the published Table 4.3 mapping when there is one. ``sources`` (which judgment
    sources were used and left out, :func:`evaluation.selectors.collection_judgment_sources`)
    is stored in every payload as ``judgment_sources``. Returns the measure labels.
    """
    config = ResultsConfig.for_collection(collection)
    measures = config.measures or default_measures(qrels)
    core_qrels, core_runs = core_inputs(runs, qrels)
    report(0.05, "scoring the runs")
    results = evaluate(core_qrels, core_runs, measures)
    judged_of = {
        label: judged
        for label in results.labels
        if (judged := judged_label(label, default_scale=core_qrels.default))
    }
    extra = sorted({j for j, _ in judged_of.values()} - set(results.labels))
    judged_scores = evaluate(core_qrels, core_runs, extra) if extra else None
    payloads = []
    for n, label in enumerate(results.labels):
        share = (0.1 + 0.85 * n / len(results.labels), 0.85 / len(results.labels))

        def step(fraction, message="", *, force=False, share=share):
            report(share[0] + share[1] * fraction, message, force=force)

        matrix = results.matrix(label, missing="zero")
        mapping = (mappings or {}).get(label) or published_mapping_for(label)
        study = reliability_payload(matrix, target=config.reliability_target)
        judged = None
        if label in judged_of:
            name, k = judged_of[label]
            source = results if name in results.labels else judged_scores
            counts = source.matrix(name, missing="zero")
            means = dict(zip(counts.systems, np.mean(counts.scores, axis=1).tolist(), strict=True))
            judged = {"label": name, "k": k, "systems": means}
        board = leaderboard_payload(
            matrix, config=config, mapping=mapping, judged=judged,
            queries_needed=study["needed"]["erho2"], report=step,
        )  # fmt: skip
        step(0.9, f"{label}: G-study and D-study")
        if sources is not None:
            board["judgment_sources"] = study["judgment_sources"] = sources
        payloads.append((label, json_safe(board), json_safe(study)))
    now = timezone.now()
    with transaction.atomic():
        labels = [label for label, _, _ in payloads]
        collection.leaderboards.exclude(measure__in=labels).delete()
        collection.reliability_studies.exclude(measure__in=labels).delete()
        for label, board, study in payloads:
            leaderboard_store(collection=collection, measure=label, payload=board, computed_at=now)
            ReliabilityStudy.objects.update_or_create(
                collection=collection,
                measure=label,
                defaults={"payload": study, "computed_at": now},
            )
    return [label for label, _, _ in payloads]
