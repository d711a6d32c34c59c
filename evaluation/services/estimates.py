"""Effectiveness estimated from incomplete judgments (thesis ch. 7–8): a low-cost relevance
campaign's live state, and the estimated leaderboards of incomplete collections.

All mathematics is :func:`evaluation.core.lowcost.lowcost_state`. This module reads its
inputs from the same consolidated judgments the leaderboards use
(:func:`evaluation.selectors.collection_qrels_records`) and the same runs, and stores
what comes out:

- :func:`campaign_estimate_compute` (recompute kind ``lowcost``, one per campaign,
  coalesced like every recompute): the campaign's :class:`~evaluation.models.CampaignEstimate`
  and the judging order of its pool entries, handed to judging with
  :func:`relevance.services.lowcost.pool_priorities_store` so that "Get next" reads it
  from judging's own rows;
- :func:`collection_estimates_store` (part of the collection recompute): an
  :class:`~evaluation.models.EstimatedLeaderboard` per leaderboard measure that has a
  probabilistic form, while some ranked pair is unjudged.

Payload (:func:`estimate_payload`, what the pages show)::

    measure, level, n_queries, ranking_confidence,
    systems: [{system, expectation, variance, half_width, low, high}],      # best first
    differences: [{better, worse, expectation, variance, confidence}],     # most confident first
    stopping: {target, value, threshold, stop, rule},
    pairs, known, sources: {judged, M_jud, M_out, historical, ...},  # the core pool's pairs
    pool, judged                       # pairs to be judged (campaign pool or ranked pairs), judged
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.utils import timezone

from catalog.published import Collection
from evaluation import selectors
from evaluation.core.jsonsafe import json_safe
from evaluation.core.lowcost import LowCostState, Metadata, Pool, lowcost_state, measure_with_scale
from evaluation.core.lowcost.measures import UnsupportedMeasure, measure_spec
from evaluation.core.names import MeasureNameError
from evaluation.models import CampaignEstimate, EstimatedLeaderboard
from evaluation.selectors import CollectionRuns, QrelsRecord
from evaluation.services.leaderboards import core_inputs
from evaluation.services.limits import estimates_admit
from evaluation.services.recompute import recompute_request
from relevance.published import RelevanceCampaign, pool_priorities_store
from work.progress import FractionReport, no_report

LOWCOST_KIND = "lowcost"


@dataclass(frozen=True)
class LowCostInputs:
    """A collection as the low-cost core takes it: the pool of the systems' top ``depth``,
    the known judgments on one scale (NaN where unjudged), metadata and teams."""

    pool: Pool
    judged: np.ndarray
    metadata: Metadata
    teams: dict[str, str]


def lowcost_inputs(
    *,
    collection: Collection,
    runs: CollectionRuns,
    qrels: list[QrelsRecord],
    depth: int,
    scale: str,
) -> LowCostInputs | None:
    """The core's inputs, or ``None`` when no system has a ranked list."""
    core_qrels, core_runs = core_inputs(runs, qrels)
    if not core_runs:
        return None
    pool = Pool.from_runs(core_runs, depth=depth, qrels=core_qrels)
    metadata = Metadata.from_records(selectors.collection_clip_metadata(collection=collection))
    return LowCostInputs(
        pool=pool,
        judged=pool.judgments(core_qrels, column=scale),
        metadata=metadata,
        teams=selectors.collection_teams(collection=collection),
    )


def estimate_payload(state: LowCostState, *, pool: int, judged: int) -> dict:
    """What the pages show (see the module's docstring), JSON-safe."""
    return json_safe({**state.summary(), "pool": pool, "judged": judged})


# --- A low-cost campaign --------------------------------------------------------------


def campaign_estimate_request(*, campaign: RelevanceCampaign) -> bool:
    """Ask for the campaign's estimates to be recomputed after the current transaction."""
    return recompute_request(kind=LOWCOST_KIND, target_id=campaign.pk)


def lowcost_campaigns_request(*, collection: Collection) -> int:
    """Ask for the estimates of every open low-cost campaign of the collection; how many."""
    campaigns = collection.relevance_campaigns.filter(
        mode=RelevanceCampaign.LOWCOST, is_open=True
    ).values_list("pk", flat=True)
    for pk in campaigns:
        recompute_request(kind=LOWCOST_KIND, target_id=pk)
    return len(campaigns)


def campaign_estimate_compute(*, target_id: int, report: FractionReport = no_report) -> None:
    """Recompute low-cost campaign ``target_id``'s estimates and the order of its pairs.

    The pool of the core is every system's top ``cutoff``, as the campaign's; ranked
    pairs outside the campaign's pool (the query clip itself, clips by the query's
    artist when those are left out) will never be judged by it and count as not
    relevant unless judged elsewhere — as the ordinary leaderboards count them — so
    that the estimates end where the leaderboards are once the pool is judged.
    """
    campaign = RelevanceCampaign.objects.select_related("collection").filter(pk=target_id).first()
    if campaign is None or not campaign.is_lowcost:
        return  # deleted meanwhile, or not low-cost: nothing to estimate
    collection = campaign.collection
    report(0.0, "reading judgments and runs", force=True)
    runs = selectors.collection_runs(collection=collection)
    qrels = selectors.collection_qrels_records(collection=collection)
    measure = measure_with_scale(campaign.lowcost_measure)
    inputs = lowcost_inputs(
        collection=collection,
        runs=runs,
        qrels=qrels,
        depth=campaign.cutoff,
        scale=measure_spec(measure).scale,
    )
    rows = selectors.campaign_pool_pairs(campaign=campaign)
    if inputs is None or not rows:
        return  # no ranked lists, nothing to judge
    pool = inputs.pool
    q_index = {q: i for i, q in enumerate(pool.queries)}
    pairs = pool.lookup(
        np.array([q_index.get(q, -1) for _, q, _ in rows], dtype=np.int64),
        np.array([c.encode() for _, _, c in rows], dtype=bytes),
    )
    in_campaign = np.zeros(pool.n_pairs, dtype=bool)
    in_campaign[pairs[pairs >= 0]] = True
    cost = estimates_admit(  # over a limit: refused before the estimates, the page says why
        n_systems=len(pool.systems), n_queries=len(pool.queries), pool_pairs=pool.n_pairs
    )
    report(0.3, f"estimating {cost.statement}")
    relative = campaign.lowcost_target == RelevanceCampaign.RELATIVE
    state = lowcost_state(
        pool,
        inputs.judged,
        inputs.metadata,
        measure=measure,
        target=campaign.lowcost_target,
        confidence=campaign.lowcost_stop_at if relative else 0.95,
        half_width=0.05 if relative else campaign.lowcost_stop_at,
        not_relevant=pool.retrieved & ~in_campaign,
        teams=inputs.teams,
    )
    priority = state.priority
    orders = {
        entry_id: (float(state.weights[p]), int(priority[p]) or None) if p >= 0 else (None, None)
        for (entry_id, _, _), p in zip(rows, pairs.tolist(), strict=True)
    }
    found = pairs[pairs >= 0]
    judged = int((~np.isnan(inputs.judged[found])).sum())
    payload = estimate_payload(state, pool=len(rows), judged=judged)
    report(0.8, "storing", force=True)
    with transaction.atomic():
        pool_priorities_store(campaign=campaign, priorities=orders)
        CampaignEstimate.objects.update_or_create(
            campaign=campaign,
            defaults={"payload": payload, "judged": judged, "computed_at": timezone.now()},
        )
    report(1.0, "stored", force=True)


# --- The estimated leaderboards of a collection -----------------------------------------


def collection_estimates_store(
    *,
    collection: Collection,
    runs: CollectionRuns,
    qrels: list[QrelsRecord],
    measures: list[str],
    sources: dict | None = None,
) -> list[str]:
    """Store an estimated leaderboard per measure of ``measures`` (the leaderboards'
    labels) that has a §8.1 form and leaves some ranked pair unjudged; delete the rest.
    ``sources`` (:func:`evaluation.selectors.collection_judgment_sources`) is stored in
    each payload as ``judgment_sources``. Returns the labels stored."""
    payloads = {}
    inputs_by: dict[tuple[int, str], LowCostInputs | None] = {}
    for label in measures:
        try:
            measure = measure_with_scale(label)
        except (UnsupportedMeasure, MeasureNameError):
            continue  # no probabilistic form (§8.1): only the ordinary leaderboard
        spec = measure_spec(measure)
        key = (spec.k, spec.scale)
        if key not in inputs_by:
            inputs_by[key] = lowcost_inputs(
                collection=collection, runs=runs, qrels=qrels, depth=spec.k, scale=spec.scale
            )
        inputs = inputs_by[key]
        if inputs is None:
            continue
        ranked = inputs.pool.retrieved
        unjudged = np.isnan(inputs.judged) & ranked
        if not unjudged.any():
            continue  # complete: the ordinary leaderboard is exact
        pool = inputs.pool
        estimates_admit(n_systems=len(pool.systems), n_queries=len(pool.queries),
                        pool_pairs=pool.n_pairs)  # fmt: skip
        state = lowcost_state(
            inputs.pool, inputs.judged, inputs.metadata, measure=measure, teams=inputs.teams
        )
        payloads[label] = estimate_payload(
            state, pool=int(ranked.sum()), judged=int((ranked & ~unjudged).sum())
        )
        if sources is not None:
            payloads[label]["judgment_sources"] = sources
    now = timezone.now()
    with transaction.atomic():
        collection.estimated_leaderboards.exclude(measure__in=list(payloads)).delete()
        for label, payload in payloads.items():
            EstimatedLeaderboard.objects.update_or_create(
                collection=collection,
                measure=label,
                defaults={"payload": payload, "computed_at": now},
            )
    return list(payloads)
