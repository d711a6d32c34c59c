"""Leaderboards stored before the pages read their parts get them from the migration.

Migration evaluation 0007 adds a leaderboard's summary, its matrix of adjusted p-values
and one row per system and per pair (what the pages read instead of the whole payload),
and fills them for the leaderboards already stored, split from their payloads as
:func:`evaluation.services.leaderboard_store.leaderboard_parts` does for new ones.
"""

import pytest
from django.utils import timezone

from evaluation.services.leaderboard_store import leaderboard_parts
from tests.helpers.migrating import migrate, migration_test
from tests.helpers.results_payloads import MEASURE, leaderboard_payload

BEFORE = [("evaluation", "0006_recompute_heartbeat")]
AFTER = [("evaluation", "0007_leaderboard_parts_for_pages")]


@migration_test
def test_a_leaderboard_stored_before_gets_the_parts_its_pages_read():
    apps = migrate(BEFORE)
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    collection = apps.get_model("judging", "Collection").objects.create(owner=owner, name="C")
    payload = leaderboard_payload()
    apps.get_model("evaluation", "Leaderboard").objects.create(
        collection=collection, measure=MEASURE, payload=payload, computed_at=timezone.now()
    )

    apps = migrate(AFTER)
    board = apps.get_model("evaluation", "Leaderboard").objects.get(measure=MEASURE)
    expected = leaderboard_parts(payload)
    assert board.payload == payload  # untouched: the exports and the API still give it whole
    assert board.summary == expected.summary and board.summary["n_pairs"] == 3
    assert board.significance == expected.significance
    systems = list(board.systems.order_by("rank").values("system", "rank", "row", "per_query"))
    assert [s["system"] for s in systems] == ["Alpha", "Beta", "Gamma"]
    # tests/helpers/results_payloads.py: Beta scores 0.5 and 0.6 with P(Sat) 0.6 and 0.7.
    assert systems[1]["per_query"] == [
        ["q1", 0.5, pytest.approx(0.6)],
        ["q2", 0.6, pytest.approx(0.7)],
    ]
    pairs = list(board.pairs.order_by("position").values_list("data", flat=True))
    assert pairs == payload["pairs"]
