"""The demo seeded once for the tests that only read it.

Seeding the demo is the slowest set-up of the suite (three accounts, two collections,
judgments, three campaigns and the assessors' work). The tests that only read it ask for
``seeded_demo``: the demo is seeded once per module, inside a transaction that is rolled
back when the module's tests are done, and each test runs inside it in a savepoint of
its own (``pytest.mark.django_db``, never ``transaction=True``), so nothing a test
writes reaches another and nothing stays after the module.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test.utils import override_settings

from demo.seed import DemoSummary, demo_seed
from tests.helpers.fixtures import FAST_HASHERS


@pytest.fixture(scope="module")
def seeded_demo(django_db_setup, django_db_blocker) -> DemoSummary:
    """The summary of :func:`demo.seed.demo_seed` (no audio), seeded once per module."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield demo_seed(audio=False)
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
