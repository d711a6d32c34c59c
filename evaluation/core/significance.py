"""Paired significance tests of one system against another on per-query scores.

Five tests of Urbano (2013, §5.1.2), after Smucker et al. (2007): the paired t-test
(eq. 5.1), the Wilcoxon signed-rank test (eq. 5.2), the sign test (eq. 5.3), the
bootstrap test with the shift method (eq. 5.4) and the permutation (randomisation)
test by random sign flips (eq. 5.5). Each has its own function; :func:`paired_test`
runs the one named by ``test``. For every pair of many systems at once, see
:func:`evaluation.core.pairwise.all_pairs` (the same kernels, vectorised).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*. PhD thesis, Universidad
Carlos III de Madrid, ch. 5. http://hdl.handle.net/10016/18041

M. D. Smucker, J. Allan, B. Carterette (2007). A comparison of statistical significance
tests for information retrieval evaluation. CIKM. https://doi.org/10.1145/1321440.1321528
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from evaluation.core import _validation as iv
from evaluation.core._paired_kernels import RESAMPLING_TESTS, effect_size, run_kernel
from evaluation.core._validation import Alternative, Seed

__all__ = [
    "RESAMPLING_TESTS",
    "TESTS",
    "Alternative",
    "PairedTestResult",
    "TestName",
    "bootstrap_test",
    "paired_t_test",
    "paired_test",
    "permutation_test",
    "sign_test",
    "wilcoxon_test",
]

TestName = Literal["t", "wilcoxon", "sign", "bootstrap", "permutation"]
"""The name of a paired test (thesis eqs. 5.1–5.5, in that order)."""

TESTS: tuple[str, ...] = get_args(TestName)


def test_iv(test: str) -> str:
    """``test`` if it names a paired test, else a ``ValueError`` listing the names."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    return test


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of one paired test of system A against system B (Δ = A − B).

    ``statistic`` is the test's own statistic (t; Wilcoxon's W = min(W+, W−) two-sided
    or W+ one-sided, as scipy reports it; the sign test's S = #{Δ > 0}; the observed
    mean difference for the resampling tests). ``ci_low``/``ci_high`` bound the mean
    difference at ``confidence``: t-based (eq. 4.6) except for the bootstrap test,
    whose interval is the percentile interval of the bootstrap means (``ci_method``);
    one-sided alternatives give one-sided intervals, as in scipy. ``effect_size`` is
    the standardised mean difference :math:`d_z = \\overline{\\Delta} / sd_\\Delta`.
    """

    test: str
    alternative: str
    statistic: float
    pvalue: float
    mean_difference: float
    ci_low: float
    ci_high: float
    ci_method: str
    confidence: float
    effect_size: float
    n: int
    resamples: int | None = None


def ci_method(test: str) -> str:
    """How a test's interval of the mean difference is made."""
    return "bootstrap-percentile" if test == "bootstrap" else "t"


def paired_test(
    x,
    y,
    *,
    test: TestName,
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> PairedTestResult:
    """Run the paired test named ``test`` on ``x − y``.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    test : {'t', 'wilcoxon', 'sign', 'bootstrap', 'permutation'}
        :func:`paired_t_test`, :func:`wilcoxon_test`, :func:`sign_test`,
        :func:`bootstrap_test` or :func:`permutation_test`.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests :math:`H_1: \\mu_{\\Delta\\lambda} > 0` (A better than B).
    resamples : int
        How many resamples the bootstrap and permutation tests draw (others ignore it).
    seed : None, int, SeedSequence or Generator
        Makes the resampling tests reproducible (others ignore it).
    confidence : float
        Level of the interval of the mean difference.

    Returns
    -------
    PairedTestResult

    References
    ----------
    Urbano (2013), §5.1.2, eqs. 5.1–5.5; Smucker et al. (2007), see the module.

    Examples
    --------
    >>> round(paired_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.4, 0.6, 0.4], test="t").pvalue, 4)
    0.0917
    """
    test_iv(test)
    D = iv.paired_iv(x, y)
    iv.alternative_iv(alternative)
    iv.confidence_iv(confidence)
    resampling = test in RESAMPLING_TESTS
    if resampling:
        iv.resamples_iv(resamples)
    stat, p, lo, hi = run_kernel(
        D, test=test, alternative=alternative, confidence=confidence,
        resamples=resamples, seed=iv.seed_sequence(seed) if resampling else None,
    )  # fmt: skip
    return PairedTestResult(
        test=test,
        alternative=alternative,
        statistic=float(stat[0]),
        pvalue=float(p[0]),
        mean_difference=float(D.mean()),
        ci_low=float(lo[0]),
        ci_high=float(hi[0]),
        ci_method=ci_method(test),
        confidence=confidence,
        effect_size=float(effect_size(D)[0]),
        n=D.shape[1],
        resamples=resamples if resampling else None,
    )


def paired_t_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Paired t-test of the mean difference ``x - y`` (Student 1908; thesis eq. 5.1).

    .. math::

        t = \frac{\overline{\Delta\lambda}_Q}{sd_Q / \sqrt{n_Q}}
        \qquad\text{(Urbano 2013, eq. 5.1)}

    with :math:`n_Q - 1` degrees of freedom; :math:`H_0: \mu_{\Delta\lambda} = 0`.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests :math:`H_1: \mu_{\Delta\lambda} > 0` (A better than B).
    confidence : float
        Level of the t-based interval of the mean difference (eq. 4.6).

    Returns
    -------
    PairedTestResult
        ``statistic`` is t.

    References
    ----------
    Student (1908). The probable error of a mean. Biometrika 6(1), 1–25.
    https://doi.org/10.1093/biomet/6.1.1

    Examples
    --------
    >>> r = paired_t_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.4, 0.6, 0.4])
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.4495, 0.0917)
    """
    return paired_test(x, y, test="t", alternative=alternative, confidence=confidence)


def wilcoxon_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Wilcoxon signed-rank test on the differences ``x - y`` (thesis eq. 5.2).

    Zero differences are dropped before ranking (``zero_method='wilcox'``), as in
    the thesis. Two-sided, the statistic is

    .. math::

        W = \min\left(W^+, W^-\right) \qquad\text{(Urbano 2013, eq. 5.2)}

    Computed by :func:`scipy.stats.wilcoxon` (exact distribution for up to 50 non-zero
    differences without ties, normal approximation otherwise).

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests that A's differences tend to be positive.
    confidence : float
        Level of the t-based interval of the mean difference (eq. 4.6).

    Returns
    -------
    PairedTestResult
        ``statistic`` is W (two-sided) or W+ (one-sided), as scipy reports it.

    References
    ----------
    F. Wilcoxon (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6), 80–83. https://doi.org/10.2307/3001968

    Examples
    --------
    >>> wilcoxon_test([1.5, 2.5, 3.5, 4.5, 5.5], [0.5] * 5).pvalue
    0.0625
    """
    return paired_test(x, y, test="wilcoxon", alternative=alternative, confidence=confidence)


def sign_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Sign test: the number of queries where A beats B (thesis eq. 5.3).

    .. math::

        S = \sum_{q \in Q} \mathbb{1}(\Delta\lambda_q > 0)
        \sim \mathrm{Binomial}\left(\textstyle\sum_q \mathbb{1}(\Delta\lambda_q \neq 0),\ 0.5\right)
        \qquad\text{(eq. 5.3)}

    Ties are dropped; only signs matter, never magnitudes. Two-sided
    :math:`p = \min(1, 2\min(P(S' \le S), P(S' \ge S)))`, which equals
    :func:`scipy.stats.binomtest` for probability 0.5.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests that A beats B on more than half the queries.
    confidence : float
        Level of the t-based interval of the mean difference (eq. 4.6).

    Returns
    -------
    PairedTestResult
        ``statistic`` is S.

    References
    ----------
    Urbano (2013), §5.1.2; Smucker et al. (2007).

    Examples
    --------
    >>> sign_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.4, 0.6, 0.4]).statistic
    3.0
    """
    return paired_test(x, y, test="sign", alternative=alternative, confidence=confidence)


def bootstrap_test(
    x,
    y,
    *,
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> PairedTestResult:
    r"""Bootstrap test with the shift method (Efron and Tibshirani 1998; thesis eq. 5.4).

    :math:`T` samples :math:`B_i` of :math:`n_Q` differences are drawn with
    replacement; with :math:`\overline{B}` the mean of their means,

    .. math::

        p = \frac{1}{T}\sum_{i=1}^{T}
            \mathbb{1}\left(\left|\overline{B_i} - \overline{B}\right|
                            \ge \left|\overline{\Delta\lambda}_Q\right|\right)
        \qquad\text{(Urbano 2013, eq. 5.4)}

    One-sided: 'greater' counts :math:`\overline{B_i} - \overline{B} \ge
    \overline{\Delta\lambda}_Q`, 'less' counts :math:`\le`.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests :math:`H_1: \mu_{\Delta\lambda} > 0` (A better than B).
    resamples : int
        :math:`T`, the number of bootstrap samples.
    seed : None, int, SeedSequence or Generator
        Makes the result reproducible.
    confidence : float
        Level of the percentile interval of the :math:`\overline{B_i}`.

    Returns
    -------
    PairedTestResult
        ``statistic`` is the observed mean difference; ``ci_method`` is
        ``'bootstrap-percentile'``.

    References
    ----------
    B. Efron, R. J. Tibshirani (1998). *An Introduction to the Bootstrap*. Chapman &
    Hall/CRC. https://doi.org/10.1201/9780429246593
    """
    return paired_test(
        x, y, test="bootstrap", alternative=alternative, resamples=resamples, seed=seed,
        confidence=confidence,
    )  # fmt: skip


def permutation_test(
    x,
    y,
    *,
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> PairedTestResult:
    r"""Permutation (randomisation) test by random sign flips (Good 2005; thesis eq. 5.5).

    Under :math:`H_0` the systems are interchangeable, so each :math:`\Delta\lambda_q`
    keeps or flips its sign with probability 1/2. With :math:`\overline{P_i}` the mean
    of the :math:`i`-th of :math:`T` sign-flipped samples,

    .. math::

        p = \frac{1}{T}\sum_{i=1}^{T}
            \mathbb{1}\left(\left|\overline{P_i}\right|
                            \ge \left|\overline{\Delta\lambda}_Q\right|\right)
        \qquad\text{(Urbano 2013, eq. 5.5)}

    As in the thesis (and ranx) the count is divided by :math:`T`, so p can be 0; the
    report strings then print ``p<1/T``.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests :math:`H_1: \mu_{\Delta\lambda} > 0` (A better than B).
    resamples : int
        :math:`T`, the number of sign-flipped samples.
    seed : None, int, SeedSequence or Generator
        Makes the result reproducible.
    confidence : float
        Level of the t-based interval of the mean difference (eq. 4.6).

    Returns
    -------
    PairedTestResult
        ``statistic`` is the observed mean difference.

    References
    ----------
    P. Good (2005). *Permutation, Parametric, and Bootstrap Tests of Hypotheses*, 3rd
    ed. Springer. https://doi.org/10.1007/b138696
    """
    return paired_test(
        x, y, test="permutation", alternative=alternative, resamples=resamples, seed=seed,
        confidence=confidence,
    )  # fmt: skip
