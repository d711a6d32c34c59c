"""Plots of the results pages: matplotlib (Agg) drawn to inline SVG, data downloadable as CSV.

A :class:`Plot` is its data (a table: ``columns`` and ``rows``) plus how to draw it;
the page inlines :meth:`Plot.svg` and links its CSV (:func:`evaluation.exports.plot_csv`),
so what is drawn and what is downloaded are the same numbers. Text stays text in the
SVG (``svg.fonttype`` ``none``): small, selectable, and readable by screen readers, with
the title as the SVG's accessible name.

The first half draws kinds of plot (intervals, curves, histograms, heat maps, binned
proportions); the second half, :func:`leaderboard_plots`, :func:`system_plots`,
:func:`reliability_plots` and :func:`mapping_plots`, builds each page's plots from its
stored payload (never from a computation), as ``{name: Plot}``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from evaluation.core.answers import GRID
from evaluation.core.satisfaction import CubicMapping

STYLE = {
    "svg.fonttype": "none",
    "svg.hashsalt": "earshot",  # deterministic ids
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}
COLOURS = ["#2457c5", "#c55a24", "#1c6b3a", "#8a3ab9", "#a32020", "#5b6475"]


@dataclass(frozen=True)
class Plot:
    """A plot and its data: ``rows`` of ``columns`` are exactly what :meth:`svg` draws."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple]
    draw: Callable[[Figure], None] = field(repr=False, compare=False)
    size: tuple[float, float] = (6.4, 3.6)

    def svg(self) -> str:
        """The figure as an ``<svg>`` element to inline in a page."""
        with plt.rc_context(STYLE):
            figure = Figure(figsize=self.size, layout="constrained")
            self.draw(figure)
            out = io.StringIO()
            figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
        text = out.getvalue()
        text = text[text.index("<svg") :]
        label = self.title.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
        return re.sub(
            r"<svg\b",
            f'<svg role="img" aria-label="{label}" class="plot" data-plot="{self.name}"',
            text,
            count=1,
        )


def _array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def interval_plot(
    name: str,
    title: str,
    *,
    labels: Sequence[str],
    estimates: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    xlabel: str,
    value_column: str = "estimate",
) -> Plot:
    """Point estimates with intervals, one row per label (e.g. systems' means ± 95% CI)."""
    rows = [(lab, e, lo, hi) for lab, e, lo, hi in zip(labels, estimates, lows, highs, strict=True)]

    def draw(figure: Figure) -> None:
        ax = figure.subplots()
        y = np.arange(len(labels))[::-1]
        est, lo, hi = _array(estimates), _array(lows), _array(highs)
        ax.errorbar(est, y, xerr=[est - lo, hi - est], fmt="o", color=COLOURS[0], capsize=3)
        ax.set_yticks(y, labels)
        ax.set_xlabel(xlabel)
        ax.set_title(title)

    height = max(2.4, 0.28 * len(labels) + 1.2)
    return Plot(name, title, ("label", value_column, "low", "high"), rows, draw, (6.4, height))


def curves_plot(
    name: str,
    title: str,
    *,
    x: Sequence[float],
    series: dict[str, Sequence[float | None]],
    xlabel: str,
    ylabel: str,
    bands: dict[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    hline: float | None = None,
    vlines: dict[str, float] | None = None,
    step: bool = False,
    ylim: tuple[float, float] | None = None,
) -> Plot:
    """Several curves over a shared x (D-study curves, fitted mappings, binned proportions)."""
    bands = bands or {}
    columns = ["x"]
    for label in series:
        columns.append(label)
        if label in bands:
            columns += [f"{label} low", f"{label} high"]
    rows = []
    for i, xi in enumerate(x):
        row = [xi]
        for label, ys in series.items():
            row.append(ys[i])
            if label in bands:
                row += [bands[label][0][i], bands[label][1][i]]
        rows.append(tuple(row))

    def draw(figure: Figure) -> None:
        ax = figure.subplots()
        xs = _array(x)
        for colour, (label, ys) in zip(COLOURS * 4, series.items(), strict=False):
            values = _array(ys)
            if step:
                ax.plot(xs, values, "o", label=label, color=colour)
            else:
                ax.plot(xs, values, label=label, color=colour)
            if label in bands:
                low, high = (_array(b) for b in bands[label])
                ax.fill_between(xs, low, high, alpha=0.2, color=colour, linewidth=0)
        if hline is not None:
            ax.axhline(hline, color="#5b6475", linestyle="--", linewidth=1)
        for label, value in (vlines or {}).items():
            ax.axvline(value, color="#5b6475", linestyle=":", linewidth=1)
            ax.annotate(label, (value, ax.get_ylim()[0]), rotation=90, va="bottom", ha="right")
        if ylim:
            ax.set_ylim(*ylim)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        if len(series) > 1:
            ax.legend(frameon=False)

    return Plot(name, title, tuple(columns), rows, draw)


def histogram_plot(
    name: str, title: str, *, values: Sequence[float], xlabel: str, bins: int = 10
) -> Plot:
    """The distribution of values over [0, 1] in ``bins`` equal bins (thesis §3.2.1 bins)."""
    counts, edges = np.histogram(_array(values), bins=bins, range=(0.0, 1.0))
    rows = [
        (float(lo), float(hi), int(n)) for lo, hi, n in zip(edges, edges[1:], counts, strict=False)
    ]

    def draw(figure: Figure) -> None:
        ax = figure.subplots()
        ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge", color=COLOURS[0],
               edgecolor="white")  # fmt: skip
        ax.set_xlabel(xlabel)
        ax.set_ylabel("queries")
        ax.set_title(title)

    return Plot(name, title, ("bin low", "bin high", "count"), rows, draw, (4.8, 3.0))


def heatmap_plot(
    name: str,
    title: str,
    *,
    labels: Sequence[str],
    matrix: Sequence[Sequence[float | None]],
    colorbar: str,
    vmin: float = 0.0,
    vmax: float = 1.0,
    cmap: str = "viridis_r",
) -> Plot:
    """A square matrix over labels (e.g. p-values of every pair of systems)."""
    rows = [
        (a, b, matrix[i][j]) for i, a in enumerate(labels) for j, b in enumerate(labels) if i != j
    ]

    def draw(figure: Figure) -> None:
        ax = figure.subplots()
        data = np.ma.masked_invalid(
            np.array([[np.nan if v is None else v for v in r] for r in matrix])
        )
        image = ax.imshow(data, vmin=vmin, vmax=vmax, cmap=cmap)
        ax.set_xticks(range(len(labels)), labels, rotation=90)
        ax.set_yticks(range(len(labels)), labels)
        ax.grid(False)
        ax.set_title(title)
        figure.colorbar(image, ax=ax, label=colorbar, shrink=0.8)

    side = max(3.6, 0.32 * len(labels) + 2.2)
    return Plot(name, title, ("row", "column", "value"), rows, draw, (side + 1.2, side))


def binned_plot(
    name: str,
    title: str,
    *,
    points: dict[str, dict[str, Sequence]],
    curves: dict[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    xlabel: str,
    ylabel: str,
) -> Plot:
    """Binned proportions with intervals (``points[label]`` has ``x``, ``y``, ``low``,
    ``high``, ``count``) and curves over a grid (fitted and published mappings).

    The CSV is long: one row per point or curve vertex, ``series`` naming which.
    """
    curves = curves or {}
    rows = []
    for label, p in points.items():
        for x, y, lo, hi, n in zip(p["x"], p["y"], p["low"], p["high"], p["count"], strict=True):
            rows.append((label, x, y, lo, hi, n))
    for label, (xs, ys) in curves.items():
        rows.extend((label, x, y, None, None, None) for x, y in zip(xs, ys, strict=True))

    def draw(figure: Figure) -> None:
        ax = figure.subplots()
        colours = iter(COLOURS * 4)
        for label, p in points.items():
            x, y, lo, hi = (_array(p[k]) for k in ("x", "y", "low", "high"))
            ok = ~np.isnan(y)
            below = np.maximum(0.0, y[ok] - lo[ok])  # rounding may put y a hair outside
            above = np.maximum(0.0, hi[ok] - y[ok])
            ax.errorbar(x[ok], y[ok], yerr=[below, above], fmt="o",
                        capsize=3, label=label, color=next(colours))  # fmt: skip
        styles = iter(["-", "--", ":", "-."])
        for label, (xs, ys) in curves.items():
            ax.plot(_array(xs), _array(ys), next(styles), label=label, color=next(colours))
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(frameon=False, loc="best")

    return Plot(name, title, ("series", "x", "y", "low", "high", "count"), rows, draw)


# --- the plots of each results page -------------------------------------------------


def leaderboard_plots(payload: dict) -> dict[str, Plot]:
    measure = payload["measure"]
    rows = payload["rows"]
    systems = [r["system"] for r in rows]
    plots = [
        interval_plot(
            "means",
            f"Mean {measure} with 95% confidence intervals",
            labels=systems,
            estimates=[r["mean"] for r in rows],
            lows=[r["ci_low"] for r in rows],
            highs=[r["ci_high"] for r in rows],
            xlabel=measure,
            value_column="mean",
        )
    ]
    if payload.get("mapping"):
        plots.append(
            interval_plot(
                "psat",
                "Mean P(Sat) with 95% confidence intervals",
                labels=systems,
                estimates=[r["psat_mean"] for r in rows],
                lows=[r["psat_low"] for r in rows],
                highs=[r["psat_high"] for r in rows],
                xlabel="P(Sat)",
                value_column="P(Sat)",
            )
        )
    order = {name: i for i, name in enumerate(systems)}
    matrix: list[list[float | None]] = [[None] * len(systems) for _ in systems]
    for pair in payload["pairs"]:
        i, j = order[pair["a"]], order[pair["b"]]
        matrix[i][j] = matrix[j][i] = pair["p_adjusted"]
    plots.append(
        heatmap_plot(
            "significance",
            f"Adjusted p-values ({payload['test']}, {payload['adjustment']})",
            labels=systems,
            matrix=matrix,
            colorbar="adjusted p-value",
        )
    )
    return {p.name: p for p in plots}


def system_plots(payload: dict, system: str) -> dict[str, Plot]:
    index = payload["systems"].index(system)
    plots = [
        histogram_plot(
            "lambda",
            f"Distribution of {payload['measure']} over queries",
            values=payload["scores"][index],
            xlabel=payload["measure"],
        )
    ]
    if payload.get("psat"):
        plots.append(
            histogram_plot(
                "psat",
                "Distribution of P(Sat) over queries",
                values=payload["psat"][index],
                xlabel="P(Sat)",
            )
        )
    return {p.name: p for p in plots}


def reliability_plots(payload: dict) -> dict[str, Plot]:
    curve = payload["curve"]
    target = payload["target"]
    needed = payload["needed"]
    vlines = {f"Eρ² ≥ {target}: {needed['erho2']}": needed["erho2"]} if needed.get("erho2") else {}
    plot = curves_plot(
        "dstudy",
        f"D-study of {payload['measure']}: reliability against the number of queries",
        x=curve["queries"],
        series={"Eρ²": curve["erho2"], "Φ": curve["phi"]},
        xlabel="number of queries",
        ylabel="coefficient",
        hline=target,
        vlines=vlines,
        ylim=(0, 1),
    )
    return {plot.name: plot}


def mapping_plots(payload: dict) -> dict[str, Plot]:
    """P(Sat | λ) per bin with the fitted and published cubics; P(Agr = ±1 | Δλ) per bin."""
    measure = payload["measure"]
    sat = payload["satisfaction"]
    grid = [round(float(x), 2) for x in GRID]
    curves = {}
    if payload.get("fit"):
        fitted = CubicMapping(*payload["fit"]["coefficients"])(GRID)
        curves["fitted cubic (eq. 4.3)"] = (grid, [float(v) for v in fitted])
    if payload.get("published"):
        published = CubicMapping(*payload["published"]["coefficients"])(GRID)
        curves["published (Table 4.3)"] = (grid, [float(v) for v in published])
    psat = binned_plot(
        "psat",
        f"P(Sat | λ) of {measure} with 95% Wilson intervals",
        points={
            "P(Sat) per bin": {
                "x": sat["centres"],
                "y": sat["proportion"],
                "low": sat["ci_low"],
                "high": sat["ci_high"],
                "count": sat["counts"],
            }
        },
        curves=curves,
        xlabel=measure,
        ylabel="P(Sat)",
    )
    agr = payload["agreement"]
    points = {}
    for key, label in (("positive", "P(Agr = 1)"), ("negative", "P(Agr = −1)")):
        points[label] = {
            "x": sat["centres"], "y": agr[key]["proportion"], "low": agr[key]["ci_low"],
            "high": agr[key]["ci_high"], "count": agr["counts"],
        }  # fmt: skip
    agreement = binned_plot(
        "agreement",
        f"P(Agr | Δλ) of {measure} with 95% Wilson intervals",
        points=points,
        xlabel=f"|Δ{measure}|",
        ylabel="probability",
    )
    return {psat.name: psat, agreement.name: agreement}
