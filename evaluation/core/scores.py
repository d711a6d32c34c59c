"""Per-query score matrices: the common currency between measures and statistics."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ScoreMatrix:
    """Scores of one measure: ``scores[i, j]`` is system ``systems[i]`` on query ``queries[j]``.

    Every system has a score on every query (the measures decide what a missing
    ranking scores), so the statistics can treat the matrix as a complete
    systems × queries design.
    """

    measure: str
    systems: tuple[str, ...]
    queries: tuple[str, ...]
    scores: np.ndarray

    def __post_init__(self) -> None:
        shape = (len(self.systems), len(self.queries))
        if self.scores.shape != shape:
            raise ValueError(f"scores have shape {self.scores.shape}, expected {shape}")

    def system_means(self) -> np.ndarray:
        return self.scores.mean(axis=1)

    def row(self, system: str) -> np.ndarray:
        return self.scores[self.systems.index(system)]
