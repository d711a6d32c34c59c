"""``list_score``: λ of artificial ranked lists, the one seam between the example
generator and the effectiveness measures.

TEMPORARY ADAPTER. The measures of ``evaluation.core`` (branch ``measures``) were not
merged when the generator was written, so this module computes the few user-oriented
measures the generator is tested with, with the formulas below, and nothing else. When
``evaluation.core.names.parse_measure`` and the kernels are in ``main``, this function
becomes a call into them and the generator does not change.

Names follow ``evaluation.core.names``: ``P@5(scale=fine,rel=60)``,
``CG@5(form=user,scale=fine)``, ``CG@5(form=user,gain=exp,scale=graded3)``.

Scales, from Fine judgments r ∈ [0, 100] (thesis §3.1.2): ``fine`` (level r, top 100),
``graded3..5`` (level ⌊(r + ½)·n/101⌋, top n − 1), and ``rel=ℓ`` (1 if r ≥ ℓ, else 0).

- P@k = (1/k) Σᵢ 1(rᵢ ≥ ℓ)                                   (thesis eq. 2.2)
- CG@k (user form) = Σᵢ g(ℓᵢ) / (k · g(top)),  g(ℓ) = ℓ or 2^ℓ − 1   (thesis eq. 3.3)
"""

from __future__ import annotations

import re

import numpy as np

_NAME = re.compile(r"^(?P<family>[A-Za-z]+)@(?P<k>\d+)(?:\((?P<options>[^)]*)\))?$")
SUPPORTED = ("P", "CG")


def _parse(measure: str) -> tuple[str, int, dict[str, str]]:
    match = _NAME.match(measure.replace(" ", ""))
    if not match or match["family"] not in SUPPORTED:
        raise ValueError(f"list_score cannot compute {measure!r} (supports {', '.join(SUPPORTED)})")
    options = dict(o.split("=", 1) for o in (match["options"] or "").split(",") if o)
    return match["family"], int(match["k"]), options


def _levels(fine: np.ndarray, scale: str) -> tuple[np.ndarray, float]:
    if scale == "fine":
        return fine.astype(float), 100.0
    graded = re.fullmatch(r"graded([345])", scale)
    if graded:
        n = int(graded[1])
        return np.floor((fine + 0.5) * n / 101), float(n - 1)
    raise ValueError(f"list_score: unknown scale {scale!r}")


def list_score(measure: str, fine: np.ndarray) -> np.ndarray:
    """λ of each row of ``fine`` (``(n_lists, k)`` Fine judgments in rank order)."""
    family, k, options = _parse(measure)
    fine = np.asarray(fine, dtype=float)[:, :k]
    levels, top = _levels(fine, options.get("scale", "fine"))
    if "rel" in options:
        levels, top = (levels >= float(options["rel"])).astype(float), 1.0
    if family == "P":
        return (levels >= 1).sum(axis=1) / k if "rel" in options else (levels > 0).sum(axis=1) / k
    gain = (lambda x: 2.0**x - 1) if options.get("gain") == "exp" else (lambda x: x)
    return gain(levels).sum(axis=1) / (k * gain(np.array(top)))
