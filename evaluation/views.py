"""Organiser pages of results: overview with progress, leaderboard, system, reliability, exports.

Thin: look up the organiser's collection, read what the last recompute stored, render.
"""

from __future__ import annotations

import csv
import io
import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from evaluation import figures, selectors
from evaluation.services import collection_results_request
from judging import selectors as judging_selectors
from judging.models import Collection
from judging.roles import organiser_required


def _collection(request, pk: int) -> Collection:
    return get_object_or_404(judging_selectors.collections_for_organiser(user=request.user), pk=pk)


def _measure(request) -> str:
    measure = request.GET.get("measure", "")
    if not measure:
        raise Http404("Name a measure: ?measure=…")
    return measure


def _leaderboard(collection: Collection, measure: str):
    return get_object_or_404(collection.leaderboards, measure=measure)


@organiser_required
@require_GET
def results_overview(request, pk: int):
    collection = _collection(request, pk)
    context = {
        "collection": collection,
        "leaderboards": collection.leaderboards.order_by("measure"),
        "studies": collection.reliability_studies.order_by("measure"),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/results.html", context)


@organiser_required
@require_GET
def results_status(request, pk: int):
    """The small JSON document the results pages poll while a recompute runs."""
    collection = _collection(request, pk)
    return JsonResponse(selectors.collection_results_status(collection=collection))


@organiser_required
@require_POST
def results_recompute(request, pk: int):
    collection = _collection(request, pk)
    collection_results_request(collection=collection)
    return redirect("evaluation:results", pk=collection.pk)


@organiser_required
@require_GET
def leaderboard(request, pk: int):
    collection = _collection(request, pk)
    board = _leaderboard(collection, _measure(request))
    payload = board.payload
    context = {
        "collection": collection,
        "board": board,
        "payload": payload,
        "plots": figures.leaderboard_plots(payload),
        "recompute": selectors.collection_recompute(collection=collection),
        "study": collection.reliability_studies.filter(measure=board.measure).first(),
    }
    return render(request, "evaluation/leaderboard.html", context)


@organiser_required
@require_GET
def system_detail(request, pk: int, system: str):
    collection = _collection(request, pk)
    board = _leaderboard(collection, _measure(request))
    payload = board.payload
    if system not in payload["systems"]:
        raise Http404("No such system in this leaderboard.")
    index = payload["systems"].index(system)
    psat = payload.get("psat")
    per_query = [
        {"query": q, "score": payload["scores"][index][j], "psat": psat[index][j] if psat else None}
        for j, q in enumerate(payload["queries"])
    ]
    context = {
        "collection": collection,
        "board": board,
        "payload": payload,
        "system": system,
        "row": next(r for r in payload["rows"] if r["system"] == system),
        "per_query": per_query,
        "plots": figures.system_plots(payload, system),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/system.html", context)


@organiser_required
@require_GET
def reliability(request, pk: int):
    collection = _collection(request, pk)
    study = get_object_or_404(collection.reliability_studies, measure=_measure(request))
    context = {
        "collection": collection,
        "study": study,
        "payload": study.payload,
        "plots": figures.reliability_plots(study.payload),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/reliability.html", context)


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


@organiser_required
@require_GET
def plot_csv(request, pk: int, page: str, plot: str):
    """The data of one plot of a page, as CSV."""
    collection = _collection(request, pk)
    measure = _measure(request)
    if page == "leaderboard":
        plots = figures.leaderboard_plots(_leaderboard(collection, measure).payload)
    elif page == "system":
        payload = _leaderboard(collection, measure).payload
        system = request.GET.get("system", "")
        if system not in payload["systems"]:
            raise Http404("No such system in this leaderboard.")
        plots = figures.system_plots(payload, system)
    elif page == "reliability":
        plots = figures.reliability_plots(
            get_object_or_404(collection.reliability_studies, measure=measure).payload
        )
    else:
        raise Http404("No such page.")
    if plot not in plots:
        raise Http404("No such plot.")
    return _download(plots[plot].csv(), f"{_slug(measure)}-{plot}.csv", "text/csv")


LEADERBOARD_COLUMNS = [
    "rank", "system", "mean", "ci_low", "ci_high", "psat_mean", "psat_low", "psat_high",
    "psucc", "pred_low", "pred_high", "group",
]  # fmt: skip
PAIR_COLUMNS = ["a", "b", "delta", "ci_low", "ci_high", "p", "p_adjusted", "delta_psat"]


@organiser_required
@require_GET
def leaderboard_export(request, pk: int, fmt: str):
    """The leaderboard as CSV (systems; ``?table=pairs`` for the pairs) or JSON (everything)."""
    collection = _collection(request, pk)
    board = _leaderboard(collection, _measure(request))
    if fmt not in ("csv", "json"):
        raise Http404("Exports are .csv or .json.")
    name = f"{_slug(collection.name)}-{_slug(board.measure)}"
    if fmt == "json":
        data = {"collection": collection.name, "computed_at": board.computed_at.isoformat()}
        data.update(board.payload)
        return _download(json.dumps(data, indent=1), f"{name}.json", "application/json")
    table = request.GET.get("table", "systems")
    if table not in ("systems", "pairs", "scores"):
        raise Http404("table is systems, pairs or scores")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    payload = board.payload
    if table == "systems":
        writer.writerow(LEADERBOARD_COLUMNS)
        for row in payload["rows"]:
            writer.writerow([row.get(c) for c in LEADERBOARD_COLUMNS])
    elif table == "pairs":
        writer.writerow(PAIR_COLUMNS)
        for pair in payload["pairs"]:
            writer.writerow([pair.get(c) for c in PAIR_COLUMNS])
    else:
        writer.writerow(["system", "query", "score", "psat"])
        psat = payload.get("psat")
        for i, system in enumerate(payload["systems"]):
            for j, query in enumerate(payload["queries"]):
                writer.writerow(
                    [system, query, payload["scores"][i][j], psat[i][j] if psat else ""]
                )
    return _download(out.getvalue(), f"{name}-{table}.csv", "text/csv")
