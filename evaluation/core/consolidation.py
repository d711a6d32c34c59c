"""Consolidating several judgments of one query–document pair into one level.

A pair may be judged several times (several assessors, several imported sources, a
judgment revised later). Qrels and the measures need one relevance level per pair and
scale, so every part of Earshot — the TREC qrels download and the leaderboards alike —
consolidates with :func:`consolidate`, one scale at a time.

Policies
--------
``mean`` (the default)
    The arithmetic mean of the levels, rounded to the nearest level, halves up:
    Broad 1 and 2 → 2, Fine 40 and 45 → 43, Fine 40 and 61 → 51, Broad 0, 1, 1 → 1.
``median``
    The median of the levels (the mean of the two middle ones for an even count),
    rounded the same way: Broad 1 and 2 → 2, Fine 10, 20, 30, 90 → 25.
``first``
    The level of the first judgment in the order given (the call site says which
    order: the qrels download gives them by creation time, the leaderboards by last
    update).
``latest``
    The level of the last judgment in the order given.

Why round, and why halves up
----------------------------
The result must be a *level* of the scale: the thesis' measures are defined on the
levels :math:`0 .. n_\\mathcal{L} - 1` of a scale (§2.5; binary scales keep
:math:`r \\ge \\ell_{min}`, ADR@k's user form counts :math:`r = n_\\mathcal{L} - 1`),
and TREC qrels, which the download writes for trec_eval and every TREC tool, carry
integer relevance ("an integer between -127 and 127", trec_eval's ``get_qrels.c``).
One consolidation for both therefore has to give levels, or the downloaded qrels and
the leaderboards disagree.

The thesis models several assessors of a pair as a random facet averaged over
(§6.4, the MIREX 2006 collection with three assessors per pair: the D-study's score of
a system is its mean over :math:`n'_h` assessors), so the consolidated level is the
mean, rounded to the nearest level: never more than half a level from it. A mean
exactly halfway between two levels (two assessors saying 1 and 2) goes up, so that a
pair half of its assessors put at a level is at that level — the "at least"
reading of the thesis' thresholds (relevant when :math:`r_d \\ge \\ell_{min}`,
§3.1.2) — which is also what the qrels download always did. Arithmetic is exact
(fractions), so 42.5 is a half whatever the floating point.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, get_args

__all__ = ["POLICIES", "Policy", "consolidate", "round_half_up"]

Policy = Literal["mean", "median", "first", "latest"]
POLICIES: tuple[str, ...] = get_args(Policy)


def round_half_up(value: Fraction | float | int) -> int:
    """The nearest integer, halves up: 1.5 → 2, 42.5 → 43, 0.49 → 0.

    >>> round_half_up(Fraction(3, 2)), round_half_up(Fraction(85, 2)), round_half_up(0.49)
    (2, 43, 0)
    """
    return math.floor(Fraction(value) + Fraction(1, 2))


def _exact(value) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"a relevance level must be a number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"a relevance level must be finite, not {value!r}")
    return Fraction(value)


def _median(values: list[Fraction]) -> Fraction:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def consolidate(values: Sequence[int | float], *, policy: Policy = "mean") -> int:
    """One relevance level from several judgments of a pair on one scale.

    Parameters
    ----------
    values:
        The levels given (Broad 0–2, Fine 0–100, ...), in the order the call site
        documents (oldest first); at least one.
    policy:
        ``"mean"`` (default), ``"median"``, ``"first"`` or ``"latest"`` (see the module
        docstring); ``mean`` and ``median`` round to the nearest level, halves up.

    >>> consolidate([1, 2]), consolidate([40, 61]), consolidate([0, 1, 1])
    (2, 51, 1)
    >>> consolidate([10, 20, 30, 90], policy="median"), consolidate([70, 10], policy="latest")
    (25, 10)
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if not values:
        raise ValueError("nothing to consolidate")
    exact = [_exact(v) for v in values]
    if policy == "mean":
        return round_half_up(sum(exact) / len(exact))
    if policy == "median":
        return round_half_up(_median(exact))
    if policy == "first":
        return round_half_up(exact[0])
    return round_half_up(exact[-1])
