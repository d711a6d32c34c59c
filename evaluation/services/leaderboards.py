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
    prediction_family,
    rows: [{rank, system, mean, ci_low, ci_high, half_width, psat_mean, psat_low,
            psat_high, psat_half_width, psucc, pred_low, pred_high, pred_family,
            psat_floor, group, group_label, group_parity, report}],   # best first
    pairs: [{a, b, delta, ci_low, ci_high, p, p_adjusted, delta_psat, report}],
    groups: [[system, ...], ...], report

Groups of systems that are not significantly different come from
:meth:`evaluation.core.pairwise.PairwiseComparison.groups` (contiguous in the ranking,
each compared with its best system). The measured mapping used for P(Sat) is a
campaign's own or the published one of Table 4.3
(:func:`evaluation.core.published_mappings.published_mapping_for`).
"""

from __future__ import annotations

import math
import string

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


def _group_labels(n: int) -> list[str]:
    letters = string.ascii_lowercase
    return [letters[i % 26] * (1 + i // 26) for i in range(n)]


def leaderboard_payload(
    matrix, *, config: ResultsConfig, mapping: dict | None, report: Report = no_report
) -> dict:
    """The leaderboard of one measure's :class:`~evaluation.core.scores.ScoreMatrix`."""
    measure = matrix.measure
    scores = np.asarray(matrix.scores, dtype=float)
    order = np.argsort(-scores.mean(axis=1), kind="stable")
    systems = [matrix.systems[i] for i in order]
    scores = scores[order]
    sat = _cubic(mapping["coefficients"]) if mapping else None
    psat = np.clip(sat(scores), 0.0, 1.0) if sat else None
    levels = parse_measure(measure).relevance_levels

    report(0.1, f"{measure}: intervals")
    rows = []
    for i, system in enumerate(systems):
        ci = stats.mean_ci(scores[i])
        pred = stats.score_prediction_interval(scores[i], n_levels=levels)
        row = {
            "rank": i + 1,
            "system": system,
            "mean": ci.estimate,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "half_width": ci.margin,
            "pred_low": pred.low,
            "pred_high": pred.high,
            "pred_family": pred.family,
            "psat_floor": None,
            "psat_mean": None,
            "psat_low": None,
            "psat_high": None,
            "psat_half_width": None,
            "psucc": None,
        }
        lines = [stats.format_estimate(measure, ci)]
        if psat is not None:
            sat_ci = stats.mean_ci(psat[i])
            row.update(
                psat_mean=sat_ci.estimate,
                psat_low=sat_ci.low,
                psat_high=sat_ci.high,
                psat_half_width=sat_ci.margin,
                psucc=stats.success_probability(psat[i]),
            )
            floor = stats.satisfaction_floor(scores[i], sat, n_levels=levels)
            row["psat_floor"] = floor.value
            lines += [stats.format_estimate("P(Sat)", sat_ci), f"P(Succ) = {row['psucc']:.2f}"]
            lines.append(stats.format_satisfaction_floor(floor))
        row["report"] = "\n".join(lines)
        rows.append(row)

    pairs, groups = [], [[s] for s in systems]
    if len(systems) > 1:
        report(0.3, f"{measure}: {config.test} test on every pair")
        ranked = ScoreMatrix(measure, tuple(systems), tuple(matrix.queries), scores)
        comparison = stats.all_pairs(
            ranked,
            test=config.test,
            resamples=config.resamples,
            seed=config.seed,
        )
        adjusted = comparison.adjusted_pvalues(config.adjustment)
        resamples = config.resamples if config.test in RESAMPLING_TESTS else None
        for i in range(len(systems)):
            for j in range(i + 1, len(systems)):
                result = comparison.result(i, j)
                interval = stats.Interval(
                    estimate=result.mean_difference,
                    low=result.ci_low,
                    high=result.ci_high,
                    margin=(result.ci_high - result.ci_low) / 2,
                    confidence=result.confidence,
                    sd=math.nan,
                    n=result.n,
                )
                delta_psat = float(np.mean(psat[i] - psat[j])) if psat is not None else None
                pairs.append(
                    {
                        "a": systems[i],
                        "b": systems[j],
                        "delta": result.mean_difference,
                        "ci_low": result.ci_low,
                        "ci_high": result.ci_high,
                        "p": result.pvalue,
                        "p_adjusted": _number(adjusted[i, j]),
                        "delta_psat": delta_psat,
                        "report": stats.format_difference(
                            measure, interval, result.pvalue, resamples=resamples
                        ),
                    }
                )
        groups = comparison.groups(alpha=config.alpha, adjustment=config.adjustment)
    labels = _group_labels(len(groups))
    group_of = {s: g for g, members in enumerate(groups) for s in members}
    for row in rows:
        g = group_of[row["system"]]
        row.update(group=g + 1, group_label=labels[g], group_parity=g % 2)

    payload = {
        "measure": measure,
        "n_queries": len(matrix.queries),
        "prediction_family": stats.recommended_family(len(matrix.queries), n_levels=levels),
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
        "rows": rows,
        "pairs": pairs,
        "groups": groups,
    }
    payload["report"] = leaderboard_report(payload)
    return payload


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
        lines.append(
            f"{len(rows)} systems in {len(payload['groups'])} groups not significantly "
            f"different at α = {payload['alpha']} ({payload['test']} test, "
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
    needed = {}
    for coefficient, key in (("e_rho2", "erho2"), ("phi", "phi")):
        try:
            needed[key] = stats.queries_needed(g, target=target, coefficient=coefficient)
        except ValueError:
            needed[key] = None
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
        "erho2": _number(current.e_rho2[0]),
        "phi": _number(current.phi[0]),
        "target": target,
        "needed": needed,
        "curve": {
            "queries": curve.n_queries.astype(int).tolist(),
            "erho2": [_number(v) for v in curve.e_rho2],
            "phi": [_number(v) for v in curve.phi],
        },
    }


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
    payloads = []
    for n, label in enumerate(results.labels):
        share = (0.1 + 0.85 * n / len(results.labels), 0.85 / len(results.labels))

        def step(fraction, message="", *, force=False, share=share):
            report(share[0] + share[1] * fraction, message, force=force)

        matrix = results.matrix(label, missing="zero")
        mapping = (mappings or {}).get(label) or published_mapping_for(label)
        board = leaderboard_payload(matrix, config=config, mapping=mapping, report=step)
        step(0.9, f"{label}: G-study and D-study")
        study = reliability_payload(matrix, target=config.reliability_target)
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
