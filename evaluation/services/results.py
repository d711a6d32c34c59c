"""Recompute a collection's results: leaderboards and reliability for each configured measure,
and, while some ranked pair is unjudged, the estimated leaderboards (thesis ch. 7–8)."""

from __future__ import annotations

from django.db import transaction

from catalog.published import Collection
from evaluation import selectors, selectors_groups, selectors_studies
from evaluation.models import ResultsConfig
from evaluation.services.estimates import collection_estimates_store
from evaluation.services.leaderboards import (
    collection_results_store,
    default_measures,
    groups_measures,
    on_groups,
)
from evaluation.services.limits import leaderboards_admit
from evaluation.services.recompute import recompute_request
from work.progress import FractionReport, no_report

MIN_JUDGED_QUERIES = 2
"""Judged queries an ordinary leaderboard needs: a mean's interval needs two observations."""


def collection_results_request(*, collection: Collection, resend: bool = False) -> bool:
    """Ask for the collection's results to be recomputed after the current transaction
    (``resend``: send a pending recompute's task again, as "Recompute now" does)."""
    return recompute_request(kind="collection", target_id=collection.pk, resend=resend)


def collection_results_compute(*, target_id: int, report: FractionReport = no_report) -> None:
    """Recompute every leaderboard and reliability study of collection ``target_id``: on
    its official judgments, and ADR on its official ordered groups when it has them
    (:func:`evaluation.selectors.collection_ordered_groups`)."""
    collection = Collection.objects.filter(pk=target_id).first()
    if collection is None:
        return  # deleted meanwhile: nothing to compute
    report(0.0, "reading judgments and runs", force=True)
    runs = selectors.collection_runs(collection=collection)
    qrels = selectors.collection_qrels_records(collection=collection)
    groups = selectors_groups.collection_ordered_groups(collection=collection)
    if len(groups) < MIN_JUDGED_QUERIES:
        groups = {}  # ADR's interval needs two queries with groups, as any mean's
    if not runs.systems or not (qrels or groups):
        with transaction.atomic():
            collection.leaderboards.all().delete()
            collection.reliability_studies.all().delete()
            collection.estimated_leaderboards.all().delete()
        return
    sources = selectors.collection_judgment_sources(collection=collection)
    config = ResultsConfig.for_collection(collection)
    measures = config.measures or [*default_measures(qrels), *groups_measures(groups, runs)]
    judged_queries = len({record.query for record in qrels})
    if judged_queries < MIN_JUDGED_QUERIES and not groups:
        # A leaderboard's intervals need two queries (eq. 4.6); the estimated leaderboards
        # cover every query of the runs, so they can already be shown.
        with transaction.atomic():
            collection.leaderboards.all().delete()
            collection.reliability_studies.all().delete()
        labels = measures
    else:
        # One judged query: only the groups' leaderboards can be shown.
        scored = qrels if judged_queries >= MIN_JUDGED_QUERIES else []
        cost = leaderboards_admit(  # over a limit: refused before any work, the page says why
            n_systems=len(runs.systems), n_queries=max(judged_queries, len(groups)),
            n_measures=len(measures), test=config.test, resamples=config.resamples,
        )  # fmt: skip
        report(0.02, f"computing {cost.statement}", force=True)
        mappings = selectors.collection_campaign_mappings(collection=collection)
        labels = collection_results_store(
            collection=collection, runs=runs, qrels=scored, mappings=mappings, sources=sources,
            pool_filters=selectors.collection_pool_filters(collection=collection),
            assessor_judgments=selectors_studies.collection_assessor_judgments(collection=collection),
            groups=groups, report=report,
        )  # fmt: skip
    report(0.95, "estimating unjudged pairs", force=True)
    collection_estimates_store(  # the estimates (ch. 7–8) are of relevance judgments only
        collection=collection, runs=runs, qrels=qrels,
        measures=[label for label in labels if not on_groups(label)], sources=sources,
    )  # fmt: skip
    report(1.0, "stored", force=True)
