"""Plots of the results pages: their data, drawn as SVG in the browser, downloadable as CSV.

A :class:`Plot` is a table (``columns`` and ``rows``: exactly what its CSV holds,
:func:`evaluation.exports.plot_csv`) and a drawing ``spec`` built from the same numbers,
which the page hands to ``evaluation/static/evaluation/plots.js`` (through ``json_script``); the
script draws it as an ``<svg role="img">`` named by the plot's title. The server never
draws: a page costs the same whether it has one plot or ten, and nothing is drawn for a
page nobody opens.

The first half builds kinds of plot (intervals, curves, histograms, heat maps, binned
proportions); the second half, :func:`leaderboard_plots`, :func:`system_plots`,
:func:`significance_plots`, :func:`reliability_plots`, :func:`optimality_plots` and
:func:`mapping_plots`, builds
each page's plots from what the last recompute stored (never from a computation), as
``{name: Plot}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from evaluation.core.answers import GRID
from evaluation.core.satisfaction import CubicMapping

KINDS = ("intervals", "curves", "histogram", "heatmap", "binned")
"""What ``evaluation/static/evaluation/plots.js`` knows how to draw."""


@dataclass(frozen=True)
class Plot:
    """A plot's data (``rows`` of ``columns``) and how to draw it (``options``)."""

    name: str
    title: str
    kind: str
    columns: tuple[str, ...]
    rows: list[tuple]
    options: dict = field(default_factory=dict)

    def spec(self) -> dict:
        """What the page gives ``plots.js``: the kind, the title, the data, the options.

        A heat map is drawn from its matrix (``options``), not from its long CSV rows.
        """
        data = {"name": self.name, "title": self.title, "kind": self.kind}
        if "matrix" not in self.options:
            data.update(columns=list(self.columns), rows=[list(row) for row in self.rows])
        data.update(self.options)
        return data


def interval_plot(
    name: str,
    title: str,
    *,
    labels: Sequence[str],
    estimates: Sequence[float | None],
    lows: Sequence[float | None],
    highs: Sequence[float | None],
    xlabel: str,
    value_column: str = "estimate",
) -> Plot:
    """Point estimates with intervals, one row per label (e.g. systems' means ± 95% CI)."""
    rows = [(lab, e, lo, hi) for lab, e, lo, hi in zip(labels, estimates, lows, highs, strict=True)]
    return Plot(
        name, title, "intervals", ("label", value_column, "low", "high"), rows, {"xlabel": xlabel}
    )


def curves_plot(
    name: str,
    title: str,
    *,
    x: Sequence[float],
    series: dict[str, Sequence[float | None]],
    xlabel: str,
    ylabel: str,
    hline: float | None = None,
    vlines: dict[str, float] | None = None,
    ylim: tuple[float, float] | None = None,
    xlog: bool = False,
) -> Plot:
    """Several curves over a shared x (D-study curves): column 0 is x, one column per curve;
    ``xlog`` draws x on a logarithmic scale."""
    columns = ("x", *series)
    rows = [(xi, *(ys[i] for ys in series.values())) for i, xi in enumerate(x)]
    options = {
        "xlabel": xlabel,
        "ylabel": ylabel,
        "hline": hline,
        "vlines": [[label, value] for label, value in (vlines or {}).items()],
        "ylim": list(ylim) if ylim else None,
        "xlog": xlog,
    }
    return Plot(name, title, "curves", columns, rows, options)


def histogram_plot(name: str, title: str, *, bins: Sequence[Sequence], xlabel: str) -> Plot:
    """Stored counts per bin (``[low, high, count]``, e.g. thesis §3.2.1's 10 bins of [0, 1])."""
    rows = [(lo, hi, n) for lo, hi, n in bins]
    return Plot(
        name, title, "histogram", ("bin low", "bin high", "count"), rows,
        {"xlabel": xlabel, "ylabel": "queries"},
    )  # fmt: skip


def heatmap_plot(
    name: str,
    title: str,
    *,
    labels: Sequence[str],
    matrix: Sequence[Sequence[float | None]],
    colorbar: str,
    vmin: float = 0.0,
    vmax: float = 1.0,
) -> Plot:
    """A square matrix over labels (e.g. adjusted p-values of every pair of systems);
    the CSV is long (one row per cell off the diagonal)."""
    rows = [
        (a, b, matrix[i][j]) for i, a in enumerate(labels) for j, b in enumerate(labels) if i != j
    ]
    options = {
        "labels": list(labels),
        "matrix": [list(r) for r in matrix],
        "colorbar": colorbar,
        "vmin": vmin,
        "vmax": vmax,
    }
    return Plot(name, title, "heatmap", ("row", "column", "value"), rows, options)


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

    The CSV is long: one row per point or curve vertex, ``series`` naming which (a
    curve's vertices have no interval and no count).
    """
    rows = []
    for label, p in points.items():
        for x, y, lo, hi, n in zip(p["x"], p["y"], p["low"], p["high"], p["count"], strict=True):
            rows.append((label, x, y, lo, hi, n))
    for label, (xs, ys) in (curves or {}).items():
        rows.extend((label, x, y, None, None, None) for x, y in zip(xs, ys, strict=True))
    options = {"xlabel": xlabel, "ylabel": ylabel, "curves": list(curves or {})}
    return Plot(name, title, "binned", ("series", "x", "y", "low", "high", "count"), rows, options)


# --- the plots of each results page -------------------------------------------------


METHOD_NAMES = {"t": "t, eq. 4.6", "bootstrap-percentile": "bootstrap percentile"}


def _methods(rows: list[dict], key: str) -> str:
    """`` (t, eq. 4.6)``: how the plotted intervals were made (nothing for old payloads)."""
    methods = sorted({r[key] for r in rows if r.get(key)})
    return f" ({' and '.join(METHOD_NAMES.get(m, m) for m in methods)})" if methods else ""


def leaderboard_plots(summary: dict) -> dict[str, Plot]:
    """Means and mean P(Sat) with their intervals, from a leaderboard's stored summary;
    each system labelled with its letters (systems sharing one are not significantly
    different) when the summary has them."""
    measure = summary["measure"]
    rows = summary["rows"]
    systems = [f"{r['system']} ({r['letters']})" if r.get("letters") else r["system"] for r in rows]
    plots = [
        interval_plot(
            "means",
            f"Mean {measure} with 95% confidence intervals{_methods(rows, 'ci_method')}",
            labels=systems,
            estimates=[r["mean"] for r in rows],
            lows=[r["ci_low"] for r in rows],
            highs=[r["ci_high"] for r in rows],
            xlabel=measure,
            value_column="mean",
        )
    ]
    if summary.get("mapping"):
        plots.append(
            interval_plot(
                "psat",
                f"Mean P(Sat) with 95% confidence intervals{_methods(rows, 'psat_method')}",
                labels=systems,
                estimates=[r["psat_mean"] for r in rows],
                lows=[r["psat_low"] for r in rows],
                highs=[r["psat_high"] for r in rows],
                xlabel="P(Sat)",
                value_column="P(Sat)",
            )
        )
    return {p.name: p for p in plots}


def significance_plots(summary: dict, significance: dict) -> dict[str, Plot]:
    """The adjusted p-value of every pair of systems, as a heat map in rank order."""
    plot = heatmap_plot(
        "pvalues",
        f"Adjusted p-values ({summary['test']}, {summary['adjustment']})",
        labels=significance["systems"],
        matrix=significance["p_adjusted"],
        colorbar="adjusted p-value",
    )
    return {plot.name: plot}


def system_plots(measure: str, distributions: dict) -> dict[str, Plot]:
    """A system's stored distributions of λ and of P(Sat) over queries."""
    plots = [
        histogram_plot(
            "lambda",
            f"Distribution of {measure} over queries",
            bins=distributions["lambda"],
            xlabel=measure,
        )
    ]
    if distributions.get("psat"):
        plots.append(
            histogram_plot(
                "psat",
                "Distribution of P(Sat) over queries",
                bins=distributions["psat"],
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
    plots = {plot.name: plot}
    nested = payload.get("nested")
    if nested:  # several assessors per query: Eρ² for 1 … 5 of them (thesis Figure 6.5)
        curves = nested["curves"]
        plot = curves_plot(
            "nested",
            f"Several assessors per query: Eρ² of {payload['measure']} against the number of queries",
            x=curves[0]["queries"],
            series={
                f"{c['assessors']} assessor{'s' if c['assessors'] > 1 else ''} per query": c[
                    "erho2"
                ]
                for c in curves
            },
            xlabel="number of queries",
            ylabel="Eρ²",
            hline=nested["target"],
            ylim=(0, 1),
        )
        plots[plot.name] = plot
    return plots


RATE_WORDS = {
    "non_significance": "pairs not significant with the first half (lower is more powerful)",
    "success": "significant pairs confirmed by the other half (higher is better)",
    "lack_of_power": "significant pairs the other half does not confirm (lower is better)",
    "minor_conflict": "significant pairs reversed, not significantly, by the other half",
    "major_conflict": "significant pairs reversed significantly by the other half",
    "global_conflict": "significant pairs reversed by the other half (closest to α is exact)",
}
"""Each rate of thesis §5.3 in the words of the "Choosing a test" page."""


def optimality_plots(payload: dict) -> dict[str, Plot]:
    """Figure 5.1's form: each rate against α (log scale) per test; Figures 5.2–5.3's: the
    non-significance, success and conflict rates per measure."""
    alphas = payload["alphas"]
    out = {}
    for group, key, rates in (
        ("by_test", "test", tuple(RATE_WORDS)),
        ("by_measure", "measure", ("non_significance", "success", "global_conflict")),
    ):
        groups = payload[group]
        if key == "measure" and len(groups) < 2:
            continue
        for rate in rates:
            series = {
                str(g.get("label") if key == "test" else g[key]): g["rates"][rate] for g in groups
            }
            if rate == "global_conflict":
                series["α (an exact test)"] = alphas
            name = f"{key}-{rate.replace('_', '-')}"
            out[name] = curves_plot(
                name,
                f"Per {key}: {RATE_WORDS[rate]}",
                x=alphas,
                series=series,
                xlabel="significance level α (log scale)",
                ylabel="share",
                xlog=True,
            )
    return out


def mapping_plots(payload: dict) -> dict[str, Plot]:
    """P(Sat | λ) per bin with the fitted and published cubics; P(Agr = ±1 | Δλ) per bin.

    The cubics are stored as coefficients; their values on λ = 0, 0.01, …, 1 are the
    curves' vertices (the same numbers in the CSV and on the page).
    """
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
