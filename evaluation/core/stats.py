"""Earshot's statistics: one documented module for everything in the statistical core.

Import from here (``from evaluation.core import stats`` or
``from evaluation.core.stats import all_pairs``); the implementation lives in small
modules named after what they do. Every function takes per-query scores — a
:class:`~evaluation.core.scores.ScoreMatrix` or plain numpy arrays — with options
keyword-only, and returns named frozen dataclasses. Pure numpy + scipy, no Django.

Paired significance tests (:mod:`evaluation.core.significance`, thesis §5.1.2)
    :func:`paired_t_test` (eq. 5.1), :func:`wilcoxon_test` (eq. 5.2),
    :func:`sign_test` (eq. 5.3), :func:`bootstrap_test` (shift method, eq. 5.4),
    :func:`permutation_test` (sign flips, eq. 5.5), or :func:`paired_test` naming one
    of :data:`TESTS` → :class:`PairedTestResult`.

All pairs (:mod:`evaluation.core.pairwise`)
    :func:`all_pairs` runs one test on every pair of systems at once, vectorised and
    memory-bounded → :class:`PairwiseComparison`, with adjusted p-values and the
    compact letter display of the systems that are not significantly different.

Letters (:mod:`evaluation.core.letters`, Piepho 2004)
    :func:`significant_pairs` and :func:`compact_letters`: systems share a letter exactly
    when they are not significantly different.

What results cannot say (:mod:`evaluation.core.caveats`)
    :class:`Caveat` (``code``, ``message``): :func:`too_few_queries_for_tests`
    (:func:`min_queries_for_tests`), :func:`fewer_queries_than_needed`,
    :func:`unjudged_documents`, :func:`reliability_not_estimable`.

Many systems (:mod:`evaluation.core.multiple`)
    :func:`friedman_test`, :func:`anova_two_way`, :func:`tukey_hsd`,
    :func:`randomised_tukey_hsd` (Sakai), :func:`adjust_pvalues` (Holm, Bonferroni);
    the Studentized range of every pair at once in
    :mod:`evaluation.core.studentized_range`.

Intervals and reports (:mod:`evaluation.core.intervals`, thesis §4.1.3, §4.2, §5.6.2)
    :func:`mean_ci` (eq. 4.6), :func:`mean_difference_ci`, :func:`prediction_interval`
    (t-based); :func:`mean_intervals` and :func:`bootstrap_mean_ci` (within bounds at
    every size: bootstrap percentile where eq. 4.6 would not do, ``MIN_T_QUERIES``),
    :func:`format_interval`, :func:`score_prediction_interval` (the §4.2.3 distribution),
    :func:`satisfaction_floor` and :func:`format_satisfaction_floor` ("95% of future
    queries are expected to get P(Sat) > 0.19"),
    :func:`format_estimate` (``CG_l@5 = 0.2525 ± 0.0507``), :func:`format_difference`
    (``ΔCG_l@5 = 0.0371 ± 0.0314 (p=0.024)``), :func:`format_pvalue`.

Score distributions (:mod:`evaluation.core.distributions`, thesis §4.2)
    :func:`fit_normal`, :func:`fit_truncated_normal`, :func:`fit_beta`,
    :func:`fit_empirical` (Hyndman–Fan type 7), :func:`fit_distribution`;
    :func:`recommended_family` (§4.2.3) and :func:`fit_recommended`;
    :func:`omega_squared` (eq. 4.7), :func:`ks_distance`, :func:`goodness_of_fit`.

Satisfaction mathematics (:mod:`evaluation.core.satisfaction`, thesis ch. 3–4)
    :func:`satisfaction_by_bin`, :func:`agreement_by_bin`,
    :func:`agreement_from_preference`, :func:`wilson_interval`, :func:`fit_cubic` and
    :func:`fit_satisfaction_mapping` (eq. 4.3), :func:`endpoint_bias` (eq. 3.11),
    :func:`distance_to_one` (eq. 3.12), :func:`distance_to_zero` (eq. 3.13),
    :func:`prior_deltas`, :func:`agreement_threshold`,
    :func:`expected_fraction_agreeing` (Table 3.5), :func:`mean_satisfaction`
    (eqs. 4.4–4.6), :func:`success_probability` (eq. 4.8),
    :func:`satisfied_users_pmf` (eq. 4.2).

Published mappings (:mod:`evaluation.core.published_mappings`, thesis Table 4.3)
    :data:`PUBLISHED_MAPPINGS`, :func:`published_mapping`, :func:`published_mapping_for`
    and :func:`thesis_name` (Earshot's measure names → the thesis' ``CG_l@5``).

Generalizability Theory (:mod:`evaluation.core.gtheory`, thesis ch. 6)
    :func:`g_study` (crossed, eq. 6.3), :func:`g_study_nested` (eq. 6.8),
    :func:`d_study` (eqs. 6.4, 6.5, 6.10), :func:`queries_needed` (eqs. 6.6, 6.7).

Example
-------
>>> import numpy as np
>>> from evaluation.core import stats
>>> X = np.random.default_rng(0).random((5, 40))
>>> res = stats.all_pairs(X, test="permutation", resamples=2000, seed=1)
>>> res.adjusted_pvalues("holm").shape
(5, 5)
>>> print(stats.format_difference("CG_l@5", stats.mean_difference_ci(X[0], X[1]), 0.024))
ΔCG_l@5 = 0.0464 ± 0.0982 (p=0.024)
"""

from evaluation.core.bounded_intervals import (
    MIN_T_QUERIES,
    bootstrap_mean_ci,
    mean_intervals,
)
from evaluation.core.caveats import (
    Caveat,
    fewer_queries_than_needed,
    letters_unavailable,
    min_queries_for_tests,
    reliability_not_estimable,
    too_few_queries_for_tests,
    unjudged_documents,
)
from evaluation.core.distributions import (
    BetaFit,
    EmpiricalFit,
    FittedDistribution,
    GoodnessOfFit,
    NormalFit,
    TruncatedNormalFit,
    fit_beta,
    fit_distribution,
    fit_empirical,
    fit_normal,
    fit_recommended,
    fit_truncated_normal,
    goodness_of_fit,
    ks_distance,
    omega_squared,
    recommended_family,
)
from evaluation.core.gtheory import (
    CrossedGStudy,
    DStudy,
    NestedGStudy,
    d_study,
    g_study,
    g_study_nested,
    queries_needed,
)
from evaluation.core.intervals import (
    Interval,
    PredictionInterval,
    SatisfactionFloor,
    format_difference,
    format_estimate,
    format_interval,
    format_pvalue,
    format_satisfaction_floor,
    mean_ci,
    mean_difference_ci,
    prediction_interval,
    satisfaction_floor,
    score_prediction_interval,
)
from evaluation.core.letters import compact_letters, significant_pairs
from evaluation.core.multiple import (
    ADJUSTMENTS,
    AnovaResult,
    AnovaRow,
    FriedmanResult,
    TukeyHSDResult,
    adjust_pvalues,
    anova_two_way,
    friedman_test,
    randomised_tukey_hsd,
    tukey_hsd,
)
from evaluation.core.pairwise import PairwiseComparison, all_pairs
from evaluation.core.published_mappings import (
    PUBLISHED_MAPPINGS,
    published_mapping,
    published_mapping_for,
    thesis_name,
)
from evaluation.core.satisfaction import (
    BIN_EDGES,
    AgreementBins,
    BinnedProportion,
    CubicMapping,
    PriorFraction,
    agreement_by_bin,
    agreement_from_preference,
    agreement_threshold,
    bin_index,
    distance_to_one,
    distance_to_zero,
    endpoint_bias,
    expected_fraction_agreeing,
    fit_cubic,
    fit_satisfaction_mapping,
    mean_satisfaction,
    prior_deltas,
    satisfaction_by_bin,
    satisfied_users_pmf,
    success_probability,
    wilson_interval,
)
from evaluation.core.significance import (
    RESAMPLING_TESTS,
    TESTS,
    PairedTestResult,
    bootstrap_test,
    paired_t_test,
    paired_test,
    permutation_test,
    sign_test,
    wilcoxon_test,
)

__all__ = [
    "ADJUSTMENTS",
    "BIN_EDGES",
    "MIN_T_QUERIES",
    "PUBLISHED_MAPPINGS",
    "RESAMPLING_TESTS",
    "TESTS",
    "AgreementBins",
    "AnovaResult",
    "AnovaRow",
    "BetaFit",
    "BinnedProportion",
    "Caveat",
    "CrossedGStudy",
    "CubicMapping",
    "DStudy",
    "EmpiricalFit",
    "FittedDistribution",
    "FriedmanResult",
    "GoodnessOfFit",
    "Interval",
    "NestedGStudy",
    "NormalFit",
    "PairedTestResult",
    "PairwiseComparison",
    "PredictionInterval",
    "PriorFraction",
    "SatisfactionFloor",
    "TruncatedNormalFit",
    "TukeyHSDResult",
    "adjust_pvalues",
    "agreement_by_bin",
    "agreement_from_preference",
    "agreement_threshold",
    "all_pairs",
    "anova_two_way",
    "bin_index",
    "bootstrap_mean_ci",
    "bootstrap_test",
    "compact_letters",
    "d_study",
    "distance_to_one",
    "distance_to_zero",
    "endpoint_bias",
    "expected_fraction_agreeing",
    "fewer_queries_than_needed",
    "fit_beta",
    "fit_cubic",
    "fit_distribution",
    "fit_empirical",
    "fit_normal",
    "fit_recommended",
    "fit_satisfaction_mapping",
    "fit_truncated_normal",
    "format_difference",
    "format_estimate",
    "format_interval",
    "format_pvalue",
    "format_satisfaction_floor",
    "friedman_test",
    "g_study",
    "g_study_nested",
    "goodness_of_fit",
    "ks_distance",
    "letters_unavailable",
    "mean_ci",
    "mean_difference_ci",
    "mean_intervals",
    "mean_satisfaction",
    "min_queries_for_tests",
    "omega_squared",
    "paired_t_test",
    "paired_test",
    "permutation_test",
    "prediction_interval",
    "prior_deltas",
    "published_mapping",
    "published_mapping_for",
    "queries_needed",
    "randomised_tukey_hsd",
    "recommended_family",
    "reliability_not_estimable",
    "satisfaction_by_bin",
    "satisfaction_floor",
    "satisfied_users_pmf",
    "score_prediction_interval",
    "sign_test",
    "significant_pairs",
    "success_probability",
    "thesis_name",
    "too_few_queries_for_tests",
    "tukey_hsd",
    "unjudged_documents",
    "wilcoxon_test",
    "wilson_interval",
]
