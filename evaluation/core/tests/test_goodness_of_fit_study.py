"""The goodness-of-fit study of thesis §4.2.2 (eq. 4.7) on MIREX 2011, against scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from evaluation.core.cli.inputs import evaluate_inputs
from evaluation.core.goodness_of_fit import (
    FAMILIES,
    LEADERBOARD_SYSTEMS,
    _ecdf_at,
    fit_study,
    leaderboard_fits,
    random_subsets,
)
from evaluation.core.names import parse_measures
from evaluation.core.scores import ScoreMatrix
from tests.helpers.shared_data import MIREX2011 as MIREX


def _mirex(measure):
    parsed = parse_measures(measure)
    results = evaluate_inputs(str(MIREX / "judgments.tsv"), [str(MIREX / "runs.tsv")], parsed)
    return results.matrix(parsed[0])


def _scipy_omegas(X, subsets):
    """ω̂ of eq. 4.7 per (trial, system) and family, each fit written with scipy.stats."""
    out = []
    n = X.shape[1]
    for q1 in subsets:
        q2 = np.setdiff1d(np.arange(n), q1)
        for x, y in zip(X[:, q1], X[:, q2], strict=True):
            F = np.array([np.mean(y <= v) for v in y])  # ecdf of the held-out scores
            mu, sd = x.mean(), x.std(ddof=1)
            m, v = mu, sd**2
            k = m * (1 - m) / v - 1  # method of moments (§4.2.1), valid on this data
            assert v < m * (1 - m)
            fits = {
                "normal": stats.norm(mu, sd).cdf(y),
                "truncated-normal": stats.truncnorm((0 - mu) / sd, (1 - mu) / sd, mu, sd).cdf(y),
                "beta": stats.beta(m * k, (1 - m) * k).cdf(y),
                "empirical": np.array([np.mean(x <= v) for v in y]),
            }
            out.append([np.sqrt(((F - fits[f]) ** 2).sum()) for f in FAMILIES])
    return np.array(out)


@pytest.mark.skipif(not MIREX.exists(), reason="needs ../shared/data/mirex2011-ams")
@pytest.mark.parametrize("measure", ["CG(scale=fine)@5", "P(rel=40)@5"])
def test_mirex_averages_equal_scipys_on_the_same_samples(measure):
    matrix = _mirex(measure)
    subsets = [random_subsets(100, 50, trials=6, seed=1), random_subsets(100, 20, trials=6, seed=2)]
    doc = fit_study(matrix, subsets=subsets).to_dict()
    for row, chosen in zip(doc["sizes"], subsets, strict=True):
        want = _scipy_omegas(matrix.scores, chosen).mean(axis=0)
        got = [row["omega"][f] for f in FAMILIES]
        np.testing.assert_allclose(got, want, rtol=1e-9)
        assert row["cases"] == 6 * 18 and row["left_out"] == 0


@pytest.mark.skipif(not MIREX.exists(), reason="needs ../shared/data/mirex2011-ams")
def test_mirex_reproduces_table_4_4s_best_fits():
    # Table 4.4 (n_Q1 = 50): "the Empirical distribution is clearly the best approximation
    # except for the Fine relevance scale, where the Beta distribution takes over"
    fine = fit_study(_mirex("CG(scale=fine)@5"), sizes=[50], trials=60, seed=4).to_dict()
    binary = fit_study(_mirex("P(rel=40)@5"), sizes=[50], trials=60, seed=4).to_dict()
    assert fine["sizes"][0]["best"] == "beta"
    assert binary["sizes"][0]["best"] == "empirical"
    assert "the Beta distribution predicted the other 50 best" in fine["report"]


def test_a_system_that_cannot_be_fitted_is_left_out_of_every_average():
    rng = np.random.default_rng(3)
    X = rng.beta(2, 3, size=(3, 12))
    X[2] = 0.5  # all equal: no Normal, truncated Normal or Beta can be fitted
    m = ScoreMatrix("m", ("a", "b", "c"), tuple(map(str, range(12))), X)
    row = fit_study(m, sizes=[6], trials=5, seed=1).to_dict()["sizes"][0]
    assert (row["cases"], row["left_out"]) == (10, 5)
    with pytest.raises(ValueError, match="too few"):
        fit_study(m, sizes=[11], trials=1, seed=1)


def test_the_ecdf_counts_each_rows_sample_at_or_below_each_point_as_searchsorted_does():
    rng = np.random.default_rng(3)
    sample = rng.integers(0, 5, size=(7, 9)) / 4  # ties on purpose
    at = rng.integers(0, 5, size=(7, 6)) / 4
    expected = (
        np.stack(
            [np.searchsorted(np.sort(s), a, side="right") for s, a in zip(sample, at, strict=True)]
        )
        / sample.shape[1]
    )
    np.testing.assert_array_equal(_ecdf_at(sample, at), expected)


def test_the_leaderboards_study_fits_at_most_thirty_systems_and_says_of_how_many():
    rng = np.random.default_rng(4)
    scores = rng.beta(2, 3, size=(40, 24))
    matrix = ScoreMatrix("m", tuple(f"s{i}" for i in range(40)), tuple(map(str, range(24))), scores)
    document = leaderboard_fits(matrix, seed=5)
    assert (document["n_systems"], document["systems_total"]) == (LEADERBOARD_SYSTEMS, 40)
    assert document == leaderboard_fits(matrix, seed=5)  # the same seed, the same systems
    few = ScoreMatrix("m", matrix.systems[:3], matrix.queries, scores[:3])
    assert (
        leaderboard_fits(few, seed=5)["n_systems"]
        == 3
        == leaderboard_fits(few, seed=5)["systems_total"]
    )
