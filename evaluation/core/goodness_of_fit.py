"""Which distribution describes a collection's per-query scores: the goodness-of-fit study
of thesis §4.2.2, on the collection's own data.

For each trial, a random sample :math:`Q_1` of :math:`n_{Q_1}` queries is drawn and the
rest are held out (:math:`Q_2 = Q - Q_1`); for every system the four distributions of
§4.2.1 (Normal, Normal truncated to [0, 1], Beta, Empirical) are fitted to its scores on
:math:`Q_1` and compared with the ecdf of its scores on :math:`Q_2` by

.. math::

    \\hat\\omega^2 = \\sum_{q \\in Q_2} \\left(F(\\lambda_q) - \\hat F(\\lambda_q)\\right)^2
    \\qquad\\text{(Urbano 2013, eq. 4.7)}

averaged over systems and trials; as in Tables 4.4–4.5 the average of
:math:`\\hat\\omega` is reported (lower is better), with :math:`\\hat\\omega^2` too.

The fits are those of :mod:`evaluation.core.distributions`, computed for all systems of a
trial at once: Normal and truncated Normal from the sample mean and standard deviation,
Beta by the method of moments (maximum likelihood, :func:`~evaluation.core.distributions.
fit_beta`, when the moments do not allow it), Empirical the ecdf. A (system, trial) whose
scores on :math:`Q_1` cannot be fitted by every distribution (all equal, or outside [0, 1]
for the truncated Normal and the Beta) is left out of every average, so that the four
are compared on the same cases; the document says how many were left out.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §4.2.1–4.2.3, eq. 4.7,
Tables 4.4–4.5. PhD thesis. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evaluation.core import _validation as iv
from evaluation.core.distributions import fit_beta, recommended_family
from evaluation.core.jsonsafe import json_safe
from evaluation.core.names import parse_measure
from evaluation.core.scores import ScoreMatrix

__all__ = [
    "FAMILIES",
    "LEADERBOARD_SYSTEMS",
    "LEADERBOARD_TRIALS",
    "FitStudy",
    "default_sizes",
    "fit_study",
    "leaderboard_fits",
    "random_subsets",
]

FAMILIES = ("normal", "truncated-normal", "beta", "empirical")
FAMILY_NAMES = {
    "normal": "Normal",
    "truncated-normal": "truncated Normal",
    "beta": "Beta",
    "empirical": "Empirical",
}


def default_sizes(n_queries: int) -> tuple[int, ...]:
    """The sample sizes studied: half the collection (as the thesis' 50 of 100) and 20
    (Table 4.5), each leaving at least 2 queries held out.

    >>> default_sizes(100), default_sizes(30), default_sizes(4)
    ((50, 20), (15, 20), (2,))
    """
    sizes = [n for n in (n_queries // 2, 20) if 2 <= n <= n_queries - 2]
    return tuple(dict.fromkeys(sizes))


def random_subsets(n_queries: int, size: int, *, trials: int, seed=None) -> np.ndarray:
    """``(trials, size)`` sorted query indices of :math:`Q_1`, one random sample per trial."""
    if not 2 <= size <= n_queries - 2:
        raise ValueError(
            f"fitting on {size} of {n_queries} queries leaves too few (at least 2 to fit and "
            "2 held out)"
        )
    rng = np.random.default_rng(iv.seed_sequence(seed))
    return np.stack([np.sort(rng.permutation(n_queries)[:size]) for _ in range(trials)])


@dataclass(frozen=True, eq=False)
class FitStudy:
    """Per sample size: ω̂ and ω̂² of every (system, trial) and family (NaN: left out)."""

    measure: str
    n_systems: int
    n_queries: int
    trials: int
    seed: int | None
    n_levels: int | None
    sizes: tuple[int, ...]
    omega_squared: tuple[np.ndarray, ...]  # per size: trials × systems × families

    def to_dict(self) -> dict:
        """``{measure, n_systems, n_queries, trials, seed, families, recommended, sizes:
        [{fitted, held_out, cases, left_out, omega, omega_squared, omega_se, best}],
        report}``."""
        rows = []
        for size, w2 in zip(self.sizes, self.omega_squared, strict=True):
            w2 = w2.reshape(-1, len(FAMILIES))
            kept = ~np.isnan(w2).any(axis=1)
            w2 = w2[kept]
            w = np.sqrt(w2)
            cases = int(kept.sum())
            row = {
                "fitted": size,
                "held_out": self.n_queries - size,
                "cases": cases,
                "left_out": int((~kept).sum()),
                "omega": dict.fromkeys(FAMILIES),
                "omega_squared": dict.fromkeys(FAMILIES),
                "omega_se": dict.fromkeys(FAMILIES),
                "best": None,
            }
            if cases:
                for f, family in enumerate(FAMILIES):
                    row["omega"][family] = float(w[:, f].mean())
                    row["omega_squared"][family] = float(w2[:, f].mean())
                    if cases > 1:
                        row["omega_se"][family] = float(w[:, f].std(ddof=1) / np.sqrt(cases))
                row["best"] = min(FAMILIES, key=lambda fam: row["omega"][fam])
            rows.append(row)
        document = {
            "measure": self.measure,
            "n_systems": self.n_systems,
            "n_queries": self.n_queries,
            "trials": self.trials,
            "seed": self.seed,
            "families": list(FAMILIES),
            "recommended": recommended_family(self.n_queries, n_levels=self.n_levels),
            "sizes": rows,
        }
        document["report"] = fit_report(document)
        return json_safe(document)


def fit_report(document: dict) -> str:
    """The study in words: which distribution predicted held-out queries best."""
    lines = []
    for row in document["sizes"]:
        if row["best"] is None:
            lines.append(
                f"With {row['fitted']} queries no distribution could be fitted to every system."
            )
            continue
        omega = row["omega"]
        ranked = sorted(FAMILIES, key=lambda f: omega[f])
        runner = ranked[1]
        lines.append(
            f"Fitted on {row['fitted']} queries, the {FAMILY_NAMES[row['best']]} distribution "
            f"predicted the other {row['held_out']} best (average ω̂ {omega[row['best']]:.4f}, "
            f"then the {FAMILY_NAMES[runner]} with {omega[runner]:.4f})."
        )
    return " ".join(lines)


_ECDF_BLOCK = 4_000_000
"""The most (row, point, sample) comparisons :func:`_ecdf_at` holds at once (4 MB of bools)."""


def _ecdf_at(sample: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Row-wise ecdf of ``sample`` (rows × n) evaluated at ``at`` (rows × m): the share of
    each row's sample at or below each point, counted for a block of rows at a time."""
    rows, n = sample.shape
    counts = np.empty(at.shape, dtype=np.int64)
    step = max(1, _ECDF_BLOCK // max(1, n * at.shape[1]))
    for start in range(0, rows, step):
        block = slice(start, start + step)
        counts[block] = (sample[block, None, :] <= at[block, :, None]).sum(axis=2)
    return counts / n


def _fitted_cdfs(fit: np.ndarray, held: np.ndarray) -> np.ndarray:
    """``(families, systems, held-out)`` fitted cdfs at the held-out scores; NaN rows where a
    family cannot be fitted to a system's sample."""
    mu = fit.mean(axis=1)[:, None]
    sd = fit.std(axis=1, ddof=1)[:, None]
    unit = ((fit >= 0) & (fit <= 1)).all(axis=1)[:, None]
    fittable = sd > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (held - mu) / sd
        normal = stats.norm.cdf(z)
        low, high = stats.norm.cdf(-mu / sd), stats.norm.cdf((1 - mu) / sd)
        truncated = np.clip((normal - low) / (high - low), 0.0, 1.0)  # Φ' of §4.2.1
        var = sd**2
        moments = var < mu * (1 - mu)
        k = mu * (1 - mu) / var - 1
        beta = stats.beta.cdf(held, mu * k, (1 - mu) * k)
    for r in np.flatnonzero(fittable[:, 0] & unit[:, 0] & ~moments[:, 0]):
        b = fit_beta(fit[r])  # maximum likelihood (the moments do not allow a Beta)
        beta[r] = stats.beta.cdf(held[r], b.alpha, b.beta)
    empirical = _ecdf_at(fit, held)
    out = np.stack([normal, truncated, beta, empirical])
    out[0:2][:, ~fittable[:, 0]] = np.nan
    out[1:3][:, ~(fittable & unit)[:, 0]] = np.nan
    return out


def fit_study(
    matrix: ScoreMatrix,
    *,
    sizes: Sequence[int] | None = None,
    trials: int = 200,
    seed=None,
    subsets: Sequence[np.ndarray] | None = None,
) -> FitStudy:
    """Run the goodness-of-fit study of §4.2.2 on one measure's systems × queries matrix.

    Parameters
    ----------
    sizes : the numbers of queries :math:`n_{Q_1}` fitted on (:func:`default_sizes`)
    trials : random samples per size (200 in the thesis, §4.2.3)
    seed : makes the samples reproducible (one generator per size, in order)
    subsets : per size, ``(trials, size)`` query indices of :math:`Q_1` instead of random

    >>> X = np.random.default_rng(0).beta(2, 5, size=(3, 40))
    >>> d = fit_study(ScoreMatrix("m", ("a", "b", "c"), tuple(map(str, range(40))), X),
    ...               sizes=[20], trials=10, seed=1).to_dict()
    >>> d["sizes"][0]["cases"], d["sizes"][0]["best"] in FAMILIES
    (30, True)
    """
    X = iv.finite_iv(np.asarray(matrix.scores, dtype=float))
    n_systems, n_queries = X.shape
    root = iv.seed_sequence(seed)
    if subsets is None:
        sizes = tuple(default_sizes(n_queries) if sizes is None else sizes)
        if not sizes:
            raise ValueError(f"{n_queries} queries are too few to fit on some and hold out others")
        streams = root.spawn(len(sizes))
        subsets = [
            random_subsets(n_queries, s, trials=trials, seed=st)
            for s, st in zip(sizes, streams, strict=True)
        ]
    subsets = [np.asarray(s, dtype=np.int64) for s in subsets]
    sizes = tuple(s.shape[1] for s in subsets)
    results = []
    for chosen in subsets:
        w2 = np.empty((len(chosen), n_systems, len(FAMILIES)))
        for t, q1 in enumerate(chosen):
            held_out = np.setdiff1d(np.arange(n_queries), q1)
            fit, held = X[:, q1], X[:, held_out]
            F = _ecdf_at(held, held)
            w2[t] = ((_fitted_cdfs(fit, held) - F[None]) ** 2).sum(axis=2).T
        results.append(w2)
    try:
        levels = parse_measure(matrix.measure).relevance_levels
    except ValueError:
        levels = None
    return FitStudy(
        measure=matrix.measure,
        n_systems=n_systems,
        n_queries=n_queries,
        trials=max(len(s) for s in subsets),
        seed=int(root.entropy) if isinstance(root.entropy, int) and not root.spawn_key else None,
        n_levels=levels,
        sizes=sizes,
        omega_squared=tuple(results),
    )


LEADERBOARD_TRIALS = 100
"""Random samples per size of the leaderboards' "Score distributions" study (the thesis
used 200; 100 keep the study under a second at MIREX size, within about 0.005 of ω̂)."""

LEADERBOARD_SYSTEMS = 30
"""The most systems the leaderboards' study fits: with more, this many chosen at random
(from the study's seed). ω̂ is averaged over systems × trials, so 30 systems × 100 trials
already average 3,000 cases, and the study's cost no longer grows with the systems (at
180 systems all of them cost 2.6 s of CPU per measure, a fifth of the whole recompute)."""


def leaderboard_fits(matrix: ScoreMatrix, *, seed=None) -> dict | None:
    """The leaderboard's "Score distributions" document (:meth:`FitStudy.to_dict` with
    :data:`LEADERBOARD_TRIALS`, on at most :data:`LEADERBOARD_SYSTEMS` systems; its
    ``systems_total`` says of how many), or ``None`` for a collection too small to hold
    queries out (fewer than 4). The results pages and ``leaderboard`` on the command line
    give it as ``score_distributions``."""
    if not default_sizes(len(matrix.queries)):
        return None
    root = iv.seed_sequence(seed)
    total = len(matrix.systems)
    if total > LEADERBOARD_SYSTEMS:
        rng = np.random.default_rng(root.spawn(1)[0])
        chosen = np.sort(rng.choice(total, size=LEADERBOARD_SYSTEMS, replace=False))
        matrix = ScoreMatrix(
            matrix.measure,
            tuple(matrix.systems[i] for i in chosen),
            matrix.queries,
            np.asarray(matrix.scores, dtype=float)[chosen],
        )
    document = fit_study(matrix, trials=LEADERBOARD_TRIALS, seed=root).to_dict()
    return {**document, "systems_total": total}
