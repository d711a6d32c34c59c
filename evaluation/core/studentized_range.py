r"""The Studentized range distribution, vectorised over many values at once.

Tukey's HSD (:func:`evaluation.core.multiple.tukey_hsd`) needs the upper tail
:math:`P(Q_{k,\nu} \ge q)` of one cell per pair of systems: 1,225 cells for 50 systems.
``scipy.stats.studentized_range.sf`` integrates each cell on its own (a numerical double
integral, 8–45 ms a cell); here every cell is integrated on one fixed grid at once.

For :math:`k` means and :math:`\nu` degrees of freedom,

.. math::

    P(Q_{k,\nu} \ge q) = \int_0^\infty f_\nu(s)\, R_k(q s)\, ds,\qquad
    R_k(w) = k \int_{-\infty}^{\infty} \varphi(z)
        \left[\Phi(z)^{k-1} - \left(\Phi(z) - \Phi(z - w)\right)^{k-1}\right] dz

where :math:`R_k(w)` is the upper tail of the range of :math:`k` standard normal
variables, and :math:`f_\nu(s) = \frac{\nu^{\nu/2}}{\Gamma(\nu/2)\,2^{\nu/2-1}}
s^{\nu-1} e^{-\nu s^2/2}` the density of :math:`s = \sqrt{\chi^2_\nu/\nu}` (Lund & Lund
1983, eqs. 1–2; the difference of powers above is the complement of their integrand,
written so that small tails keep their digits). How it is computed:

- :math:`R_k` on :math:`[0, 18]` by its Chebyshev interpolant (degree 128 up to 100 means,
  256 up to 1,000, 512 beyond), each node integrated over :math:`z \in [-9, 9]` by
  Gauss–Legendre on 36 panels of 12 points; :math:`R_k(w) < 10^{-30}` beyond 18 for any
  :math:`k \le 10^7` and is taken as 0 there;
- the integral over :math:`s` by Gauss–Legendre in :math:`\log s` between the
  :math:`10^{-17}` and :math:`1 - 10^{-17}` quantiles of :math:`f_\nu`, in panels at most 1
  wide of 32 points (one panel for :math:`\nu` in the thousands, some forty for
  :math:`\nu = 1`);
- from :math:`\nu \ge 100{,}000` the :math:`\nu \to \infty` form :math:`R_k(q)`, where
  scipy switches too.

Accuracy (:data:`ACCURACY`): within :math:`10^{-9}` of ``scipy.stats.studentized_range``
(absolute, on p-values), checked in ``evaluation/core/tests/test_studentized_range.py``
for 2 to 1,000 means and 1 to 10⁶ degrees of freedom; the largest difference seen there is
about :math:`2 \cdot 10^{-11}`, the size of scipy's own integration tolerance.

References
----------
R. E. Lund and J. R. Lund (1983). Algorithm AS 190: Probabilities and upper quantiles for
the studentized range. Applied Statistics 32(2), 204–210. https://doi.org/10.2307/2347300

T. Sakai (2018). *Laboratory Experiments in Information Retrieval*, §4.4 (Tukey HSD).
Springer. https://doi.org/10.1007/978-981-13-1199-4
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
from numpy.polynomial import chebyshev, legendre
from scipy import optimize, special

__all__ = ["ACCURACY", "studentized_range_ppf", "studentized_range_sf"]

ACCURACY = 1e-9
"""Largest absolute difference from ``scipy.stats.studentized_range`` that the tests allow."""

_W_MAX = 18.0  # R_k(w) is below 1e-30 beyond this for k <= 1e7
_TAIL = 1e-17  # quantiles of f_nu bounding the integral over s
_ASYMPTOTIC_DF = 100_000  # from here the nu -> infinity form, as scipy


def _gauss_legendre(a: float, b: float, panels: int, points: int):
    """Nodes and weights of composite Gauss–Legendre on ``[a, b]``."""
    x, w = legendre.leggauss(points)
    edges = np.linspace(a, b, panels + 1)
    half = np.diff(edges) / 2
    middle = (edges[:-1] + edges[1:]) / 2
    return (middle[:, None] + half[:, None] * x).ravel(), (half[:, None] * w).ravel()


@cache
def _z_grid():
    z, w = _gauss_legendre(-9.0, 9.0, 36, 12)
    return z, special.log_ndtr(z), special.ndtr(z), w * np.exp(-(z**2) / 2) / math.sqrt(2 * math.pi)


def range_sf(w: np.ndarray, k: int) -> np.ndarray:
    """:math:`R_k(w)`, the upper tail of the range of ``k`` standard normals, by quadrature."""
    z, log_phi, phi, density = _z_grid()
    below = special.ndtr(z - np.asarray(w, dtype=float)[..., None])  # Φ(z − w)
    m = k - 1
    with np.errstate(divide="ignore"):  # Φ(z)^m − (Φ(z) − Φ(z − w))^m, without cancelling
        gap = np.exp(m * log_phi) * -np.expm1(m * np.log1p(-below / phi))
    return k * (gap @ density)


def _degree(k: int) -> int:
    return 128 if k <= 100 else 256 if k <= 1000 else 512


@cache
def _range_interpolant(k: int) -> np.ndarray:
    """Chebyshev coefficients of :math:`R_k` on ``[0, _W_MAX]``."""
    degree = _degree(k)
    x = np.cos(math.pi * (np.arange(degree + 1) + 0.5) / (degree + 1))
    return chebyshev.chebfit(x, range_sf((x + 1) * _W_MAX / 2, k), degree)


def _range_tail(w: np.ndarray, k: int) -> np.ndarray:
    t = np.minimum(w, _W_MAX) * (2 / _W_MAX) - 1
    return np.where(w < _W_MAX, np.clip(chebyshev.chebval(t, _range_interpolant(k)), 0, 1), 0.0)


@cache
def _s_grid(df: float):
    """Nodes and weights of the integral over :math:`s` (weights include :math:`f_\\nu`)."""
    lo = math.sqrt(2 * special.gammaincinv(df / 2, _TAIL) / df)
    hi = math.sqrt(2 * special.gammainccinv(df / 2, _TAIL) / df)
    a, b = math.log(lo), math.log(hi)
    u, w = _gauss_legendre(a, b, max(1, math.ceil(b - a)), 32)
    s = np.exp(u)
    log_const = (df / 2) * math.log(df) - special.gammaln(df / 2) - (df / 2 - 1) * math.log(2)
    # ds = s du
    return s, w * np.exp(log_const + df * np.log(s) - df * s * s / 2)


def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    r""":math:`P(Q_{k,\nu} \ge q)` for every value of ``q`` at once.

    Parameters
    ----------
    q : array_like
        Values of the Studentized range, ≥ 0 (``inf`` gives 0).
    k : int
        Number of means, ≥ 2.
    df : float
        Degrees of freedom :math:`\nu` of the variance estimate, > 0.

    Returns
    -------
    numpy.ndarray
        The upper tails, shaped as ``q``, within :data:`ACCURACY` of scipy's.

    Examples
    --------
    >>> round(float(studentized_range_sf(3.5, 3, 20)), 6)  # scipy: 0.05589184908...
    0.055892
    """
    if k < 2 or not df > 0:
        raise ValueError(f"need k >= 2 means and df > 0, got k={k}, df={df}")
    q = np.asarray(q, dtype=float)
    if np.any(np.isnan(q) | (q < 0)):
        raise ValueError("values of the Studentized range must be >= 0")
    if df >= _ASYMPTOTIC_DF:
        return _range_tail(q, k)
    s, weights = _s_grid(float(df))
    flat = q.ravel()
    out = np.empty(flat.shape)
    rows = max(1, (1 << 21) // (len(s) * _degree(k)))  # cells per block: bounded memory
    for a in range(0, len(flat), rows):
        cells = flat[a : a + rows]
        with np.errstate(invalid="ignore"):  # inf · s is inf, whose tail is 0
            out[a : a + rows] = _range_tail(cells[:, None] * s, k) @ weights
    return np.clip(out, 0.0, 1.0).reshape(q.shape)


def studentized_range_ppf(p: float, k: int, df: float) -> float:
    r"""The :math:`q` with :math:`P(Q_{k,\nu} \le q) = p` (the critical value of Tukey's HSD).

    Found by Brent's method on :func:`studentized_range_sf` to a tolerance of
    :math:`10^{-12}`.

    Examples
    --------
    >>> round(studentized_range_ppf(0.95, 3, 20), 4)  # tables: 3.578
    3.5779
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be in (0, 1), got {p}")
    target = 1.0 - p

    def excess(x: float) -> float:
        return float(studentized_range_sf(x, k, df)) - target

    hi = 1.0
    while excess(hi) > 0:
        hi *= 2
    return float(optimize.brentq(excess, 0.0, hi, xtol=1e-12, rtol=4 * np.finfo(float).eps))
