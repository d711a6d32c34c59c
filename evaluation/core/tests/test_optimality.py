"""The split-half optimality study (thesis ch. 5, §5.3–5.4): by hand, against an
independent computation on MIREX 2011, and the thesis' qualitative findings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from evaluation.core.cli.inputs import evaluate_inputs
from evaluation.core.names import parse_measures
from evaluation.core.optimality import (
    ALPHA_LEVELS,
    TABLE_5_2,
    optimality_cost,
    random_splits,
    split_half_optimality,
    trial_seed,
)
from evaluation.core.pairwise import all_pairs
from evaluation.core.scores import ScoreMatrix
from evaluation.core.wilcoxon_many import wilcoxon_pvalues
from tests.helpers.shared_data import MIREX2011 as MIREX


def matrix(scores, measure="m"):
    scores = np.asarray(scores, dtype=float)
    return ScoreMatrix(
        measure,
        tuple(f"s{i}" for i in range(scores.shape[0])),
        tuple(f"q{j}" for j in range(scores.shape[1])),
        scores,
    )


# Three systems, eight queries. Differences per query:
#   A−B  [ .8  .6  .4  .2 −.1 −.1 −.1 −.1]
#   A−C  [ .4  .3  .2  .1   0 −.1 −.2 −.3]
#   B−C  [−.4 −.3 −.2 −.1  .1   0 −.1 −.2]
HAND = [
    [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
    [0.1, 0.2, 0.3, 0.4, 0.6, 0.5, 0.4, 0.3],
    [0.5] * 8,
]
SPLITS = [  # (Q1, Q2) as query indices
    ([0, 1, 2, 3], [4, 5, 6, 7]),
    ([4, 5, 6, 7], [0, 1, 2, 3]),
    ([0, 2, 4, 6], [1, 3, 5, 7]),
    ([0, 1, 6, 7], [2, 3, 4, 5]),
]


def test_the_rates_of_four_listed_splits_are_those_worked_out_by_hand():
    # The sign test on 4 queries (eq. 5.3): p = 2·(1/2)^4 = 0.125 when all four differences
    # share a sign, else p ≥ 0.25 (3 non-zero of one sign: 2·(1/2)^3). So at α = 0.2 a pair
    # is significant exactly when its four differences are non-zero and of one sign.
    # Split 1: Q1 {0..3}: A−B +, A−C +, B−C − all significant.
    #          Q2 {4..7}: A−B all − (significant, opposite)        → major conflict
    #                     A−C 0,−,−,− (p = .25, mean −.15: opposite) → minor conflict
    #                     B−C +,0,−,− (p ≥ .25, mean −.05: same)     → lack of power
    # Split 2: Q1 {4..7}: only A−B significant (−); Q2 {0..3} A−B + → major conflict.
    # Split 3: Q1 {0,2,4,6}: every pair mixes signs or has a 0 → 3 non-significant.
    # Split 4: Q1 {0,1,6,7}: only B−C significant (all −); Q2 {2,3,4,5}: −,−,+,0, mean
    #          −.05 → lack of power.
    # 12 comparisons, 5 significant with Q1: non-significance 7/12; of the 5: success 0,
    # lack of power 2, minor 1, major 2; global conflict 3/5.
    result = split_half_optimality(
        [matrix(HAND)], tests=["sign"], alphas=[0.1, 0.2], splits=np.array(SPLITS)
    )
    doc = result.to_dict(alpha=0.2, baseline="sign")
    rates = doc["by_test"][0]["rates"]
    assert doc["by_test"][0]["comparisons"] == 12
    assert doc["by_test"][0]["significant"] == [0, 5]
    assert rates["non_significance"] == [1.0, 7 / 12]
    assert rates["success"] == [None, 0.0]
    assert rates["lack_of_power"] == [None, 2 / 5]
    assert rates["minor_conflict"] == [None, 1 / 5]
    assert rates["major_conflict"] == [None, 2 / 5]
    assert rates["global_conflict"] == [None, 3 / 5]
    # Standard error of the minor-conflict rate R = 1/5, a ratio over the 4 trials with
    # x_t = [1, 0, 0, 0] minor conflicts among n_t = [3, 1, 0, 1] significant:
    # residuals x − R·n = [.4, −.2, 0, −.2], Σ² = .24, /(4·3) = .02, √ = .141421, / n̄ 1.25
    assert doc["by_test"][0]["se"]["minor_conflict"][1] == pytest.approx(0.1131371, abs=1e-7)
    # by measure, with one test, the same numbers
    assert doc["by_measure"][0]["rates"] == rates


def test_the_32_levels_are_those_of_section_5_4():
    assert len(ALPHA_LEVELS) == 32
    assert ALPHA_LEVELS[:3] == (0.0001, 0.0002, 0.0003)
    assert {0.001, 0.009, 0.01, 0.05, 0.09, 0.1, 0.5} <= set(ALPHA_LEVELS)
    assert len(TABLE_5_2) == 14 and len(set(TABLE_5_2)) == 14


def test_random_splits_are_disjoint_halves_and_reproducible():
    s = random_splits(11, trials=20, seed=5)
    assert s.shape == (20, 2, 5)
    for q1, q2 in s:
        assert not set(q1) & set(q2) and len(set(q1)) == 5
    assert (s == random_splits(11, trials=20, seed=5)).all()
    assert not (s == random_splits(11, trials=20, seed=6)).all()
    with pytest.raises(ValueError, match="need at least 4 queries"):
        random_splits(3, trials=1, seed=1)


def test_bad_splits_and_costs_over_the_limit_are_refused_before_work():
    m = matrix(HAND)
    with pytest.raises(ValueError, match="disjoint"):
        split_half_optimality([m], tests=["t"], splits=np.array([([0, 1], [1, 2])]))
    with pytest.raises(ValueError, match="not there"):
        split_half_optimality([m], tests=["t"], splits=np.array([([0, 1], [2, 9])]))
    with pytest.raises(ValueError, match="unknown test"):
        split_half_optimality([m], tests=["z"], trials=2)
    with pytest.raises(ValueError, match=r"3 splits × 2 halves of 4 queries × 3 pairs"):
        split_half_optimality(
            [m], tests=["bootstrap"], trials=3, resamples=1000, max_resampled=10_000
        )
    # 3 trials × 2 halves × 3 pairs × 1 measure × 4 queries × 1000 resamples × 1 test
    assert optimality_cost(
        n_systems=3, n_queries=8, n_measures=1, tests=["bootstrap", "t"], trials=3,
        resamples=1000,
    ).resampled == 72_000  # fmt: skip


def test_the_vectorised_wilcoxon_gives_every_row_scipys_p_value():
    rng = np.random.default_rng(0)
    # (scipy enumerates the 2^n sign flips of n ≤ 13 differences with ties row by row, slowly)
    for n, rows in ((6, 30), (10, 6), (30, 60), (50, 60), (60, 60)):
        D = np.round(rng.normal(0.02, 0.2, size=(rows, n)), 2)  # rounding: ties and zeros
        D[: rows // 3] = rng.normal(0.05, 0.2, size=(rows // 3, n))  # and rows without
        D[0] = 0.0
        expected = [
            1.0 if not d.any() else stats.wilcoxon(d, zero_method="wilcox").pvalue for d in D
        ]
        np.testing.assert_allclose(wilcoxon_pvalues(D), expected, rtol=1e-12, atol=0)


def _mirex(measures):
    parsed = [parse_measures(m)[0] for m in measures]
    results = evaluate_inputs(str(MIREX / "judgments.tsv"), [str(MIREX / "runs.tsv")], parsed)
    return [results.matrix(m) for m in parsed]


def direction(result, scores, queries, i, j):
    """The sign of the mean difference, 0 within 1e-12 of the mean |Δ| (the module's rule)."""
    mean = result.mean_difference[i, j]
    slack = 1e-12 * np.abs(scores[i, queries] - scores[j, queries]).mean()
    return 0.0 if abs(mean) <= slack else np.sign(mean)


def _independent_counts(matrices, tests, alphas, splits, resamples, seed):
    """§5.3 written out pair by pair: counts[test][measure][alpha] of (significant, success,
    lack of power, minor, major), from all_pairs on each half with the trial's seed."""
    root = np.random.SeedSequence(seed)
    counts = {}
    for test in tests:
        for m in matrices:
            tally = {a: [0, 0, 0, 0, 0] for a in alphas}
            for t, (q1, q2) in enumerate(splits):
                halves = []
                for h, q in enumerate((q1, q2)):
                    half = ScoreMatrix(m.measure, m.systems, m.queries[: len(q)], m.scores[:, q])
                    r = all_pairs(half, test=test, resamples=resamples, seed=trial_seed(root, t, h))
                    halves.append(r)
                k = len(m.systems)
                for i in range(k):
                    for j in range(i + 1, k):
                        p1, p2 = halves[0].pvalue[i, j], halves[1].pvalue[i, j]
                        d1 = direction(halves[0], m.scores, q1, i, j)
                        d2 = direction(halves[1], m.scores, q2, i, j)
                        for a in alphas:
                            if p1 > a:
                                continue
                            row = tally[a]
                            row[0] += 1
                            if p2 <= a and d1 * d2 > 0:
                                row[1] += 1
                            elif p2 <= a and d1 * d2 < 0:
                                row[4] += 1
                            elif d1 * d2 < 0:
                                row[3] += 1
                            else:
                                row[2] += 1
            counts[(test, m.measure)] = tally
    return counts


@pytest.mark.skipif(not MIREX.exists(), reason="needs ../shared/data/mirex2011-ams")
def test_mirex_rates_equal_an_independent_computation_with_the_same_splits_and_seed():
    matrices = _mirex(["CG(scale=fine)@5", "P(rel=40)@5", "GAP(scale=fine)@5"])
    tests = ["t", "wilcoxon", "sign", "bootstrap", "permutation"]
    alphas = [0.001, 0.01, 0.05, 0.1, 0.5]
    splits = random_splits(100, trials=4, seed=2013)
    result = split_half_optimality(
        matrices, tests=tests, alphas=alphas, splits=splits, resamples=300, seed=7
    )
    expected = _independent_counts(matrices, tests, alphas, splits, 300, 7)
    for ti, test in enumerate(tests):
        for mi, m in enumerate(matrices):
            got = result.counts[ti, mi].sum(axis=1)  # alpha × counted, over trials
            want = [expected[(test, m.measure)][a] for a in alphas]
            assert got.tolist() == want, (test, m.measure)


@pytest.mark.skipif(not MIREX.exists(), reason="needs ../shared/data/mirex2011-ams")
def test_mirex_reproduces_the_findings_of_section_5_4():
    fine = [m for m in TABLE_5_2 if "broad" not in m]  # MIREX 2011 has no Broad judgments
    result = split_half_optimality(_mirex(fine), trials=20, resamples=500, seed=20130701)
    doc = result.to_dict(alpha=0.05, baseline="t")
    by_test = {g["test"]: g["rates"] for g in doc["by_test"]}
    by_measure = {g["measure"]: g["rates"] for g in doc["by_measure"]}
    for alpha in (0.01, 0.05, 0.1):
        i = doc["alphas"].index(alpha)
        nonsig = {t: r["non_significance"][i] for t, r in by_test.items()}
        # §5.4.1: "The bootstrap test consistently produces smaller p-values and is
        # therefore the most powerful of all tests across significance levels."
        assert min(nonsig, key=nonsig.get) == "bootstrap", nonsig
        # §5.4.1: "The sign test is by far the least powerful of all five."
        assert max(nonsig, key=nonsig.get) == "sign", nonsig
        # §5.5: "all of them yielded conflict rates higher than expected for low
        # significance levels, but much lower for the usual levels."
        assert all(r["global_conflict"][i] < alpha for r in by_test.values())
        # §5.7: "CG_l@5 was consistently the best one in terms of power"
        power = {m: r["non_significance"][i] for m, r in by_measure.items()}
        assert min(power, key=power.get) == "CG(scale=fine)@5", power
    # the rates of §5.3 add up: success + lack of power + minor + major = 1
    r = by_test["t"]
    i = doc["alphas"].index(0.05)
    parts = sum(r[k][i] for k in ("success", "lack_of_power", "minor_conflict", "major_conflict"))
    assert math.isclose(parts, 1.0)
    assert doc["verdict"]["tests"][0].startswith("On this collection the bootstrap test found")
