"""From crowd answers to a measured satisfaction mapping (thesis §3.3).

Every answer is one user's verdict on an example: a query and two ranked lists a and b
with effectiveness λa and λb on a measure. Of the four answers of thesis Figure 3.1:

- "both equally good" labels **both** lists satisfactory, "both equally bad" labels
  both unsatisfactory — these are the observations of P(Sat | λ) (§3.3.1);
- a preference ("a is better" / "b is better") does not say whether either list
  satisfies; it says whether the user agrees with Δλ = λa − λb: Agr = +1 when she
  prefers the list with the larger λ, −1 when she prefers the other one, and
  nonpreferences are Agr = 0 — every answer is an observation of P(Agr | Δλ) (§3.3.2).

:func:`label_answers` makes those observations; :func:`mapping_payload` bins them
with Wilson intervals, fits the cubic of eq. (4.3), computes the bias and distance
measures of eqs. (3.11)–(3.13) and compares the fit with the published one of
Table 4.3, as one JSON-safe document::

    measure, thesis_key: [measure, scale] | None, n_answers, n_lists, n_preferences,
    outcomes: {a_better, b_better, both_good, both_bad}, confidence,
    satisfaction: {edges, centres, counts, successes, proportion, ci_low, ci_high},
    agreement: {counts, positive: {successes, proportion, ci_low, ci_high},
                negative: {successes, proportion, ci_low, ci_high}},
    fit: {coefficients, r_squared, rms} | None, fit_note,
    endpoint_bias | None, distance_to_one | None, distance_to_zero | None,
    published: {source, label, coefficients, rms_fit_difference, max_fit_difference,
                rms_bin_difference} | None

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §3.3 and ch. 4. PhD thesis,
Universidad Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from evaluation.core import satisfaction as sat_math
from evaluation.core.jsonsafe import json_safe
from evaluation.core.published_mappings import published_mapping_for, thesis_name

__all__ = [
    "ANSWERS",
    "A_BETTER",
    "BOTH_BAD",
    "BOTH_GOOD",
    "B_BETTER",
    "PREFERENCE",
    "label_answers",
    "mapping_payload",
]

A_BETTER, B_BETTER, BOTH_GOOD, BOTH_BAD = "a_better", "b_better", "both_good", "both_bad"
ANSWERS = (A_BETTER, B_BETTER, BOTH_GOOD, BOTH_BAD)
"""The four answers of thesis Figure 3.1, about the lists a and b."""

PREFERENCE = {A_BETTER: 1, B_BETTER: -1, BOTH_GOOD: 0, BOTH_BAD: 0}
"""Which list an answer prefers: +1 list a, −1 list b, 0 neither."""

MIN_FIT_BINS = 4
"""The cubic of eq. (4.3) is fitted only through at least this many bins with lists."""

GRID = np.linspace(0.0, 1.0, 101)
"""λ values at which a fitted curve is compared with the published one."""


TIE_TOLERANCE = 1e-9
"""Two λ closer than this are a tie: Δλ = 0. Lists that score the same can differ in the
last bits through the order of a sum (RBP(form=user,gain=exp,scale=graded5)@5 of levels
(0, 0, 2, 0, 4) and (0, 0, 3, 3, 0): 3·0.8² + 15·0.8⁴ = 7·0.8² + 7·0.8³ = 8.064, yet
Δλ = −2.8e-17 in floating point), and a preference for either would count as an
agreement or a disagreement with a difference the measure does not make. Real
differences of the thesis' measures on 5 documents are far larger (≥ 1e-4)."""


def label_answers(outcomes: Iterable[str], lam_a, lam_b) -> dict[str, np.ndarray]:
    """Turn answers about lists a and b into the observations of §3.3.

    Parameters
    ----------
    outcomes : iterable of str
        One of :data:`ANSWERS` per answer, about the stored lists a and b.
    lam_a, lam_b : array_like
        λ of list a and of list b of each answer's example.

    Returns
    -------
    dict
        ``sat_scores`` and ``satisfied`` (two observations per nonpreference: both lists
        satisfactory for "both good", both unsatisfactory for "both bad") and
        ``deltas`` (Δλ = λa − λb, 0 within :data:`TIE_TOLERANCE`) with ``agreement``
        ∈ {1, 0, −1}, one per answer.

    Examples
    --------
    >>> labelled = label_answers(["both_good", "b_better"], [0.8, 0.7], [0.6, 0.2])
    >>> labelled["sat_scores"].tolist(), labelled["satisfied"].tolist()
    ([0.8, 0.6], [True, True])
    >>> labelled["agreement"].tolist()
    [0, -1]
    """
    outcomes = list(outcomes)
    lam_a = np.asarray(lam_a, dtype=float)
    lam_b = np.asarray(lam_b, dtype=float)
    unknown = sorted(set(outcomes) - set(PREFERENCE))
    if unknown:
        raise ValueError(f"unknown answers {unknown}")
    good = np.array([o == BOTH_GOOD for o in outcomes], dtype=bool)
    bad = np.array([o == BOTH_BAD for o in outcomes], dtype=bool)
    non = good | bad
    deltas = lam_a - lam_b
    deltas[np.abs(deltas) <= TIE_TOLERANCE] = 0.0  # a tie is a tie, whatever the last bits
    preference = np.array([PREFERENCE[o] for o in outcomes], dtype=int)
    return {
        "sat_scores": np.concatenate([lam_a[non], lam_b[non]]),
        "satisfied": np.concatenate([good[non], good[non]]),
        "deltas": deltas,
        "agreement": sat_math.agreement_from_preference(deltas, preference),
    }


def _bins(binned, *, with_counts: bool) -> dict:
    out = {
        "successes": binned.successes.tolist(),
        "proportion": binned.proportion.tolist(),
        "ci_low": binned.ci_low.tolist(),
        "ci_high": binned.ci_high.tolist(),
    }
    if with_counts:
        out = {
            "edges": binned.edges.tolist(),
            "centres": binned.centres.tolist(),
            "counts": binned.counts.tolist(),
            **out,
        }
    return out


def _compared_with_published(measure: str, sat, fit: dict | None) -> dict | None:
    """The Table 4.3 mapping of ``measure`` and how far the bins and the fit are from it."""
    published = published_mapping_for(measure)
    if published is None:
        return None
    curve = sat_math.CubicMapping(*published["coefficients"])
    ok = sat.counts > 0
    at_centres = curve(sat.centres[ok])
    published["rms_bin_difference"] = (
        float(np.sqrt(np.mean((sat.proportion[ok] - at_centres) ** 2))) if ok.any() else None
    )
    if fit is not None:
        diff = sat_math.CubicMapping(*fit["coefficients"])(GRID) - curve(GRID)
        published["rms_fit_difference"] = float(np.sqrt(np.mean(diff**2)))
        published["max_fit_difference"] = float(np.max(np.abs(diff)))
    else:
        published["rms_fit_difference"] = published["max_fit_difference"] = None
    return published


def mapping_payload(measure: str, outcomes: list[str], lam_a, lam_b) -> dict:
    """The satisfaction mapping of one measure from answers and the λ of their lists.

    Parameters
    ----------
    measure : str
        The measure's name (:mod:`evaluation.core.names`), e.g. ``CG(scale=fine)@5``.
    outcomes : list of str
        One of :data:`ANSWERS` per answer, about the stored lists a and b.
    lam_a, lam_b : array_like
        λ of list a and of list b of each answer's example, in [0, 1].

    Returns
    -------
    dict
        The JSON-safe document described in the module docstring.
    """
    labelled = label_answers(outcomes, lam_a, lam_b)
    sat = sat_math.satisfaction_by_bin(labelled["sat_scores"], labelled["satisfied"])
    agr = sat_math.agreement_by_bin(labelled["deltas"], labelled["agreement"])

    fit, fit_note = None, ""
    bins_with_lists = int((sat.counts > 0).sum())
    if bins_with_lists >= MIN_FIT_BINS:
        cubic = sat_math.fit_satisfaction_mapping(sat)
        fit = {
            "coefficients": list(cubic.coefficients),
            "r_squared": cubic.r_squared,
            "rms": cubic.rms,
        }
    else:
        fit_note = (
            f"The cubic of eq. (4.3) needs P(Sat) in at least {MIN_FIT_BINS} bins; "
            f"{bins_with_lists} have nonpreference answers."
        )
    try:
        bias = sat_math.endpoint_bias(sat)
    except ValueError:
        bias = None  # no lists in the first or last bin
    has_agr = bool(agr.positive.counts.sum())
    key = thesis_name(measure)
    counts = Counter(outcomes)
    return json_safe(
        {
            "measure": measure,
            "thesis_key": list(key) if key else None,
            "n_answers": len(outcomes),
            "n_lists": int(labelled["sat_scores"].size),
            "n_preferences": counts[A_BETTER] + counts[B_BETTER],
            "outcomes": {o: counts[o] for o in PREFERENCE},
            "confidence": sat.confidence,
            "satisfaction": _bins(sat, with_counts=True),
            "agreement": {
                "counts": agr.positive.counts.tolist(),
                "positive": _bins(agr.positive, with_counts=False),
                "negative": _bins(agr.negative, with_counts=False),
            },
            "fit": fit,
            "fit_note": fit_note,
            "endpoint_bias": bias,
            "distance_to_one": sat_math.distance_to_one(agr.positive) if has_agr else None,
            "distance_to_zero": sat_math.distance_to_zero(agr.negative) if has_agr else None,
            "published": _compared_with_published(measure, sat, fit),
        }
    )
