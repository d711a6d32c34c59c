"""Relevance scales and gain functions (thesis §2.5.2 and §3.1.2).

A **scale** turns the relevance values read from the judgments into levels
``0 .. n_L - 1``; a **gain** turns levels into utilities. Both work elementwise on
arrays so they can be applied to a whole ``(n_queries, depth)`` matrix at once.

Scales
------
``raw``
    The values as judged (TREC qrels); the top level is the largest value judged.
``broad``
    MIREX Broad scale, levels 0, 1, 2 (:math:`n_\\mathcal{L} = 3`).
``fine``
    MIREX Fine scale, levels 0–100 (:math:`n_\\mathcal{L} = 101`).
``graded3``, ``graded4``, ``graded5``
    Artificial graded scales built from Fine (thesis §3.1.2): the 101 one-point cells
    of the Fine scale, ``[r, r + 1)`` for ``r = 0 .. 100``, are split into
    :math:`n_\\mathcal{L}` intervals of length :math:`101 / n_\\mathcal{L}`, and a
    judgment falls in the interval that holds the centre of its cell:

    .. math:: \\ell(r) = \\left\\lfloor \\frac{(r + 1/2)\\, n_\\mathcal{L}}{101} \\right\\rfloor

    For :math:`n_\\mathcal{L} = 3` this gives 0 if ``r < 34``, 1 if ``34 <= r < 67``
    and 2 if ``r >= 67``, the thesis' own worked example; the boundaries are 25, 50, 76
    for four levels and 20, 40, 61, 81 for five.
``rel=ℓ`` (binary)
    Relevant (level 1) if the value on the underlying scale is at least ℓ_min.

Gains
-----
``lin``: :math:`g(\\ell) = \\ell`; ``exp``: :math:`g(\\ell) = 2^\\ell - 1` (Burges et al.
2005); or a :class:`Gain` built from a custom per-level mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

#: Which relevance column of the judgments each named scale is read from.
SOURCE = {"raw": "raw", "broad": "broad", "fine": "fine"}
GRADED = {"graded3": 3, "graded4": 4, "graded5": 5}
SCALE_NAMES = ("raw", "broad", "fine", "graded3", "graded4", "graded5")


@dataclass(frozen=True)
class Scale:
    """A relevance scale: which judgments column it reads and how values become levels.

    Attributes
    ----------
    name:
        ``raw``, ``broad``, ``fine``, ``graded3..5``, optionally with a binary threshold
        (``fine,rel=40``).
    source:
        The relevance column it reads (``raw``, ``broad`` or ``fine``).
    n_levels:
        :math:`n_\\mathcal{L}`; ``None`` for ``raw``, where the top level is taken from
        the judgments themselves.
    threshold:
        ℓ_min of a binary scale, on the levels of the underlying scale, or ``None``.
    """

    name: str
    source: str
    n_levels: int | None = None
    threshold: float | None = None

    def levels(self, values: np.ndarray) -> np.ndarray:
        """Levels of relevance ``values`` (float array, any shape; negatives become 0)."""
        values = np.maximum(np.asarray(values, dtype=np.float64), 0.0)
        if self.name.split(",")[0] in GRADED:
            n = GRADED[self.name.split(",")[0]]
            values = np.minimum(np.floor((values + 0.5) * n / 101.0), n - 1)
        if self.threshold is not None:
            return (values >= self.threshold).astype(np.float64)
        return values

    def top_level(self, judged_values: np.ndarray) -> float:
        """:math:`n_\\mathcal{L} - 1`, the level a perfect document has."""
        if self.threshold is not None:
            return 1.0
        if self.n_levels is not None:
            return float(self.n_levels - 1)
        levels = self.levels(judged_values)
        return float(levels.max()) if levels.size else 1.0


def get_scale(name: str | None = None, *, threshold: float | None = None, default: str = "raw"):
    """The :class:`Scale` called ``name`` (``None``: ``default``), binary if ``threshold``.

    >>> get_scale("graded3").levels(np.array([33, 34, 66, 67, 100]))
    array([0., 1., 1., 2., 2.])
    """
    name = name or default
    if name not in SCALE_NAMES:
        raise ValueError(f"unknown scale {name!r}; valid: {', '.join(SCALE_NAMES)}")
    source = SOURCE.get(name, "fine")
    n_levels = {"broad": 3, "fine": 101}.get(name, GRADED.get(name))
    label = name if threshold is None else f"{name},rel={threshold:g}"
    return Scale(label, source, n_levels, threshold)


@dataclass(frozen=True)
class Gain:
    """A gain function :math:`g: \\mathcal{L} \\to \\mathbb{R}^{\\ge 0}` with ``g(0) = 0``.

    Use :func:`get_gain` for ``lin``/``exp``, or ``Gain.from_mapping({1: 1, 2: 5})`` for a
    custom per-level mapping (levels not listed have gain 0).
    """

    name: str
    function: Callable[[np.ndarray], np.ndarray] = field(compare=False)

    def __call__(self, levels: np.ndarray) -> np.ndarray:
        return self.function(np.asarray(levels, dtype=np.float64))

    @classmethod
    def from_mapping(cls, mapping: Mapping[float, float]) -> Gain:
        keys = np.array(sorted(mapping), dtype=np.float64)
        values = np.array([mapping[k] for k in sorted(mapping)], dtype=np.float64)

        def lookup(levels: np.ndarray) -> np.ndarray:
            pos = np.clip(np.searchsorted(keys, levels), 0, len(keys) - 1)
            return np.where(keys[pos] == levels, values[pos], 0.0)

        return cls("custom", lookup)


def _linear(levels: np.ndarray) -> np.ndarray:
    return levels


def _exponential(levels: np.ndarray) -> np.ndarray:
    return np.exp2(levels) - 1.0


GAINS = {"lin": Gain("lin", _linear), "exp": Gain("exp", _exponential)}


def get_gain(name: str | Gain = "lin") -> Gain:
    """``lin`` (:math:`g(\\ell) = \\ell`) or ``exp`` (:math:`g(\\ell) = 2^\\ell - 1`)."""
    if isinstance(name, Gain):
        return name
    try:
        return GAINS[name]
    except KeyError:
        raise ValueError(f"unknown gain {name!r}; valid: {', '.join(GAINS)}") from None
