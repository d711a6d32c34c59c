"""With a real Celery worker on the embedded Redis: a burst of requests gives one recompute."""

import time

import pytest

from evaluation.models import Recompute
from evaluation.services import collection_results_request

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def wait_until_settled(timeout: float = 60) -> Recompute:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = Recompute.objects.get()
        if row.state in ("done", "failed") and not row.dirty:
            return row
        time.sleep(0.1)
    raise AssertionError(f"the recompute did not settle: {Recompute.objects.get().to_dict()}")


def test_a_burst_of_a_hundred_requests_causes_at_most_two_computations(
    celery_worker_process, personas, settings
):
    # Long enough for the whole burst to land while the task waits, even on a loaded machine.
    settings.EARSHOT_RECOMPUTE_DELAY = 5
    started = time.monotonic()
    enqueued = [
        collection_results_request(collection=personas.collection)  # each commits on its own
        for _ in range(100)
    ]
    burst = time.monotonic() - started
    row = wait_until_settled()
    assert row.state == "done", row.error
    assert row.requests == 100
    assert 1 <= row.computations <= 2, (
        f"{row.computations} computations for a burst of 100 in {burst:.2f} s"
    )
    assert enqueued.count(True) <= 2
