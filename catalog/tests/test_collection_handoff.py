"""Changes to a collection's judgments or runs reach evaluation once per commit, by task name."""

import pytest
from django.db import transaction

from catalog.services.collections import judgments_upsert, run_replace
from evaluation.models import Recompute
from ingest.importers.judgments import judgments_import
from tests.helpers.importing import write_lines
from work.handoff import COLLECTION_CHANGED_TASK
from work.tasks import collection_data_changed

pytestmark = pytest.mark.django_db


def changed(handed_over, collection) -> list:
    return [
        kw
        for name, kw in handed_over
        if name == COLLECTION_CHANGED_TASK and kw == {"collection_id": collection.pk}
    ]


def test_judgments_sent_through_the_api_service_announce_the_collection_once(
    personas, handed_over, django_capture_on_commit_callbacks
):
    collection = personas.collection
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        judgments_upsert(
            collection=collection,
            judgments=[
                {"query": "c1", "clip": "c2", "fine": 40},
                {"query": "c1", "clip": "c3", "fine": 70},
            ],
            source="api",
        )
        run_replace(system=collection.systems.get(), rankings={"c1": ["c3", "c2"]})
    # Two services in one transaction: one announcement after the commit.
    assert changed(handed_over, collection) == [{"collection_id": collection.pk}]


def test_nothing_is_announced_when_the_transaction_rolls_back(
    personas, handed_over, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        judgments_upsert(
            collection=personas.collection,
            judgments=[{"query": "c1", "clip": "c2", "fine": 40}],
            source="api",
        )
        raise RuntimeError("rolled back")
    assert changed(handed_over, personas.collection) == []


def test_an_import_that_changes_nothing_announces_nothing(
    personas, handed_over, tmp_path, django_capture_on_commit_callbacks
):
    path = write_lines(tmp_path, "j.tsv", "c1\tc2\t40")
    with django_capture_on_commit_callbacks(execute=True):
        judgments_import(collection=personas.collection, path=path)
    assert len(changed(handed_over, personas.collection)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        judgments_import(collection=personas.collection, path=path)  # the same file again
    assert len(changed(handed_over, personas.collection)) == 1


def test_the_task_asks_for_one_coalesced_recompute_of_the_collection(personas, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    collection_data_changed(personas.collection.pk)  # called directly, as the worker would
    collection_data_changed(personas.collection.pk)
    row = Recompute.objects.get(kind="collection", target_id=personas.collection.pk)
    assert row.requests == 2 and row.state == "queued"
