"""The plots of each results page, built from stored payloads (never from a computation).

Each function returns ``{name: Plot}``; the page inlines them and the CSV view serves
``plots[name].csv()``, so a plot and its download come from the same function.
"""

from __future__ import annotations

from evaluation.plots import (
    Plot,
    binned_plot,
    curves_plot,
    heatmap_plot,
    histogram_plot,
    interval_plot,
)


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
    from evaluation.core.stats import CubicMapping
    from evaluation.services.mappings import GRID

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
