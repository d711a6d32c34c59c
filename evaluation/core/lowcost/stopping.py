"""When to stop judging (thesis §8.3–8.4).

``relative``: stop when the mean confidence in the sign of the system differences, the
confidence in the ranking (8.20), reaches a target (the thesis uses 95%).

``absolute``: stop when the expected error of the mean scores is small enough. From
(8.19) a half-width h at the 95% level needs :math:`t_{0.975}\\sqrt{Var[\\bar\\Lambda]} \\le h`,
:math:`\\sqrt{Var} \\le 0.0252` for h = 0.05 and 100 queries; the variance is averaged
over the systems. Because the estimates overestimate effectiveness (Fig. 8.4), the
thesis corrects the threshold from the observed relation between rooted variance and
absolute error (Fig. 8.5): :math:`\\sqrt{Var} \\le 0.0071` for ±0.01 and
:math:`\\le 0.011` for ±0.05 (the two values the text gives, §8.4). Other half-widths
are interpolated linearly between them and scaled proportionally outside.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from evaluation.core.lowcost.measures import ExpectedScores
from evaluation.core.lowcost.selection import check_target

#: Fig. 8.5 as quoted in §8.4: target half-width -> rooted variance threshold.
CORRECTED_THRESHOLDS = ((0.01, 0.0071), (0.05, 0.011))


def corrected_threshold(half_width: float) -> float:
    """:math:`\\sqrt{Var}` threshold for an absolute error of ±``half_width`` (Fig. 8.5).

    >>> corrected_threshold(0.05), corrected_threshold(0.01)
    (0.011, 0.0071)
    """
    if half_width <= 0:
        raise ValueError(f"the half-width must be positive, got {half_width}")
    (h0, v0), (h1, v1) = CORRECTED_THRESHOLDS
    if half_width < h0:
        return v0 * half_width / h0
    if half_width > h1:
        return v1 * half_width / h1
    return float(np.interp(half_width, [h0, h1], [v0, v1]))


def uncorrected_threshold(half_width: float, n_queries: int, level: float = 0.95) -> float:
    """:math:`h / t_{(1+level)/2,\\, n_Q - 1}`: 0.0252 for h = 0.05 and 100 queries."""
    return half_width / stats.t.ppf(0.5 + level / 2, max(n_queries - 1, 1))


@dataclass(frozen=True)
class StoppingState:
    """Where a low-cost evaluation stands against its stopping rule.

    ``value`` is the ranking confidence (relative) or the rooted mean variance of the
    systems' mean scores (absolute); ``stop`` says whether it meets ``threshold``.
    """

    target: str
    value: float
    threshold: float
    stop: bool
    rule: str


def root_mean_variance(scores: ExpectedScores) -> float:
    """:math:`\\sqrt{\\mathrm{mean}_A Var[\\bar\\Lambda_A]}`, what the absolute rule bounds."""
    return float(np.sqrt(np.mean(scores.variance)))


def stopping_state(
    scores: ExpectedScores,
    *,
    target: str = "relative",
    confidence: float = 0.95,
    half_width: float = 0.05,
    corrected: bool = True,
) -> StoppingState:
    """Whether to stop judging (thesis §8.3 for ``relative``, §8.4 for ``absolute``)."""
    if check_target(target) == "relative":
        if not 0.5 <= confidence < 1:
            raise ValueError(f"the target confidence must be in [0.5, 1), got {confidence}")
        value = scores.ranking_confidence
        return StoppingState(
            target,
            value,
            confidence,
            value >= confidence,
            f"mean confidence in the ranking >= {confidence:g} (thesis §8.3)",
        )
    threshold = (
        corrected_threshold(half_width)
        if corrected
        else uncorrected_threshold(half_width, len(scores.queries), scores.level)
    )
    value = root_mean_variance(scores)
    kind = "corrected, Fig. 8.5" if corrected else "uncorrected, eq. 8.19"
    return StoppingState(
        target,
        value,
        threshold,
        value <= threshold,
        f"sqrt(mean Var) <= {threshold:.4g} for ±{half_width:g} ({kind})",
    )
