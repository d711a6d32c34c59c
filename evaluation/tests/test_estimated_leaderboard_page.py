"""The estimated leaderboard page (thesis §8.1) lists its pairs of systems a page at a time.

18 systems make 18·17/2 = 153 pairs; 100 would make 4,950. The page reads the stored
payload without them, their count, and only the page it shows
(:class:`evaluation.selectors.EstimatedPairs`), so it makes the same statements for 3
systems (3 pairs) as for 18, and the row's whole payload is never loaded.
"""

from __future__ import annotations

from itertools import combinations
from urllib.parse import quote

import pytest
from django.utils import timezone

from evaluation import selectors
from evaluation.models import EstimatedLeaderboard

pytestmark = pytest.mark.django_db
MEASURE = "CG(scale=fine)@5"

# Session, its user and the organiser role (3), the access rule's collection (1), the
# board without its pairs but with their count (1), whether an ordinary leaderboard exists
# (1), the recompute (1), the page of pairs (1).
STATEMENTS = 8


def payload_of(n_systems: int) -> dict:
    """A stored payload's shape (:func:`evaluation.services.estimates.estimate_payload`):
    systems best first, every pair once, numbered so that a row tells its place."""
    systems = [f"S{i:02d}" for i in range(n_systems)]
    pairs = list(combinations(systems, 2))
    return {
        "measure": MEASURE, "level": 0.95, "n_queries": 4, "ranking_confidence": 0.9,
        "systems": [{"system": s, "expectation": 1 - i / 100, "variance": 0.001,
                     "half_width": 0.06, "low": 0.9, "high": 1.0} for i, s in enumerate(systems)],
        "differences": [{"better": a, "worse": b, "expectation": k / 1000, "variance": 0.0,
                         "confidence": 1 - k / 10_000} for k, (a, b) in enumerate(pairs)],
        "stopping": {"target": "relative", "value": 0.9, "threshold": 0.95, "stop": False,
                     "rule": "8.20"},
        "pairs": 40, "known": 10, "sources": {"judged": 10, "M_out": 30}, "pool": 40, "judged": 10,
    }  # fmt: skip


def board_url(board) -> str:
    return f"/collections/{board.collection_id}/results/estimated/?measure={quote(MEASURE)}"


def make_board(personas, n_systems: int) -> EstimatedLeaderboard:
    collection = personas.collection.__class__.objects.create(
        name=f"{n_systems} systems", owner=personas.organiser
    )
    return EstimatedLeaderboard.objects.create(
        collection=collection, measure=MEASURE, payload=payload_of(n_systems),
        computed_at=timezone.now(),
    )  # fmt: skip


@pytest.mark.parametrize("n_systems", [3, 18])
@pytest.mark.parametrize("page", ["", "&page=2", "&page=99"])
def test_the_page_makes_the_same_statements_whatever_the_number_of_pairs(
    organiser, personas, django_assert_num_queries, n_systems, page
):
    board = make_board(personas, n_systems)
    with django_assert_num_queries(STATEMENTS):
        response = organiser.get(board_url(board) + page)
    assert response.status_code == 200


def test_the_pairs_come_a_page_at_a_time_in_their_stored_order(organiser, personas):
    board = make_board(personas, 18)
    stored = board.payload["differences"]
    first = organiser.get(board_url(board)).content.decode()
    second = organiser.get(board_url(board) + "&page=2").content.decode()
    last = organiser.get(board_url(board) + "&page=99").content.decode()  # past the end
    assert "Pairs 1–50 of 153" in first and "Page 1 of 4" in first
    assert "Pairs 51–100 of 153" in second and "Pairs 151–153 of 153" in last
    assert "mean over the 153 pairs" in first

    def rows(html: str) -> list[tuple[str, str]]:
        table = html.split('id="pair-confidence"')[1].split("</table>")[0]
        cells = [row.split("</td><td>")[:2] for row in table.split("<tr><td>")[1:]]
        return [(better, worse) for better, worse in cells]

    assert rows(first) == [(d["better"], d["worse"]) for d in stored[:50]]
    assert rows(second) == [(d["better"], d["worse"]) for d in stored[50:100]]
    assert rows(last) == [(d["better"], d["worse"]) for d in stored[150:]]
    assert 'href="?measure=CG%28scale%3Dfine%29%405&amp;page=3#pairs"' in second


def test_the_page_never_loads_the_whole_payload(personas):
    board = make_board(personas, 18)
    read = selectors.estimated_leaderboard_for(collection=board.collection, measure=MEASURE)
    assert "payload" in read.get_deferred_fields()
    assert "differences" not in read.head and read.head["systems"] == board.payload["systems"]
    assert read.n_pairs == 153
    pairs = selectors.EstimatedPairs(read)
    assert pairs[148:200] == board.payload["differences"][148:]
    assert pairs[5:5] == [] and len(pairs) == 153
