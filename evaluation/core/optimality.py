"""Which significance test, measure and scale to trust on a collection: the split-half
optimality study of thesis chapter 5 (§5.3–5.4), measured on the collection's own data.

The queries are split at random into two disjoint halves :math:`Q_1` and :math:`Q_2`;
every test is run on every pair of systems with each half, and each pair of outcomes at
level α is classified as one of the five situations of §5.3:

======================  =========================================================
non-significance        :math:`A \\succ B` with :math:`Q_1` (not significant)
success                 :math:`A \\stackrel{*}{\\succ} B` with both halves
lack of power           significant with :math:`Q_1`, same direction but not
                        significant with :math:`Q_2`
minor conflict          significant with :math:`Q_1`, the other direction (not
                        significant) with :math:`Q_2`
major conflict          significant with both halves, in opposite directions
======================  =========================================================

The split is repeated ``trials`` times (300 in the thesis). As in Table 5.3, the
non-significance rate is a share of all comparisons and the other four are shares of
the comparisons significant with :math:`Q_1` (they add up to 1); the global conflict
rate is minor + major. "A powerful test minimizes the non-significance rate, a safe test
minimizes the minor and major conflict rates, and an exact test keeps the global conflict
rate at the nominal α level" (§5.3). Rates are pooled over the measures for each test
(§5.4.1) and over the tests for each measure and scale (§5.4.2), at the 32 levels of
:data:`ALPHA_LEVELS` (§5.4).

Choices the thesis leaves open, stated here:

- the direction of a result is the sign of the mean difference :math:`\\overline{\\Delta
  \\lambda}` (the tests' two-sided p-values have no direction); a difference of 0 (within
  rounding error: 1e-12 of the mean absolute difference) has none, so a comparison
  significant with :math:`Q_1` whose other half shows no direction counts as lack of
  power, never as success or conflict;
- significant means :math:`p \\le \\alpha` (§5.1.1);
- with an odd number of queries one query sits out of each trial, so both halves have
  :math:`\\lfloor n_Q / 2 \\rfloor` queries;
- the standard errors are those of a ratio over trials, :math:`\\sqrt{\\sum_t (x_t - R
  n_t)^2 / (T(T-1))} / \\bar n` for the rate :math:`R = \\sum_t x_t / \\sum_t n_t`: how
  much the rate would move with other random splits of the same queries (the Monte Carlo
  error), not the uncertainty about other collections;
- the bootstrap and permutation tests draw their resamples once per trial and half
  (:func:`trial_seed`), shared by every pair and measure of that half, as
  :func:`evaluation.core.pairwise.all_pairs` shares them between pairs.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, ch. 5 (§5.1.2 the tests, eqs.
5.1–5.5; §5.3 the method; §5.4 the results; Tables 5.2–5.4; Figures 5.1–5.3). PhD thesis.
http://hdl.handle.net/10016/18041

J. Urbano, M. Marrero, D. Martín (2013). On the measurement of test collection
reliability. SIGIR. https://doi.org/10.1145/2484028.2484038
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from evaluation.core import _validation as iv
from evaluation.core._paired_kernels import RESAMPLING_TESTS, run_kernel
from evaluation.core.jsonsafe import json_safe
from evaluation.core.optimality_cost import OptimalityCost, optimality_cost
from evaluation.core.optimality_verdicts import verdicts
from evaluation.core.results import TEST_LABELS
from evaluation.core.scores import ScoreMatrix
from evaluation.core.significance import TESTS, test_iv
from evaluation.core.wilcoxon_many import wilcoxon_pvalues

__all__ = [
    "ALPHA_LEVELS",
    "OUTCOMES",
    "TABLE_5_2",
    "OptimalityCost",
    "OptimalityResult",
    "optimality_cost",
    "random_splits",
    "split_half_optimality",
    "trial_seed",
]

ALPHA_LEVELS: tuple[float, ...] = tuple(
    sorted(
        {float(f"{m}e{e}") for e in (-4, -3, -2) for m in range(1, 10)} | {0.1, 0.2, 0.3, 0.4, 0.5}
    )
)
"""The 32 significance levels of §5.4: 0.0001 … 0.0009, 0.001 … 0.009, 0.01 … 0.09, 0.1 … 0.5."""

TABLE_5_2: tuple[str, ...] = (
    *(f"{m}(scale=broad)@5" for m in ("CG", "DCG", "nDCG", "Q", "RBP", "GAP")),
    *(f"{m}(scale=fine)@5" for m in ("CG", "DCG", "nDCG", "Q", "RBP", "GAP")),
    "P(rel=40)@5",
    "AP(rel=40)@5",
)
"""The 14 (measure, scale) combinations of thesis Table 5.2, system-oriented (§5.2.1:
eqs. 5.6–5.9 are these measures' default ``form=system``), linear gains."""

OUTCOMES = (
    "non_significance",
    "success",
    "lack_of_power",
    "minor_conflict",
    "major_conflict",
    "global_conflict",
)
"""The rates of §5.3 (and the global conflict rate, minor + major, of §5.4.1)."""

_COUNTED = ("significant", "success", "lack_of_power", "minor_conflict", "major_conflict")
_BLOCK_BYTES = 16 << 20  # differences of one block of trials held at a time

Report = Callable[..., None]


def _no_report(fraction: float, message: str = "", *, force: bool = False) -> None:
    return None


def random_splits(n_queries: int, *, trials: int, seed=None, half: int | None = None) -> np.ndarray:
    """``(trials, 2, half)`` query indices: two disjoint random halves per trial (§5.3).

    Trial ``t`` takes a random permutation of the queries (drawn in order from one
    generator seeded by ``seed``); :math:`Q_1` is its first ``half`` queries and
    :math:`Q_2` the next ``half``, each sorted. ``half`` defaults to :math:`\\lfloor
    n_Q/2 \\rfloor`.

    >>> random_splits(5, trials=1, seed=1).shape
    (1, 2, 2)
    """
    half = n_queries // 2 if half is None else half
    if half < 2 or 2 * half > n_queries:
        raise ValueError(
            f"two disjoint halves of {half} queries need at least {2 * max(half, 2)} queries; "
            f"there are {n_queries}"
        )
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    rng = np.random.default_rng(iv.seed_sequence(seed))
    out = np.empty((trials, 2, half), dtype=np.int64)
    for t in range(trials):
        perm = rng.permutation(n_queries)
        out[t, 0] = np.sort(perm[:half])
        out[t, 1] = np.sort(perm[half : 2 * half])
    return out


def trial_seed(seed: np.random.SeedSequence, trial: int, half: int) -> np.random.SeedSequence:
    """The seed of the resamples of trial ``trial``'s half ``half`` (0 for Q1, 1 for Q2)."""
    return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, trial, half))


@dataclass(frozen=True, eq=False)
class OptimalityResult:
    """Counts of the five situations of §5.3, per test, measure, α and trial.

    ``counts[test, measure, alpha, trial, c]`` for ``c`` in ``significant`` (with
    :math:`Q_1`), ``success``, ``lack_of_power``, ``minor_conflict``, ``major_conflict``;
    every (test, measure, trial) has ``pairs`` comparisons.
    """

    measures: tuple[str, ...]
    tests: tuple[str, ...]
    alphas: tuple[float, ...]
    n_systems: int
    n_queries: int
    half: int
    trials: int
    pairs: int
    resamples: int
    seed: int | None
    counts: np.ndarray
    cost: OptimalityCost

    def rates(self, *, tests=None, measures=None) -> dict:
        """Pooled rates (and standard errors) over the chosen tests and measures, per α."""
        ti = [self.tests.index(t) for t in (tests or self.tests)]
        mi = [self.measures.index(m) for m in (measures or self.measures)]
        c = self.counts[np.ix_(ti, mi)].sum(axis=(0, 1))  # alpha × trial × counted
        compared = np.full(c.shape[:2], self.pairs * len(ti) * len(mi), dtype=float)
        sig = c[..., 0].astype(float)
        per_trial = {
            "non_significance": (compared - sig, compared),
            "success": (c[..., 1], sig),
            "lack_of_power": (c[..., 2], sig),
            "minor_conflict": (c[..., 3], sig),
            "major_conflict": (c[..., 4], sig),
            "global_conflict": (c[..., 3] + c[..., 4], sig),
        }
        rates, errors = {}, {}
        for name, (x, n) in per_trial.items():
            rates[name], errors[name] = _ratio(np.asarray(x, dtype=float), n)
        return {
            "comparisons": int(compared[0].sum()),
            "significant": sig.sum(axis=1).astype(int).tolist(),
            "rates": rates,
            "se": errors,
        }

    def to_dict(self, *, alpha: float = 0.05, baseline: str | None = None) -> dict:
        """The optimality document: rates per test and per measure at every α, and the
        verdicts in words at ``alpha`` against ``baseline`` (the test the results use)."""
        document = {
            "n_systems": self.n_systems,
            "n_queries": self.n_queries,
            "half": self.half,
            "trials": self.trials,
            "pairs": self.pairs,
            "resamples": self.resamples,
            "seed": self.seed,
            "alphas": list(self.alphas),
            "tests": list(self.tests),
            "measures": list(self.measures),
            "cost": self.cost.statement,
            "by_test": [
                {"test": t, "label": TEST_LABELS.get(t, t), **self.rates(tests=[t])}
                for t in self.tests
            ],
            "by_measure": [{"measure": m, **self.rates(measures=[m])} for m in self.measures],
        }
        baseline = baseline if baseline in self.tests else self.tests[0]
        document["verdict"] = verdicts(document, alpha=alpha, baseline=baseline)
        return json_safe(document)


def _ratio(x: np.ndarray, n: np.ndarray) -> tuple[list, list]:
    """Per α: Σx/Σn over trials and the ratio estimator's standard error (None: undefined)."""
    total_x, total_n = x.sum(axis=1), n.sum(axis=1)
    trials = x.shape[1]
    rates, errors = [], []
    for a in range(x.shape[0]):
        if total_n[a] == 0:
            rates.append(None)
            errors.append(None)
            continue
        r = total_x[a] / total_n[a]
        rates.append(float(r))
        if trials < 2:
            errors.append(None)
            continue
        mean_n = total_n[a] / trials
        spread = ((x[a] - r * n[a]) ** 2).sum() / (trials * (trials - 1))
        errors.append(float(np.sqrt(spread) / mean_n))
    return rates, errors


def _matrices_iv(matrices: Sequence[ScoreMatrix]) -> tuple[tuple[str, ...], np.ndarray]:
    if not matrices:
        raise ValueError("the study needs at least one measure")
    first = matrices[0]
    for m in matrices[1:]:
        if m.systems != first.systems or m.queries != first.queries:
            raise ValueError(
                f"{m.measure} is not on the same systems and queries as {first.measure}"
            )
    names = tuple(m.measure for m in matrices)
    if len(set(names)) != len(names):
        raise ValueError("a measure is named twice")
    if len(first.systems) < 2:
        raise ValueError("the study needs at least 2 systems")
    X = np.stack([iv.finite_iv(np.asarray(m.scores, dtype=float)) for m in matrices])
    return names, X


def split_half_optimality(
    matrices: Sequence[ScoreMatrix],
    *,
    tests: Sequence[str] = TESTS,
    alphas: Sequence[float] = ALPHA_LEVELS,
    trials: int = 300,
    resamples: int = 1000,
    seed=None,
    splits: np.ndarray | None = None,
    max_resampled: int | None = None,
    report: Report = _no_report,
) -> OptimalityResult:
    """Run the split-half study of §5.3 on per-query scores of several measures.

    Parameters
    ----------
    matrices : sequence of ScoreMatrix
        One per measure and scale, on the same systems and queries.
    tests : names of :data:`evaluation.core.significance.TESTS`
        Run with :func:`evaluation.core._paired_kernels.run_kernel` (two-sided), except
        Wilcoxon's, whose p-values come from :func:`wilcoxon_pvalues` for all pairs at once
        (equal to the kernel's).
    alphas : significance levels, in (0, 1)
    trials : int
        Random splits (ignored when ``splits`` is given).
    resamples : int
        Of the bootstrap and permutation tests (the thesis used 100,000, §5.3 note 2).
    seed : None, int or SeedSequence
        Makes the splits (:func:`random_splits`) and the resamples (:func:`trial_seed`)
        reproducible; the result keeps the seed used.
    splits : array ``(trials, 2, half)``, optional
        The halves, as query indices, instead of random ones.
    max_resampled : int, optional
        Refuse (``ValueError`` naming the cost) a study that would draw more resampled
        differences (:class:`OptimalityCost`).
    report : callable
        ``report(fraction, message)`` hears how far it is.

    Returns
    -------
    OptimalityResult
    """
    names, X = _matrices_iv(matrices)
    for t in tests:
        test_iv(t)
    if len(set(tests)) != len(tests) or not tests:
        raise ValueError("name each test once")
    alphas = tuple(float(a) for a in alphas)
    if not alphas or any(not 0 < a < 1 for a in alphas):
        raise ValueError("significance levels must be in (0, 1)")
    if any(t in RESAMPLING_TESTS for t in tests):
        iv.resamples_iv(resamples)
    root = iv.seed_sequence(seed)
    n_measures, n_systems, n_queries = X.shape
    if splits is None:
        splits = random_splits(n_queries, trials=trials, seed=root)
    splits = np.asarray(splits, dtype=np.int64)
    if splits.ndim != 3 or splits.shape[1] != 2 or splits.shape[2] < 2:
        raise ValueError("splits must be (trials, 2, half) query indices, half at least 2")
    if splits.min() < 0 or splits.max() >= n_queries:
        raise ValueError("splits name queries that are not there")
    for q1, q2 in splits:
        if np.intersect1d(q1, q2).size or len(set(q1.tolist())) < len(q1):
            raise ValueError("the two halves of a split must be disjoint sets of queries")
    trials, _, half = splits.shape
    cost = optimality_cost(
        n_systems=n_systems, n_queries=2 * half, n_measures=n_measures, tests=tests,
        trials=trials, resamples=resamples,
    )  # fmt: skip
    if max_resampled is not None and cost.resampled > max_resampled:
        raise ValueError(
            f"the study would draw {cost.resampled:,} resampled differences ({cost.statement}); "
            f"the limit is {max_resampled:,}: use fewer splits, resamples or measures, or leave "
            "out the bootstrap and permutation tests"
        )
    iu, ju = np.triu_indices(n_systems, 1)
    pairs = len(iu)
    alpha_arr = np.asarray(alphas)
    counts = np.zeros((len(tests), n_measures, len(alphas), trials, len(_COUNTED)), dtype=np.int64)
    rows_per_trial = 2 * n_measures * pairs * half
    block = max(1, _BLOCK_BYTES // (8 * rows_per_trial))
    done, total = 0, trials * len(tests)
    for t0 in range(0, trials, block):
        t1 = min(trials, t0 + block)
        # D[trial, half, measure, pair, query]: A − B on each half (pairs i < j, as all_pairs)
        halves = X[:, :, splits[t0:t1]]  # measure × system × trial × half × query
        halves = np.moveaxis(halves, (2, 3), (0, 1))  # trial × half × measure × system × query
        D = np.ascontiguousarray(halves[:, :, :, iu] - halves[:, :, :, ju])
        mean = _direction(D)  # trial × half × measure × pair: −1, 0 or 1
        for ti, test in enumerate(tests):
            p = _pvalues(D, test=test, resamples=resamples, root=root, first_trial=t0)
            counts[ti, :, :, t0:t1] = _classify(p, mean, alpha_arr)
            done += t1 - t0
            report(done / total, f"{test} test: {min(t1, trials):,} of {trials:,} splits")
    return OptimalityResult(
        measures=names,
        tests=tuple(tests),
        alphas=alphas,
        n_systems=n_systems,
        n_queries=n_queries,
        half=half,
        trials=trials,
        pairs=pairs,
        resamples=resamples,
        seed=int(root.entropy) if isinstance(root.entropy, int) and not root.spawn_key else None,
        counts=counts,
        cost=cost,
    )


def _pvalues(D: np.ndarray, *, test: str, resamples: int, root, first_trial: int) -> np.ndarray:
    """Two-sided p-values of ``test`` with the shape of ``D`` without its query axis."""
    shape, n = D.shape[:-1], D.shape[-1]
    if test == "wilcoxon":
        return wilcoxon_pvalues(D.reshape(-1, n)).reshape(shape)
    if test not in RESAMPLING_TESTS:
        _, p, _, _ = run_kernel(
            D.reshape(-1, n), test=test, alternative="two-sided", confidence=0.95,
            resamples=resamples, seed=None,
        )  # fmt: skip
        return p.reshape(shape)
    p = np.empty(shape)
    for t in range(shape[0]):  # one set of resamples per trial and half (trial_seed)
        for h in range(2):
            _, pv, _, _ = run_kernel(
                D[t, h].reshape(-1, n), test=test, alternative="two-sided", confidence=0.95,
                resamples=resamples, seed=trial_seed(root, first_trial + t, h),
            )  # fmt: skip
            p[t, h] = pv.reshape(shape[2:])
    return p


def _direction(D: np.ndarray) -> np.ndarray:
    """The sign of each mean difference; a mean within rounding error of 0 (1e-12 of the
    mean absolute difference) has no direction."""
    mean = D.mean(axis=-1)
    slack = 1e-12 * np.abs(D).mean(axis=-1)
    return np.where(np.abs(mean) <= slack, 0.0, np.sign(mean))


def _classify(p: np.ndarray, mean: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """``(measure, alpha, trial, counted)`` counts from p-values and mean differences
    shaped ``(trial, half, measure, pair)``."""
    p1, p2 = p[:, 0], p[:, 1]  # trial × measure × pair
    direction = mean[:, 0] * mean[:, 1]
    same, opposite = direction > 0, direction < 0
    a = alphas[:, None, None, None]
    sig1 = p1[None] <= a  # alpha × trial × measure × pair
    sig2 = p2[None] <= a
    success = sig1 & sig2 & same
    major = sig1 & sig2 & opposite
    minor = sig1 & ~sig2 & opposite
    lack = sig1 & ~(success | major | minor)
    out = np.stack([x.sum(axis=-1) for x in (sig1, success, lack, minor, major)], axis=-1)
    return np.moveaxis(out, 2, 0)  # measure × alpha × trial × counted
