"""Input checks shared by the statistics modules, run before any work (after scipy's ``*_iv``).

Private to :mod:`evaluation.core`: :mod:`~evaluation.core.significance`,
:mod:`~evaluation.core.pairwise` and :mod:`~evaluation.core.multiple` validate their
arguments here, so that a wrong value fails at once with a message that names it, and
the same value is refused the same way by every public function.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from evaluation.core.scores import ScoreMatrix

Alternative = Literal["two-sided", "less", "greater"]
"""Which alternative hypothesis a test takes, as in :mod:`scipy.stats`."""

ALTERNATIVES: tuple[str, ...] = ("two-sided", "less", "greater")

Seed = int | np.random.SeedSequence | np.random.Generator | None
"""What a ``seed`` argument takes: ``None`` (fresh entropy), an int, a SeedSequence, or
a Generator (which is advanced by one draw)."""


def alternative_iv(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(
            f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}"
        )
    return alternative


def confidence_iv(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(confidence)


def resamples_iv(resamples: int) -> int:
    if int(resamples) != resamples or resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    return int(resamples)


def seed_sequence(seed: Seed) -> np.random.SeedSequence:
    """``seed`` as a SeedSequence (a Generator is advanced to draw one)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    return np.random.SeedSequence(seed)


def finite_iv(values: np.ndarray) -> np.ndarray:
    if not np.all(np.isfinite(values)):
        raise ValueError("scores contain NaN or infinite values")
    return values


def paired_iv(x, y) -> np.ndarray:
    """Two equally long 1-d samples of finite scores as their ``(1, n)`` differences."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"expected two 1-d samples of equal length, got {x.shape} and {y.shape}")
    if x.size < 2:
        raise ValueError("a paired test needs at least 2 queries")
    finite_iv(x)
    finite_iv(y)
    return (x - y)[None, :]


def matrix_iv(scores) -> tuple[tuple[str, ...], np.ndarray]:
    """A systems × queries matrix of finite scores, with the systems' names.

    A :class:`ScoreMatrix` keeps its names; a plain array gets systems ``'0'``, ``'1'``, …
    The callers check the sizes they need, each with its own message.
    """
    if isinstance(scores, ScoreMatrix):
        return scores.systems, finite_iv(np.asarray(scores.scores, dtype=float))
    X = np.asarray(scores, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"expected a systems × queries matrix, got shape {X.shape}")
    return tuple(str(i) for i in range(X.shape[0])), finite_iv(X)
