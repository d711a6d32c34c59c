"""Results organisers download, built in one place rather than in the views.

Leaderboards (CSV tables of systems, pairs or per-query scores; JSON with everything),
satisfaction mappings (CSV, one row per bin; JSON) and the data of every plot (CSV).
Everything is read from stored payloads; CSV goes through
:func:`common.csv_export.csv_text`, the project's one CSV writer.
"""

from __future__ import annotations

import json

import numpy as np
from django.http import HttpResponse

from catalog.published import Collection
from common.csv_export import csv_text, download
from evaluation.models import Leaderboard, SatisfactionMapping
from evaluation.plots import Plot

EXPORT_FORMATS = ("csv", "json")
LEADERBOARD_TABLES = ("systems", "pairs", "scores")

LEADERBOARD_COLUMNS = [
    "rank", "system", "mean", "ci_low", "ci_high", "ci_method", "psat_mean", "psat_low",
    "psat_high", "psat_method", "psucc", "psat_floor", "pred_low", "pred_high", "pred_family",
    "judged", "letters",
]  # fmt: skip
PAIR_COLUMNS = [
    "a", "b", "delta", "ci_low", "ci_high", "ci_method", "p", "p_adjusted", "delta_psat",
]  # fmt: skip
SCORE_COLUMNS = ["system", "query", "score", "psat"]
MAPPING_COLUMNS = ["bin_low", "bin_high", "lists", "satisfied", "p_sat", "p_sat_low",
                   "p_sat_high", "examples", "agr_pos", "p_agr_pos", "p_agr_pos_low",
                   "p_agr_pos_high", "agr_neg", "p_agr_neg", "p_agr_neg_low", "p_agr_neg_high"]  # fmt: skip


def slug(text: str) -> str:
    """``text`` fit for a file name: letters and digits, the rest dashes."""
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def _csv(header, rows, filename: str) -> HttpResponse:
    return download(
        csv_text(header, rows, lineterminator="\n"), filename=filename, content_type="text/csv"
    )


def _json(document: dict, filename: str) -> HttpResponse:
    return download(
        json.dumps(document, indent=1), filename=filename, content_type="application/json"
    )


def leaderboard_json(*, collection: Collection, board: Leaderboard) -> HttpResponse:
    name = f"{slug(collection.name)}-{slug(board.measure)}"
    data = {"collection": collection.name, "computed_at": board.computed_at.isoformat()}
    data.update(board.payload)
    return _json(data, f"{name}.json")


def judgment_sources_text(payload: dict) -> str:
    """The judgment sources a result used, as one cell: ``a; b`` (``"unrecorded"`` for
    results computed before sources were recorded)."""
    sources = payload.get("judgment_sources")
    if sources is None:
        return "unrecorded"
    return "; ".join(sources["used"])


def warnings_text(payload: dict) -> str:
    """A result's warnings as one cell: ``code: message | …`` (empty when there are none,
    or for results computed before warnings were recorded)."""
    return " | ".join(f"{w['code']}: {w['message']}" for w in payload.get("warnings") or [])


def _system_row(row: dict) -> list:
    # leaderboards stored before letters existed have contiguous groups' labels instead
    values = {**row, "letters": row.get("letters", row.get("group_label"))}
    return [values.get(c) for c in LEADERBOARD_COLUMNS]


def leaderboard_csv(*, collection: Collection, board: Leaderboard, table: str) -> HttpResponse:
    """One table of the leaderboard: ``systems``, ``pairs`` or per-query ``scores``; the
    last columns, ``judgment_sources`` and ``warnings``, name the judgment sources it was
    computed from and what it cannot say."""
    name = f"{slug(collection.name)}-{slug(board.measure)}"
    payload = board.payload
    if table == "systems":
        header = LEADERBOARD_COLUMNS
        rows = (_system_row(row) for row in payload["rows"])
    elif table == "pairs":
        header = PAIR_COLUMNS
        rows = ([pair.get(c) for c in PAIR_COLUMNS] for pair in payload["pairs"])
    else:
        psat = payload.get("psat")
        header = SCORE_COLUMNS
        rows = (
            [system, query, payload["scores"][i][j], psat[i][j] if psat else ""]
            for i, system in enumerate(payload["systems"])
            for j, query in enumerate(payload["queries"])
        )
    sources, warnings = judgment_sources_text(payload), warnings_text(payload)
    return _csv(
        [*header, "judgment_sources", "warnings"],
        ([*row, sources, warnings] for row in rows),
        f"{name}-{table}.csv",
    )


def _mapping_name(row: SatisfactionMapping) -> str:
    return f"{slug(row.campaign.name)}-{slug(row.measure)}-mapping"


def mapping_json(*, collection: Collection, row: SatisfactionMapping) -> HttpResponse:
    data = {"collection": collection.name, "computed_at": row.computed_at.isoformat()}
    data.update(row.payload)
    return _json(data, f"{_mapping_name(row)}.json")


def mapping_csv(*, row: SatisfactionMapping) -> HttpResponse:
    """One row per bin of λ (P(Sat)) and of |Δλ| (P(Agr = ±1)), with Wilson intervals."""
    sat, agr = row.payload["satisfaction"], row.payload["agreement"]
    pos, neg = agr["positive"], agr["negative"]
    rows = (
        ["" if v is None else v for v in (
            sat["edges"][b], sat["edges"][b + 1], sat["counts"][b], sat["successes"][b],
            sat["proportion"][b], sat["ci_low"][b], sat["ci_high"][b], agr["counts"][b],
            pos["successes"][b], pos["proportion"][b], pos["ci_low"][b], pos["ci_high"][b],
            neg["successes"][b], neg["proportion"][b], neg["ci_low"][b], neg["ci_high"][b],
        )]
        for b in range(len(sat["counts"]))
    )  # fmt: skip
    return _csv(MAPPING_COLUMNS, rows, f"{_mapping_name(row)}.csv")


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, float | np.floating):
        return repr(float(value))
    return value


def plot_csv(plot: Plot, *, filename: str) -> HttpResponse:
    """The data a plot draws: exactly its ``rows`` of ``columns``."""
    return _csv(plot.columns, ([_cell(v) for v in row] for row in plot.rows), filename)
