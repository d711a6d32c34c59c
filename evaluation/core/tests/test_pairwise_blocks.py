"""All pairs in blocks: the pairwise tests hold a block of pairs at a time (issue 21:
never systems² × resamples in memory) and give the same numbers as in one block.

The reference is :func:`~evaluation.core.pairwise.all_pairs` itself with every pair in
one block (the budget above the whole problem), which ``test_significance.py`` checks
against scipy and the thesis. The blocks change no p-value; the other numbers may differ
in the last bit only, because the matrix product of the resampling tests sums in another
order for another shape (BLAS), hence ``rtol=1e-12``.
"""

import numpy as np
import pytest

from evaluation.core import _paired_kernels, pairwise
from evaluation.core.pairwise import all_pairs

FIELDS = ("mean_difference", "statistic", "pvalue", "ci_low", "ci_high", "effect_size")


def scores():
    rng = np.random.default_rng(5)
    X = rng.random((7, 12))
    X[3] = X[2]  # identical systems: p = 1, effect 0
    return X


@pytest.mark.parametrize("test", ["t", "sign", "wilcoxon", "bootstrap", "permutation"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_pairs_in_blocks_of_three_give_the_numbers_of_one_block(monkeypatch, test, alternative):
    X = scores()
    whole = all_pairs(X, test=test, alternative=alternative, resamples=500, seed=11)
    n = X.shape[1]
    monkeypatch.setattr(pairwise, "PAIR_BLOCK_BYTES", 3 * 8 * n)  # three pairs a block
    monkeypatch.setattr(_paired_kernels, "_NULL_BYTES", 2 * 8 * 500)  # two pairs' resamples
    blocks = all_pairs(X, test=test, alternative=alternative, resamples=500, seed=11)
    np.testing.assert_array_equal(blocks.pvalue, whole.pvalue)
    for field in FIELDS:
        np.testing.assert_allclose(
            getattr(blocks, field), getattr(whole, field), rtol=1e-12, atol=0, err_msg=field
        )


def test_the_kernel_leaves_the_seed_it_was_given_as_it_was():
    seed = np.random.SeedSequence(11)
    D = np.random.default_rng(1).random((4, 9)) - 0.5
    first = _paired_kernels.run_kernel(D, test="bootstrap", alternative="two-sided",
                                       confidence=0.95, resamples=300, seed=seed)  # fmt: skip
    assert seed.n_children_spawned == 0
    again = _paired_kernels.run_kernel(D, test="bootstrap", alternative="two-sided",
                                       confidence=0.95, resamples=300, seed=seed)  # fmt: skip
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
