"""Small helpers shared by the measure kernels: cut-offs, discounts, safe division."""

from __future__ import annotations

import numpy as np


def top(matrix: np.ndarray, k: int | None) -> np.ndarray:
    """The first ``k`` columns of a ``(n_queries, depth)`` matrix, zero-padded to ``k``.

    Ranks beyond what a system retrieved count as non-relevant, so a run of depth 3
    has P@5 = (relevant in top 3) / 5, as in trec_eval.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"expected a (n_queries, depth) matrix, got shape {matrix.shape}")
    if k is None:
        return matrix
    if k < 1:
        raise ValueError(f"cut-off k must be at least 1, got {k}")
    depth = matrix.shape[1]
    if depth >= k:
        return matrix[:, :k]
    return np.pad(matrix, ((0, 0), (0, k - depth)))


def ranks(width: int) -> np.ndarray:
    """``[1, 2, ..., width]`` as floats."""
    return np.arange(1, width + 1, dtype=np.float64)


def log2_discount(width: int) -> np.ndarray:
    """:math:`d(i) = \\log_2(i + 1)` (Burges et al. 2005), for ``i = 1 .. width``."""
    return np.log2(ranks(width) + 1.0)


def divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator``, 0 where the denominator is 0 (nothing to find)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.broadcast_to(np.asarray(denominator, dtype=np.float64), numerator.shape)
    out = np.zeros(numerator.shape, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out
