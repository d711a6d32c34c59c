"""A preference campaign's satisfaction mapping, measured from its accepted answers.

Thesis §3.3: every accepted answer is one user's verdict on an example (a query and
two ranked lists a and b, with effectiveness λa and λb on a measure):

- "both equally good" labels **both** lists satisfactory, "both equally bad" labels
  both unsatisfactory — these are the observations of P(Sat | λ) (§3.3.1);
- a preference ("a is better" / "b is better") does not say whether either list
  satisfies; it says whether the user agrees with Δλ = λa − λb: Agr = +1 when she
  prefers the list with the larger λ, −1 when she prefers the other one, and
  nonpreferences are Agr = 0 — every answer is an observation of P(Agr | Δλ) (§3.3.2).

Only accepted answers count (``Answer.accepted_at`` set: trusted workers, examples that
are not trap questions, answers not excluded). Everything numerical comes from
:mod:`evaluation.core.stats` (binning with Wilson intervals, the cubic fit of eq. 4.3,
the bias and distance measures of eqs. 3.11–3.13, Table 4.3); λ of each list comes
from ``Example.scores`` when the example generator stored it, else from
:func:`evaluation.core.evaluate` with each example's two lists as two one-query runs
judged by the collection's consolidated judgments.

Payload of :class:`~evaluation.models.SatisfactionMapping` (what pages, exports and
the API show)::

    measure, thesis_key: [measure, scale] | None, campaign, n_answers, n_examples,
    n_lists, n_preferences, outcomes: {a_better, b_better, both_good, both_bad},
    skipped: {no_score, out_of_range}, confidence,
    satisfaction: {edges, centres, counts, successes, proportion, ci_low, ci_high},
    agreement: {counts, positive: {successes, proportion, ci_low, ci_high},
                negative: {successes, proportion, ci_low, ci_high}},
    fit: {coefficients, r_squared, rms} | None, fit_note,
    endpoint_bias | None, distance_to_one | None, distance_to_zero | None,
    published: {label, coefficients, rms_fit_difference, max_fit_difference,
                rms_bin_difference} | None
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable

import numpy as np
from django.db import transaction
from django.utils import timezone

from evaluation import selectors
from evaluation.core import evaluate, stats
from evaluation.core.names import parse_measure
from evaluation.models import DEFAULT_MAPPING_MEASURE, MappingConfig, SatisfactionMapping
from evaluation.services.leaderboards import (
    core_inputs,
    json_safe,
    published_mapping_for,
    thesis_name,
)
from evaluation.services.recompute import recompute_request, register_computer
from evaluation.services.results import collection_results_request
from judging.models import Answer, Example, PreferenceCampaign
from judging.models.crowd import A_BETTER, B_BETTER, BOTH_BAD, BOTH_GOOD

GRID = np.linspace(0.0, 1.0, 101)
"""λ values at which a fitted curve is compared with the published one."""

PREFERENCE = {A_BETTER: 1, B_BETTER: -1, BOTH_GOOD: 0, BOTH_BAD: 0}


def canonical(name: str) -> str:
    """The measure's canonical label (as leaderboards and ``evaluate`` name it)."""

    return parse_measure(name).label


def campaign_measures(*, campaign: PreferenceCampaign) -> list[str]:
    """The configured measures, else those the examples were generated for, else CG_l@5 Fine."""
    config = MappingConfig.for_campaign(campaign)
    names = list(config.measures)
    if not names:
        keys: set[str] = set()
        for scores in campaign.examples.exclude(scores={}).values_list("scores", flat=True):
            keys.update(scores)
        names = sorted(keys) or [DEFAULT_MAPPING_MEASURE]
    return list(dict.fromkeys(canonical(n) for n in names))


def campaign_mapping_request(*, campaign: PreferenceCampaign) -> bool:
    """Ask for the campaign's mapping to be recomputed after the current transaction."""
    return recompute_request(kind="campaign", target_id=campaign.pk)


# --- labelling (thesis §3.3) ---------------------------------------------------------


def label_answers(outcomes: Iterable[str], lam_a, lam_b) -> dict[str, np.ndarray]:
    """Turn answers about lists a and b into the observations of §3.3.

    Returns ``sat_scores`` and ``satisfied`` (two observations per nonpreference: both
    lists satisfactory for "both good", both unsatisfactory for "both bad") and
    ``deltas`` (Δλ = λa − λb) with ``agreement`` ∈ {1, 0, −1}, one per answer.
    """

    outcomes = list(outcomes)
    lam_a = np.asarray(lam_a, dtype=float)
    lam_b = np.asarray(lam_b, dtype=float)
    unknown = sorted(set(outcomes) - set(PREFERENCE))
    if unknown:
        raise ValueError(f"unknown answers {unknown}")
    good = np.array([o == BOTH_GOOD for o in outcomes], dtype=bool)
    bad = np.array([o == BOTH_BAD for o in outcomes], dtype=bool)
    non = good | bad
    deltas = lam_a - lam_b
    preference = np.array([PREFERENCE[o] for o in outcomes], dtype=int)
    return {
        "sat_scores": np.concatenate([lam_a[non], lam_b[non]]),
        "satisfied": np.concatenate([good[non], good[non]]),
        "deltas": deltas,
        "agreement": stats.agreement_from_preference(deltas, preference),
    }


def _bins(binned, *, with_counts: bool) -> dict:
    out = {
        "successes": binned.successes.tolist(),
        "proportion": binned.proportion.tolist(),
        "ci_low": binned.ci_low.tolist(),
        "ci_high": binned.ci_high.tolist(),
    }
    if with_counts:
        out = {
            "edges": binned.edges.tolist(),
            "centres": binned.centres.tolist(),
            "counts": binned.counts.tolist(),
            **out,
        }
    return out


def mapping_payload(measure: str, outcomes: list[str], lam_a, lam_b) -> dict:
    """The mapping of one measure from answers and the λ of their lists (JSON-safe)."""

    labelled = label_answers(outcomes, lam_a, lam_b)
    sat = stats.satisfaction_by_bin(labelled["sat_scores"], labelled["satisfied"])
    agr = stats.agreement_by_bin(labelled["deltas"], labelled["agreement"])

    fit, fit_note = None, ""
    if int((sat.counts > 0).sum()) >= 4:
        cubic = stats.fit_satisfaction_mapping(sat)
        fit = {
            "coefficients": list(cubic.coefficients),
            "r_squared": cubic.r_squared,
            "rms": cubic.rms,
        }
    else:
        fit_note = (
            f"The cubic of eq. (4.3) needs P(Sat) in at least 4 bins; "
            f"{int((sat.counts > 0).sum())} have nonpreference answers."
        )
    try:
        bias = stats.endpoint_bias(sat)
    except ValueError:
        bias = None  # no lists in the first or last bin
    has_agr = bool(agr.positive.counts.sum())
    published = published_mapping_for(measure)
    if published is not None:
        curve = stats.CubicMapping(*published["coefficients"])
        ok = sat.counts > 0
        at_centres = curve(sat.centres[ok])
        published["rms_bin_difference"] = (
            float(np.sqrt(np.mean((sat.proportion[ok] - at_centres) ** 2))) if ok.any() else None
        )
        if fit is not None:
            diff = stats.CubicMapping(*fit["coefficients"])(GRID) - curve(GRID)
            published["rms_fit_difference"] = float(np.sqrt(np.mean(diff**2)))
            published["max_fit_difference"] = float(np.max(np.abs(diff)))
        else:
            published["rms_fit_difference"] = published["max_fit_difference"] = None
    key = thesis_name_of(measure)
    counts = Counter(outcomes)
    return json_safe(
        {
            "measure": measure,
            "thesis_key": list(key) if key else None,
            "n_answers": len(outcomes),
            "n_lists": int(labelled["sat_scores"].size),
            "n_preferences": counts[A_BETTER] + counts[B_BETTER],
            "outcomes": {o: counts[o] for o in PREFERENCE},
            "confidence": sat.confidence,
            "satisfaction": _bins(sat, with_counts=True),
            "agreement": {
                "counts": agr.positive.counts.tolist(),
                "positive": _bins(agr.positive, with_counts=False),
                "negative": _bins(agr.negative, with_counts=False),
            },
            "fit": fit,
            "fit_note": fit_note,
            "endpoint_bias": bias,
            "distance_to_one": stats.distance_to_one(agr.positive) if has_agr else None,
            "distance_to_zero": stats.distance_to_zero(agr.negative) if has_agr else None,
            "published": published,
        }
    )


def thesis_name_of(measure: str) -> tuple[str, str] | None:

    return thesis_name(parse_measure(measure))


# --- λ of the examples' lists --------------------------------------------------------


def example_lambdas(
    *, campaign: PreferenceCampaign, example_ids: Iterable[int], measures: list[str]
) -> dict[str, dict[int, tuple[float, float]]]:
    """``{measure: {example id: (λa, λb)}}`` for the examples given.

    ``Example.scores`` is used where it holds the measure (the generator stored λ on
    the judgments it generated from); the other examples are scored through
    :func:`evaluation.core.evaluate`, each example a pseudo-query judged with its
    query's consolidated judgments, list a and list b two runs. An example whose
    query has no judgments gets no λ (and is skipped).
    """
    ids = sorted(set(example_ids))
    out: dict[str, dict[int, tuple[float, float]]] = {m: {} for m in measures}
    missing: dict[int, set[str]] = {}
    for pk, scores in Example.objects.filter(pk__in=ids).values_list("pk", "scores"):
        stored = {canonical(name): value for name, value in (scores or {}).items()}
        for m in measures:
            if m in stored and stored[m] is not None and len(stored[m]) == 2:
                out[m][pk] = (float(stored[m][0]), float(stored[m][1]))
            else:
                missing.setdefault(pk, set()).add(m)
    if not missing:
        return out
    lists = selectors.example_lists(example_ids=list(missing))
    query_of = dict(
        Example.objects.filter(pk__in=list(missing)).values_list("pk", "query__clip__external_id")
    )
    by_query: dict[str, list] = {}
    for record in selectors.collection_qrels_records(collection=campaign.collection):
        by_query.setdefault(record.query, []).append(record)
    scored = score_lists(lists=lists, query_of=query_of, qrels_by_query=by_query, wanted=missing)
    for m, pairs in scored.items():
        out[m].update(pairs)
    return out


def score_lists(
    *,
    lists: dict[int, dict[str, list[str]]],
    query_of: dict[int, str],
    qrels_by_query: dict[str, list],
    wanted: dict[int, set[str]],
) -> dict[str, dict[int, tuple[float, float]]]:
    """λ of lists a and b of each example for the measures ``wanted[example]``.

    Each example is a pseudo-query judged with its query's consolidated judgments
    (``qrels_by_query``: :class:`~evaluation.selectors.QrelsRecord` lists), and list a
    and list b are two runs, scored by :func:`evaluation.core.evaluate`.
    """

    pseudo = {pk: f"e{pk}" for pk in wanted}
    qrels = [
        record._replace(query=pseudo[pk])
        for pk in wanted
        for record in qrels_by_query.get(query_of[pk], [])
    ]
    needed = sorted({m for measures in wanted.values() for m in measures})
    out: dict[str, dict[int, tuple[float, float]]] = {m: {} for m in needed}
    if not qrels:
        return out
    runs = selectors.CollectionRuns(
        systems=("a", "b"),
        queries=tuple(pseudo.values()),
        rankings={
            side: {pseudo[pk]: lists[pk][side] for pk in wanted if lists[pk][side]}
            for side in ("a", "b")
        },
    )
    core_qrels, core_runs = core_inputs(runs, qrels)
    results = evaluate(core_qrels, core_runs, needed)
    for m in needed:
        a = results.per_query("a", m)
        b = results.per_query("b", m)
        for pk, measures in wanted.items():
            q = pseudo[pk]
            if m in measures and q in a and q in b:
                out[m][pk] = (float(a[q]), float(b[q]))
    return out


# --- compute and store ---------------------------------------------------------------


def campaign_mapping_compute(
    *, campaign: PreferenceCampaign, report: Callable = lambda *a, **k: None
) -> list[str]:
    """Compute and store (overwriting) the campaign's mapping for each configured measure.

    Measures no longer configured lose their stored mapping. Returns the measures stored.
    """
    measures = campaign_measures(campaign=campaign)
    answers = list(
        Answer.objects.filter(
            example__campaign=campaign,
            accepted_at__isnull=False,
            excluded=False,
            example__trap__isnull=True,
        )
        .order_by("pk")
        .values_list("example_id", "outcome")
    )
    report(0.1, f"{len(answers)} accepted answers: scoring the lists", force=True)
    lambdas = example_lambdas(
        campaign=campaign, example_ids=[e for e, _ in answers], measures=measures
    )
    payloads = {}
    for n, measure in enumerate(measures):
        report(0.3 + 0.6 * n / len(measures), f"{measure}: binning and fitting")
        scores = lambdas[measure]
        kept, no_score, out_of_range = [], 0, 0
        for example_id, outcome in answers:
            pair = scores.get(example_id)
            if pair is None:
                no_score += 1
            elif not all(0.0 <= x <= 1.0 and math.isfinite(x) for x in pair):
                out_of_range += 1
            else:
                kept.append((outcome, *pair))
        payload = mapping_payload(
            measure,
            [o for o, _, _ in kept],
            [a for _, a, _ in kept],
            [b for _, _, b in kept],
        )
        payload["n_examples"] = len({e for e, _ in answers if e in scores})
        payload["skipped"] = {"no_score": no_score, "out_of_range": out_of_range}
        payload["campaign"] = {"id": campaign.pk, "name": campaign.name}
        payloads[measure] = payload
    now = timezone.now()
    with transaction.atomic():
        campaign.satisfaction_mappings.exclude(measure__in=measures).delete()
        for measure, payload in payloads.items():
            SatisfactionMapping.objects.update_or_create(
                campaign=campaign,
                measure=measure,
                defaults={"payload": payload, "computed_at": now},
            )
    return measures


@register_computer("campaign")
def campaign_mapping_recompute(*, target_id: int, report=None) -> None:
    """The ``campaign`` recompute: its mapping, then a leaderboard recompute of its collection
    (so that P(Sat) follows the new mapping)."""
    report = report or (lambda *args, **kwargs: None)
    campaign = PreferenceCampaign.objects.select_related("collection").filter(pk=target_id).first()
    if campaign is None:
        return  # deleted meanwhile
    campaign_mapping_compute(campaign=campaign, report=report)
    report(0.95, "stored; asking for the leaderboards", force=True)
    collection_results_request(collection=campaign.collection)
    report(1.0, "stored", force=True)
