"""The simulation of thesis §8.2–8.3 on MIREX 2011 against Tables 8.1 and 8.3 (Fine).

Tolerances, and why: the published figures come from models fitted on four MIREX
years with the original (unhashed) metadata and code we do not have; ties between
weights (CG's are integers) are broken in an order the thesis does not give; and the
point where confidence first reaches 95% is a first-passage time of a noisy curve, so a
shift of 0.001 in confidence moves it by dozens of judgments. We therefore ask for the
confidence within ±0.01, accuracy within ±0.05 (8 of 153 system pairs), Kendall τ
within ±0.1, Spearman ρ within ±0.05, RMSEs within ±0.012, and the number of judgments
to 95% confidence within a factor of two. The full figures, side by side, are in
docs/low-cost-evaluation.md (benchmarks/bench_lowcost.py prints them).
"""

import pytest

from evaluation.core.lowcost import simulate
from evaluation.core.lowcost.published import TABLE_8_1, TABLE_8_3
from evaluation.core.tests.lowcost_data import mirex2011

TOLERANCE = {
    "confidence": 0.01,
    "accuracy": 0.05,
    "tau": 0.1,
    "rho": 0.05,
    "rmse_delta": 0.012,
    "rmse": 0.012,
}


@pytest.mark.parametrize("measure", ["CG@5", "DCG@5", "nDCG@5", "RBP@5"])
def test_without_judgments_the_estimates_match_table_8_1(measure):
    _, _, metadata, pool, truth = mirex2011()
    result = simulate(pool, truth, measure, metadata, max_judgments=0)
    step = result.steps[0]
    assert step.judgments == 0
    for name, published in TABLE_8_1[measure].items():
        assert getattr(step, name) == pytest.approx(published, abs=TOLERANCE[name]), name


@pytest.mark.parametrize("measure, limit", [("CG@5", 260), ("nDCG@5", 700)])
def test_judging_to_95_percent_confidence_matches_table_8_3(measure, limit):
    _, _, metadata, pool, truth = mirex2011()
    result = simulate(pool, truth, measure, metadata, max_judgments=limit, every=50)
    assert result.total_judgments == 6322
    assert [s.judgments for s in result.steps[:2]] == [0, 50]
    stop = result.stops["confidence"]["step"]
    published = TABLE_8_3[measure]
    assert published["judgments"] / 2 <= stop["judgments"] <= published["judgments"] * 2
    assert stop["confidence"] >= 0.95
    for name in ("accuracy", "tau", "rmse_delta"):
        assert stop[name] == pytest.approx(published[name], abs=TOLERANCE[name]), name
    # judging helps: differences are estimated better than with no judgments at all
    assert stop["rmse_delta"] < result.steps[0].rmse_delta


def test_the_simulation_ends_with_the_true_scores_once_everything_is_judged():
    # A small complete collection (the first 10 queries) judged to the end: the last
    # step has no error left and full confidence.
    from evaluation.core.lowcost import Pool
    from evaluation.core.trec import Run

    qrels, runs, metadata, _, _ = mirex2011()
    keep = sorted({q for run in runs.values() for q in run.query_ids})[:10]
    small = {
        n: Run.from_ranked_lists({q: r.ranking(q) for q in keep}, name=n) for n, r in runs.items()
    }
    pool = Pool.from_runs(small, depth=5, qrels=qrels)
    result = simulate(pool, pool.judgments(qrels), "DCG@5", metadata, every=100)
    last = result.steps[-1]
    assert last.judgments == pool.n_pairs == result.total_judgments
    assert last.rmse == pytest.approx(0, abs=1e-12) and last.rmse_delta == pytest.approx(
        0, abs=1e-12
    )
    assert last.accuracy == 1 and last.confidence == 1 and last.root_variance == 0


def test_an_incomplete_collection_cannot_be_simulated():
    _, _, metadata, pool, truth = mirex2011()
    holed = truth.copy()
    holed[7] = float("nan")
    with pytest.raises(ValueError, match="complete collection"):
        simulate(pool, holed, "CG@5", metadata)
