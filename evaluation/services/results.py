"""Recompute a collection's results: leaderboards and reliability for each configured measure."""

from __future__ import annotations

from django.db import transaction

from evaluation import selectors
from evaluation.services.leaderboards import collection_results_store
from evaluation.services.recompute import Report, no_report, recompute_request
from judging.models import Collection


def collection_results_request(*, collection: Collection) -> bool:
    """Ask for the collection's results to be recomputed after the current transaction."""
    return recompute_request(kind="collection", target_id=collection.pk)


def collection_results_compute(*, target_id: int, report: Report = no_report) -> None:
    """Recompute every leaderboard and reliability study of collection ``target_id``."""
    collection = Collection.objects.filter(pk=target_id).first()
    if collection is None:
        return  # deleted meanwhile: nothing to compute
    report(0.0, "reading judgments and runs", force=True)
    runs = selectors.collection_runs(collection=collection)
    qrels = selectors.collection_qrels_records(collection=collection)
    if not runs.systems or not qrels:
        with transaction.atomic():
            collection.leaderboards.all().delete()
            collection.reliability_studies.all().delete()
        return
    mappings = selectors.collection_campaign_mappings(collection=collection)
    collection_results_store(
        collection=collection, runs=runs, qrels=qrels, mappings=mappings, report=report
    )
    report(1.0, "stored", force=True)
