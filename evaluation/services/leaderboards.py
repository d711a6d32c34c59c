"""Leaderboards and reliability studies of a collection, computed with the numerical core.

Everything numerical comes from :mod:`evaluation.core` (``evaluate`` for the scores,
``evaluation.core.stats`` for intervals, tests, mappings and Generalizability Theory);
this module only arranges inputs and stores outputs as JSON payloads.

The documents are built by :mod:`evaluation.core.results` (the command line prints the
same ones; its module docstring lists their keys); the pages read the parts
:mod:`evaluation.services.leaderboard_store` splits from a leaderboard when it is stored.
Leaderboards stored before letters and warnings existed have ``group``/``group_label``
instead of ``letters`` and no ``warnings``; the pages and exports read both. The measured
mapping used for P(Sat) is a campaign's own or the published one of Table 4.3
(:func:`evaluation.core.published_mappings.published_mapping_for`).
"""

from __future__ import annotations

import numpy as np
from django.db import transaction
from django.utils import timezone

from catalog.published import Collection
from evaluation.core import evaluate
from evaluation.core.assessor_judgments import assessor_slots, nested_scores
from evaluation.core.goodness_of_fit import leaderboard_fits
from evaluation.core.jsonsafe import json_safe
from evaluation.core.judged import judged_label
from evaluation.core.names import parse_measure
from evaluation.core.ordered_groups import groups_qrels
from evaluation.core.published_mappings import published_mapping_for
from evaluation.core.reliability import reliability_nested
from evaluation.core.results import leaderboard, reliability
from evaluation.core.trec import Qrels, Run
from evaluation.models import ReliabilityStudy, ResultsConfig
from evaluation.selectors import CollectionRuns, QrelsRecord
from evaluation.services.leaderboard_store import leaderboard_store
from work.progress import FractionReport, no_report

UNJUDGED = -1.0
"""What a pair judged on one scale but not the other gets on the missing scale:
negative relevance is "in the pool but unjudged", as in trec_eval."""


def default_measures(qrels: list[QrelsRecord]) -> list[str]:
    """CG_l@5 and DCG_l@5 (thesis ch. 5–6: the most powerful and among the most stable)
    on each scale the collection has judgments on, Fine first."""
    scales = []
    if any(r.fine is not None for r in qrels):
        scales.append("fine")
    if any(r.broad is not None for r in qrels):
        scales.append("broad")
    return [f"{family}(scale={scale})@5" for scale in scales for family in ("CG", "DCG")]


GROUPS_SCALE = "groups"
"""The scale of measures scored against the ordered groups (:mod:`evaluation.core.scales`)."""


def on_groups(label: str) -> bool:
    """Whether measure ``label`` is scored against the ordered groups (``scale=groups``)."""
    return parse_measure(label).option("scale") == GROUPS_SCALE


def groups_measures(groups: dict, runs: CollectionRuns) -> list[str]:
    """ADR on the ordered groups, over each query's ground truth (Typke et al. 2006, §3:
    "the first n documents, where n is the number of items in the ground truth") and at
    the length of the collection's lists (``ADR@k``, eq. 2.17); none without groups."""
    if not groups:
        return []
    depth = runs.depth()
    at_depth = [f"ADR(scale={GROUPS_SCALE})@{depth}"] if depth else []
    return [f"ADR(scale={GROUPS_SCALE})", *at_depth]


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


def leaderboard_payload(
    matrix,
    *,
    config: ResultsConfig,
    mapping: dict | None,
    judged: dict | None = None,
    queries_needed: int | None = None,
    report: FractionReport = no_report,
) -> dict:
    """The leaderboard document of one measure's :class:`~evaluation.core.scores.ScoreMatrix`
    (:func:`evaluation.core.results.leaderboard` with the collection's settings), with the
    "Score distributions" study of its scores as ``score_distributions`` (thesis §4.2.2,
    :func:`evaluation.core.goodness_of_fit.leaderboard_fits`)."""
    document = leaderboard(
        matrix, test=config.test, resamples=config.resamples, seed=config.seed,
        adjustment=config.adjustment, alpha=config.alpha, mapping=mapping, judged=judged,
        judged_only=config.judged_only, queries_needed=queries_needed, reliability_target=config.reliability_target,
        report=report,
    ).to_dict()  # fmt: skip
    document["score_distributions"] = leaderboard_fits(matrix, seed=config.seed)
    return document


def reliability_payload(matrix, *, target: float) -> dict:
    """The reliability document (:func:`evaluation.core.results.reliability`, ch. 6)."""
    return reliability(matrix, target=target).to_dict()


def nested_study(judgments: list, runs: dict, label: str, *, target: float) -> dict | None:
    """The nested reliability document of measure ``label`` (thesis §6.4, eqs. 6.8–6.10),
    each run scored against each assessor's judgments; ``None`` unless at least 2 queries
    have 2 or more assessors."""
    try:
        slots = assessor_slots(judgments)
    except ValueError:
        return None
    measure = parse_measure(label)
    systems, queries, X = nested_scores(slots, runs, measure)
    if len(systems) < 2:
        return None
    return reliability_nested(
        X, measure=label, systems=systems, queries=queries, target=target, left_out=slots.left_out
    ).to_dict()


def retrieved_share(runs: CollectionRuns, matrix, *, k: int) -> dict[str, float]:
    """Each system's mean share of its top ``k`` that holds a document, over the queries of
    ``matrix`` (a shorter list leaves ranks empty; no list at all, none)."""
    return {
        system: float(
            np.mean([min(len(runs.rankings[system].get(q, ())), k) / k for q in matrix.queries])
        )
        for system in matrix.systems
    }


def _scores(qrels: Qrels, runs: dict, measures: list[str], *, config: ResultsConfig):
    """Every system's scores on ``measures``, the Judged@k of each measure with a cut-off,
    and Judged@k read from the whole lists (with ``judged_only``, every Judged@k of the
    shortened lists would be 1)."""
    results = evaluate(qrels, runs, measures, judged_only=config.judged_only)
    judged_of = {
        label: judged
        for label in results.labels
        if (judged := judged_label(label, default_scale=qrels.default))
    }
    extra = {j for j, _ in judged_of.values()}
    if not config.judged_only:
        extra -= set(results.labels)
    return results, judged_of, evaluate(qrels, runs, sorted(extra)) if extra else None


def collection_results_store(
    *,
    collection: Collection,
    runs: CollectionRuns,
    qrels: list[QrelsRecord],
    mappings: dict[str, dict] | None = None,
    sources: dict | None = None,
    pool_filters: list[str] | None = None,
    assessor_judgments: list | None = None,
    groups: dict[str, list[list[str]]] | None = None,
    report: FractionReport = no_report,
) -> list[str]:
    """Compute and store (overwriting) every configured leaderboard and reliability study.

    ``groups`` is the official ground truth of ordered groups
    (:func:`evaluation.selectors_groups.collection_ordered_groups`): measures on the scale
    ``groups`` (by default ``ADR(scale=groups)`` and ``ADR(scale=groups)@k`` at the
    lists' length, :func:`groups_measures`) are scored against it, the others against
    the judgments; every leaderboard then has the same intervals, letters and warnings.

    ``mappings`` gives a campaign's own mapping per measure label; other measures use
    the published Table 4.3 mapping when there is one. ``sources`` (which judgment
    sources were used and left out, :func:`evaluation.selectors.collection_judgment_sources`)
    is stored in every payload as ``judgment_sources``; ``pool_filters`` (relevance
    campaigns that leave clips by the query's artist out of their pool,
    :func:`evaluation.selectors.collection_pool_filters`) are named in the warning about
    unjudged documents. ``assessor_judgments`` (judgments naming their assessor,
    :func:`evaluation.selectors_studies.collection_assessor_judgments`): when at least 2 queries
    have 2 or more assessors, each reliability study gets the nested G-study of systems ×
    (assessors nested in queries) as ``nested`` (thesis §6.4, :func:`nested_study`).
    Returns the measure labels.
    """
    config = ResultsConfig.for_collection(collection)
    measures = config.measures or [*default_measures(qrels), *groups_measures(groups, runs)]
    core_qrels, core_runs = core_inputs(runs, qrels)
    report(0.05, "scoring the runs")
    scored = []  # (results, judged Judged@k of each label, Judged@k on the whole lists)
    on_relevance = [m for m in measures if not on_groups(m)]
    if on_relevance and qrels:
        scored.append(_scores(core_qrels, core_runs, on_relevance, config=config))
    on_truth = [m for m in measures if on_groups(m)]
    if on_truth and groups:
        scored.append(_scores(groups_qrels(groups), core_runs, on_truth, config=config))
    labels = [(label, part) for part in scored for label in part[0].labels]
    payloads = []
    for n, (label, (results, judged_of, judged_scores)) in enumerate(labels):
        share = (0.1 + 0.85 * n / len(labels), 0.85 / len(labels))

        def step(fraction, message="", *, force=False, share=share):
            report(share[0] + share[1] * fraction, message, force=force)

        matrix = results.matrix(label, missing="zero")
        mapping = (mappings or {}).get(label) or published_mapping_for(label)
        study = reliability_payload(matrix, target=config.reliability_target)
        judged = None
        if label in judged_of:
            name, k = judged_of[label]
            whole = judged_scores is not None and name in judged_scores.labels
            source = judged_scores if whole else results
            counts = source.matrix(name, missing="zero")
            means = dict(zip(counts.systems, np.mean(counts.scores, axis=1).tolist(), strict=True))
            judged = {"label": name, "k": k, "systems": means, "pool_filters": pool_filters or [],
                      "retrieved": retrieved_share(runs, counts, k=k)}  # fmt: skip
        board = leaderboard_payload(
            matrix, config=config, mapping=mapping, judged=judged,
            queries_needed=study["needed"]["erho2"], report=step,
        )  # fmt: skip
        step(0.9, f"{label}: G-study and D-study")
        nested = nested_study(  # assessors judge relevance, not groups
            [] if on_groups(label) else assessor_judgments or [], core_runs, label,
            target=config.reliability_target,
        )  # fmt: skip
        if nested is not None:
            study["nested"] = nested
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
