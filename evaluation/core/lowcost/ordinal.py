"""Ordinal logistic regression (proportional odds) for relevance: thesis eqs. (7.1)–(7.4).

For a relevance scale with levels :math:`0 .. n_\\mathcal{L} - 1` and feature vector
:math:`\\theta_d`, the model is

.. math:: \\log \\frac{P(R_d \\ge \\ell)}{P(R_d < \\ell)} = \\alpha_\\ell + \\sum_k \\beta_k\\, \\theta_{d,k},
   \\qquad \\ell = 1 .. n_\\mathcal{L} - 1                                       \\quad (7.3)

so :math:`P(R_d \\ge \\ell) = \\mathrm{logit}^{-1}(\\cdot)`,
:math:`P(R_d = \\ell) = P(R_d \\ge \\ell) - P(R_d \\ge \\ell + 1)` (7.4), and the expectation
and variance of the relevance value (7.1), (7.2). The intercepts decrease with ℓ.

The Fine scale is collapsed to 10 levels whose values are 5, 15, ..., 95 (§7.3.1): a
judgment ``v`` is level ``min(v // 10, 9)``. Broad levels are its values 0, 1, 2.

:func:`fit_ordinal` finds the maximum-likelihood parameters with scipy's BFGS on an
order-preserving parametrisation (:math:`\\alpha_1` and the logarithms of the gaps
between consecutive intercepts) and analytic gradients; :func:`fit_model` adds the
goodness-of-fit statistics of Table 7.1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, special

#: Relevance value of each level of the scales the models predict (§7.2.1, §7.3.1).
LEVEL_VALUES = {
    "broad": np.array([0.0, 1.0, 2.0]),
    "fine": np.arange(5.0, 100.0, 10.0),
}
#: Largest value of each scale, to normalise errors and variances to [0, 1] (Table 7.1).
SCALE_MAX = {"broad": 2.0, "fine": 100.0}


def check_scale(scale: str) -> str:
    if scale not in LEVEL_VALUES:
        raise ValueError(f"unknown relevance scale {scale!r}; valid: broad, fine")
    return scale


def to_levels(values: np.ndarray, scale: str) -> np.ndarray:
    """Level index of judged values: Broad as is; Fine collapsed to ``min(v // 10, 9)``.

    >>> to_levels(np.array([0, 9, 10, 95, 100]), "fine")
    array([0, 0, 1, 9, 9])
    """
    values = np.asarray(values, dtype=np.float64)
    if check_scale(scale) == "fine":
        return np.clip(np.floor(values / 10.0), 0, 9).astype(np.int64)
    return np.clip(np.rint(values), 0, 2).astype(np.int64)


@dataclass(frozen=True)
class OrdinalModel:
    """A fitted proportional-odds model: terms, effects β and decreasing intercepts α.

    ``terms`` name features (:mod:`.features`) or products of them (``"fSYS:OV"``).
    """

    name: str
    scale: str
    terms: tuple[str, ...]
    beta: tuple[float, ...]
    alpha: tuple[float, ...]

    def __post_init__(self) -> None:
        check_scale(self.scale)
        if len(self.beta) != len(self.terms):
            raise ValueError(f"{self.name}: {len(self.terms)} terms but {len(self.beta)} effects")
        if len(self.alpha) != len(LEVEL_VALUES[self.scale]) - 1:
            raise ValueError(
                f"{self.name}: the {self.scale} scale needs "
                f"{len(LEVEL_VALUES[self.scale]) - 1} intercepts, got {len(self.alpha)}"
            )
        if np.any(np.diff(self.alpha) >= 0):
            raise ValueError(f"{self.name}: intercepts must decrease, got {self.alpha}")

    @property
    def features(self) -> tuple[str, ...]:
        """The features the terms need."""
        return tuple(dict.fromkeys(f for term in self.terms for f in term.split(":")))

    @property
    def levels(self) -> np.ndarray:
        return LEVEL_VALUES[self.scale]

    def design(self, features: Mapping[str, np.ndarray]) -> np.ndarray:
        """``(n, n_terms)`` matrix of term values; a row with a NaN cannot be predicted."""
        return design_matrix(features, self.terms)

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """``(n, n_levels)``: :math:`P(R_d = \\ell)`, eqs. (7.3)–(7.4)."""
        return level_probabilities(np.asarray(self.alpha), np.asarray(self.beta), X)

    def moments(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:math:`E[R_d]` and :math:`Var[R_d]` (7.1)–(7.2) on the scale's values."""
        return moments(self.probabilities(X), self.levels)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "scale": self.scale,
            "terms": list(self.terms),
            "beta": list(self.beta),
            "alpha": list(self.alpha),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> OrdinalModel:
        try:
            return cls(
                str(data["name"]),
                str(data["scale"]),
                tuple(str(t) for t in data["terms"]),
                tuple(float(b) for b in data["beta"]),
                tuple(float(a) for a in data["alpha"]),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a model description: missing or bad {error}") from None


def design_matrix(features: Mapping[str, np.ndarray], terms: Sequence[str]) -> np.ndarray:
    columns = []
    for term in terms:
        parts = term.split(":")
        missing = [p for p in parts if p not in features]
        if missing:
            raise ValueError(f"term {term!r} needs unknown feature(s) {', '.join(missing)}")
        column = np.asarray(features[parts[0]], dtype=np.float64)
        for part in parts[1:]:
            column = column * np.asarray(features[part], dtype=np.float64)
        columns.append(column)
    if not columns:
        n = len(next(iter(features.values()))) if features else 0
        return np.zeros((n, 0))
    return np.column_stack(columns)


def level_probabilities(alpha: np.ndarray, beta: np.ndarray, X: np.ndarray) -> np.ndarray:
    """:math:`P(R = \\ell)` for ℓ = 0 .. L-1 from (7.3)–(7.4) (rows of ``X`` without NaN)."""
    X = np.atleast_2d(np.asarray(X, dtype=np.float64))
    eta = np.asarray(alpha)[None, :] + (X @ np.asarray(beta, dtype=np.float64))[:, None]
    upper = special.expit(eta)  # P(R >= l), l = 1 .. L-1
    n = X.shape[0]
    cumulative = np.hstack([np.ones((n, 1)), upper, np.zeros((n, 1))])
    return cumulative[:, :-1] - cumulative[:, 1:]


def moments(probabilities: np.ndarray, levels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Expectation (7.1) and variance (7.2) of a distribution over ``levels``."""
    expectation = probabilities @ levels
    variance = probabilities @ (levels**2) - expectation**2
    return expectation, np.maximum(variance, 0.0)


# -- fitting -------------------------------------------------------------------------------


def _unpack(theta: np.ndarray, n_cut: int) -> tuple[np.ndarray, np.ndarray]:
    gaps = np.exp(theta[1:n_cut])
    alpha = theta[0] - np.concatenate([[0.0], np.cumsum(gaps)])
    return alpha, theta[n_cut:]


def _negative_loglik(theta: np.ndarray, X: np.ndarray, y: np.ndarray, n_levels: int):
    n_cut = n_levels - 1
    alpha, beta = _unpack(theta, n_cut)
    xb = X @ beta
    # eta at the level's lower (y) and upper (y + 1) cut: +inf / -inf beyond the ends
    low = np.where(y >= 1, alpha[np.clip(y - 1, 0, n_cut - 1)] + xb, np.inf)
    high = np.where(y <= n_cut - 1, alpha[np.clip(y, 0, n_cut - 1)] + xb, -np.inf)
    f_low, f_high = special.expit(low), special.expit(high)
    p = np.maximum(f_low - f_high, 1e-300)
    d_low = np.where(np.isfinite(low), f_low * (1 - f_low), 0.0) / p
    d_high = -np.where(np.isfinite(high), f_high * (1 - f_high), 0.0) / p
    grad_alpha = np.bincount(
        np.concatenate([np.clip(y - 1, 0, None)[y >= 1], y[y <= n_cut - 1]]),
        weights=np.concatenate([d_low[y >= 1], d_high[y <= n_cut - 1]]),
        minlength=n_cut,
    )
    grad_beta = X.T @ (d_low + d_high)
    # chain rule through alpha_l = a1 - sum_{j <= l} exp(g_j)
    tail = np.cumsum(grad_alpha[::-1])[::-1]  # sum over l >= j
    grad = np.concatenate([[grad_alpha.sum()], -np.exp(theta[1:n_cut]) * tail[1:], grad_beta])
    return -np.sum(np.log(p)), -grad


@dataclass(frozen=True)
class OrdinalFit:
    """Maximum-likelihood parameters of (7.3) and the log-likelihood they reach."""

    alpha: np.ndarray
    beta: np.ndarray
    loglik: float
    n: int
    converged: bool


def fit_ordinal(X: np.ndarray, y: np.ndarray, n_levels: int) -> OrdinalFit:
    """Fit the proportional-odds model (7.3) by maximum likelihood.

    Parameters
    ----------
    X:
        ``(n, m)`` term values (no intercept column; no NaN).
    y:
        ``(n,)`` observed level indices ``0 .. n_levels - 1``.

    >>> fit = fit_ordinal(np.zeros((4, 0)), np.array([0, 1, 1, 2]), 3)
    >>> np.round(fit.alpha, 4)  # no covariates: logit of P(R >= l) = 3/4, 1/4
    array([ 1.0986, -1.0986])
    """
    X = np.asarray(X, dtype=np.float64).reshape(len(y), -1)
    y = np.asarray(y, dtype=np.int64)
    if np.isnan(X).any():
        raise ValueError("cannot fit on rows with missing features; drop them first")
    if len(y) == 0 or y.min() < 0 or y.max() >= n_levels:
        raise ValueError(f"levels must lie in 0..{n_levels - 1}")
    center = X.mean(axis=0)
    spread = X.std(axis=0)
    spread[spread == 0] = 1.0
    Z = (X - center) / spread
    share = np.array([(y >= level).mean() for level in range(1, n_levels)])
    share = np.clip(share, 1e-4, 1 - 1e-4)
    start_alpha = special.logit(share)
    start_alpha = np.minimum.accumulate(start_alpha - np.arange(n_levels - 1) * 1e-3)
    gaps = np.log(np.maximum(-np.diff(start_alpha), 1e-3))
    theta0 = np.concatenate([[start_alpha[0]], gaps, np.zeros(X.shape[1])])
    result = optimize.minimize(
        _negative_loglik,
        theta0,
        args=(Z, y, n_levels),
        jac=True,
        method="BFGS",
        options={"gtol": 1e-7, "maxiter": 5000},
    )
    alpha, beta_z = _unpack(result.x, n_levels - 1)
    beta = beta_z / spread
    alpha = alpha - float(np.sum(beta * center))
    return OrdinalFit(alpha, beta, -float(result.fun), len(y), bool(result.success))


@dataclass(frozen=True)
class FitStatistics:
    """Goodness of fit, as in Table 7.1 (errors and variances normalised to [0, 1]).

    ``lr_chi2`` is the likelihood-ratio :math:`\\chi^2` of each term: twice the loss of
    log-likelihood when the model is refitted without that term alone.
    """

    n: int
    loglik: float
    lr_chi2: dict[str, float]
    r2: float
    rmse: float
    avg_var: float


@dataclass(frozen=True)
class FittedModel:
    model: OrdinalModel
    statistics: FitStatistics = field(repr=False)


def goodness_of_fit(
    model: OrdinalModel, X: np.ndarray, relevance: np.ndarray
) -> tuple[float, float, float]:
    """R², RMSE and average variance of ``model`` on judged pairs (Table 7.1's rows).

    Predictions (7.1) and the judgments collapsed to the model's levels are divided by
    the scale's maximum, so Broad reads {0, 0.5, 1} and Fine {0.05, ..., 0.95}.
    R² is :math:`1 - \\sum (E - r)^2 / \\sum (r - \\bar r)^2`.
    """
    top = SCALE_MAX[model.scale]
    actual = model.levels[to_levels(relevance, model.scale)] / top
    expectation, variance = model.moments(X)
    expectation = expectation / top
    residual = np.sum((expectation - actual) ** 2)
    total = np.sum((actual - actual.mean()) ** 2)
    r2 = 1.0 - residual / total if total > 0 else float("nan")
    return float(r2), float(np.sqrt(residual / len(actual))), float(np.mean(variance / top**2))


def fit_model(
    features: Mapping[str, np.ndarray],
    relevance: np.ndarray,
    *,
    terms: Sequence[str],
    scale: str,
    name: str = "fitted",
) -> FittedModel:
    """Fit a relevance model on judged pairs and report Table 7.1's statistics.

    Rows with a missing feature or no judgment are left out (as a model cannot be
    applied to them either).
    """
    check_scale(scale)
    X = design_matrix(features, terms)
    relevance = np.asarray(relevance, dtype=np.float64)
    use = ~np.isnan(relevance) & ~np.isnan(X).any(axis=1)
    if use.sum() < len(terms) + len(LEVEL_VALUES[scale]):
        raise ValueError(f"only {int(use.sum())} judged pairs have every feature: too few to fit")
    X, relevance = X[use], relevance[use]
    y = to_levels(relevance, scale)
    n_levels = len(LEVEL_VALUES[scale])
    full = fit_ordinal(X, y, n_levels)
    lr = {}
    for j, term in enumerate(terms):
        reduced = fit_ordinal(np.delete(X, j, axis=1), y, n_levels)
        lr[term] = max(2.0 * (full.loglik - reduced.loglik), 0.0)
    model = OrdinalModel(
        name, scale, tuple(terms), tuple(full.beta.tolist()), tuple(full.alpha.tolist())
    )
    r2, rmse, avg_var = goodness_of_fit(model, X, relevance)
    stats = FitStatistics(len(y), full.loglik, lr, r2, rmse, avg_var)
    return FittedModel(model, stats)
