"""Storing a leaderboard stores the parts its pages read, and a new recompute replaces them."""

import copy

import pytest
from django.utils import timezone

from evaluation.models import LeaderboardPair, LeaderboardSystem
from evaluation.services.leaderboard_store import (
    BIG_KEYS,
    distribution,
    leaderboard_parts,
    leaderboard_store,
)
from tests.helpers.results_payloads import MEASURE, leaderboard_payload

pytestmark = pytest.mark.django_db


def two_systems() -> dict:
    """The payload of tests/helpers/results_payloads.py with Gamma gone (as if it were deleted)."""
    payload = copy.deepcopy(leaderboard_payload())
    payload["systems"] = payload["systems"][:2]
    payload["scores"], payload["psat"] = payload["scores"][:2], payload["psat"][:2]
    payload["rows"] = payload["rows"][:2]
    payload["pairs"] = payload["pairs"][:1]
    payload["groups"] = [["Alpha", "Beta"]]
    return payload


def test_the_summary_is_the_payload_without_what_grows_with_the_collection():
    parts = leaderboard_parts(leaderboard_payload())
    assert not set(BIG_KEYS) & set(parts.summary)
    assert parts.summary["rows"] == leaderboard_payload()["rows"]
    assert (parts.summary["n_systems"], parts.summary["n_pairs"]) == (3, 3)
    # Holm-adjusted p-values of tests/helpers/results_payloads.py: 3 × 0.3, 3 × 0.001, 3 × 0.002.
    assert parts.significance["p_adjusted"] == [
        [None, pytest.approx(0.9), pytest.approx(0.003)],
        [pytest.approx(0.9), None, pytest.approx(0.006)],
        [pytest.approx(0.003), pytest.approx(0.006), None],
    ]


def test_a_distribution_counts_values_in_the_ten_bins_of_thesis_section_3_2_1():
    # By hand: 0.0 and 0.09 in [0, 0.1); 0.1 (an edge) and 0.15 in [0.1, 0.2); 0.6 (whose
    # nearest double is a hair below 6/10) in [0.6, 0.7); 1.0 in the last, closed bin;
    # None, -0.1 and 1.2 are not counted.
    counts = [n for _, _, n in distribution([0.0, 0.09, 0.1, 0.15, 0.6, 1.0, None, -0.1, 1.2])]
    assert counts == [2, 2, 0, 0, 0, 0, 1, 0, 0, 1]
    assert distribution([])[0] == [0.0, 0.1, 0]


def test_a_new_recompute_replaces_every_part_and_leaves_no_row_of_the_old_one(personas):
    now = timezone.now()
    first = leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=leaderboard_payload(),
        computed_at=now,
    )  # fmt: skip
    assert first.systems.count() == 3 and first.pairs.count() == 3

    second = leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=two_systems(), computed_at=now
    )

    assert second.pk == first.pk  # overwritten, not appended
    assert list(second.systems.order_by("rank").values_list("system", flat=True)) == [
        "Alpha",
        "Beta",
    ]
    assert LeaderboardSystem.objects.count() == 2 and LeaderboardPair.objects.count() == 1
    assert second.summary["n_systems"] == 2
    assert second.significance["systems"] == ["Alpha", "Beta"]
