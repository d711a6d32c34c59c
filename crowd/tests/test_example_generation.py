"""The §3.2.1 example generator, on hand-checked lists and on the MIREX 2011 judgments."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from crowd.models import Example
from crowd.services.examples import examples_generate
from evaluation.core.example_generator import bin_of, generate_examples, list_score
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.shared_data import MIREX2011

MIREX = MIREX2011 / "judgments.tsv"
P5_REL60 = "P(rel=60,scale=fine)@5"
CG5_FINE = "CG(scale=fine)@5"


def mirex_judgments() -> dict[str, dict[str, float]]:
    """judgments.tsv: ``query doc fine`` per line, CRLF line ends."""
    judgments: dict[str, dict[str, float]] = {}
    for line in MIREX.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:
            judgments.setdefault(parts[0], {})[parts[1]] = float(parts[2])
    return judgments


def test_list_score_gives_the_user_oriented_values_of_the_measures_library():
    """Independent hand computations of thesis formulas, checked through the seam."""
    # P@5 with relevance ℓ_min = 60 on Fine: (1/5) Σ 1(r ≥ 60) — 60, 100, 80 count: 3/5.
    assert_allclose(list_score(P5_REL60, np.array([[60, 59, 100, 0, 80]])), [0.6])
    # CG_l@5 on Fine (eq. 3.3, ideal = five clips at 100): (100 + 50) / (5 · 100).
    assert_allclose(list_score(CG5_FINE, np.array([[100, 50, 0, 0, 0]])), [0.3])
    # n_L = 3 from Fine: 33 → 0, 34 → 1, 67 → 2 (thesis §3.1.2). CG_l: (2+2+1)/(5·2).
    graded = np.array([[100, 67, 34, 33, 0]])
    assert_allclose(list_score("CG(scale=graded3)@5", graded), [0.5])
    # CG_e@5, g(ℓ) = 2^ℓ − 1: (3 + 3 + 1) / (5 · 3).
    assert_allclose(list_score("CG(gain=exp,scale=graded3)@5", graded), [7 / 15])
    # RBP_l@5, user form (eq. 3.6, p = 0.8): Σ g(ℓᵢ)·pⁱ⁻¹ / Σ g(top)·pⁱ⁻¹ on n_L = 3.
    weights = 0.8 ** np.arange(5)
    expected = (np.array([2, 2, 1, 0, 0]) * weights).sum() / (2 * weights).sum()
    assert_allclose(list_score("RBP(form=user,scale=graded3)@5", graded), [expected])
    # Measures normalised by the full judgments cannot score a list on its own.
    for name in ("nDCG(scale=fine)@5", "AP(rel=50,scale=fine)@5", "CG(scale=raw)@5"):
        with pytest.raises(ValueError):
            list_score(name, graded)


def test_bins_are_tenths_closed_at_one():
    assert [bin_of(d) for d in (0, 0.0999, 0.1, 0.2, 0.5999, 0.9, 1.0, -0.3)] == [
        0, 0, 1, 2, 5, 9, 9, 3,
    ]  # fmt: skip


@pytest.mark.skipif(not MIREX.exists(), reason="MIREX 2011 data not present")
def test_on_mirex_2011_every_fillable_combination_gets_its_examples():
    judgments = mirex_judgments()
    report = generate_examples(judgments, [P5_REL60, CG5_FINE], per_bin=100, seed=2011)

    # CG_l@5 on Fine: all ten bins filled.
    assert all(report.counts[(CG5_FINE, b)] >= 100 for b in range(10))
    # ΔP@5 is a multiple of 0.2 (thesis §3.2.1): odd bins are impossible and reported.
    assert [(m, b, n) for m, b, n in report.unfilled] == [(P5_REL60, b, 0) for b in (1, 3, 5, 7)]
    assert all(report.counts[(P5_REL60, b)] >= 100 for b in (0, 2, 4, 6, 8, 9))

    seen = set()
    for example in report.examples:
        for clips in (example.list_a, example.list_b):
            assert len(set(clips)) == 5 and all(c in judgments[example.query] for c in clips)
        key = (example.query, *sorted([example.list_a, example.list_b]))
        assert key not in seen  # all examples differ from each other
        seen.add(key)
        fine = np.array(
            [[judgments[example.query][c] for c in lst] for lst in (example.list_a, example.list_b)]
        )
        for measure in (P5_REL60, CG5_FINE):
            assert_allclose(example.scores[measure], list_score(measure, fine), atol=1e-6)
    # Each example counts once in every measure's bins.
    for measure in (P5_REL60, CG5_FINE):
        assert sum(report.counts[(measure, b)] for b in range(10)) == len(report.examples)


def test_the_generator_is_deterministic_for_a_seed():
    judgments = mirex_judgments() if MIREX.exists() else {}
    if not judgments:
        pytest.skip("MIREX 2011 data not present")
    first = generate_examples(judgments, [CG5_FINE], per_bin=5, seed=1)
    again = generate_examples(judgments, [CG5_FINE], per_bin=5, seed=1)
    assert first.examples == again.examples


@pytest.mark.django_db
def test_generated_examples_are_added_to_a_campaign_with_their_scores(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    before = campaign.examples.count()
    report = examples_generate(campaign=campaign, measures=[CG5_FINE], per_bin=3, seed=3)
    generated = campaign.examples.filter(source=Example.SOURCE_GENERATOR)
    assert generated.count() == len(report.examples) > 0
    assert campaign.examples.count() <= before + len(report.examples)
    example = generated.first()
    la, lb = example.scores[CG5_FINE]
    fine = {j.clip_id: j.fine for j in example.query.judgments.all()}
    lists = [[fine[i.clip_id] for i in example.items.filter(side=s).order_by("rank")] for s in "ab"]
    assert_allclose([la, lb], list_score(CG5_FINE, np.array(lists)), atol=1e-6)
