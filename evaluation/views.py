"""Organiser pages of results: overview with progress, leaderboard, system, reliability, exports.

Thin: look up the organiser's collection, read what the last recompute stored, render.
"""

from __future__ import annotations

import csv
import io
import json

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from evaluation import figures, selectors
from evaluation.models import SatisfactionMapping
from evaluation.services import campaign_mapping_request, collection_results_request
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
    campaigns = collection.preference_campaigns.order_by("name").prefetch_related(
        "satisfaction_mappings"
    )
    context = {
        "collection": collection,
        "leaderboards": collection.leaderboards.order_by("measure"),
        "studies": collection.reliability_studies.order_by("measure"),
        "campaigns": campaigns,
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/results.html", context)


@organiser_required
@require_GET
def results_status(request, pk: int):
    """The small JSON document the results pages poll while a recompute runs.

    With ``?campaign=<id>`` the recompute is that campaign's mapping recompute.
    """
    collection = _collection(request, pk)
    status = selectors.collection_results_status(collection=collection)
    if request.GET.get("campaign"):
        campaign = _campaign(request, collection)
        status["recompute"] = selectors.campaign_recompute(campaign=campaign)
        status["mappings"] = [
            {"measure": m, "computed_at": t.isoformat()}
            for m, t in campaign.satisfaction_mappings.values_list("measure", "computed_at")
        ]
    return JsonResponse(status)


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


def _campaign(request, collection: Collection):
    raw = request.GET.get("campaign", "")
    if not raw.isdigit():
        raise Http404("Name a preference campaign: ?campaign=<id>")
    return get_object_or_404(collection.preference_campaigns, pk=int(raw))


def _mapping(request, collection: Collection) -> SatisfactionMapping:
    campaign = _campaign(request, collection)
    mappings = campaign.satisfaction_mappings.select_related("campaign")
    measure = request.GET.get("measure", "")
    if not measure:
        first = mappings.order_by("measure").first()
        if first is None:
            raise Http404("This campaign has no mapping yet.")
        return first
    return get_object_or_404(mappings, measure=measure)


def _with_interval(p, low, high) -> str:
    return "–" if p is None else f"{p:.3f} [{low:.3f}, {high:.3f}]"


def _mapping_bins(payload: dict) -> list[dict]:
    """The table under the plots: counts and proportions with intervals per bin."""
    sat, agr = payload["satisfaction"], payload["agreement"]
    pos, neg = agr["positive"], agr["negative"]
    edges = sat["edges"]
    rows = []
    for b in range(len(sat["counts"])):
        close = "]" if b == len(sat["counts"]) - 1 else ")"
        rows.append(
            {
                "label": f"[{edges[b]:.1f}, {edges[b + 1]:.1f}{close}",
                "lists": sat["counts"][b],
                "satisfied": sat["successes"][b],
                "p_sat": _with_interval(sat["proportion"][b], sat["ci_low"][b], sat["ci_high"][b]),
                "examples": agr["counts"][b],
                "pos": pos["successes"][b],
                "p_pos": _with_interval(pos["proportion"][b], pos["ci_low"][b], pos["ci_high"][b]),
                "neg": neg["successes"][b],
                "p_neg": _with_interval(neg["proportion"][b], neg["ci_low"][b], neg["ci_high"][b]),
            }
        )
    return rows


@organiser_required
@require_GET
def mapping(request, pk: int):
    """A campaign's P(Sat | λ) and P(Agr | Δλ) for one measure (thesis §3.3, §4.1.2)."""
    collection = _collection(request, pk)
    campaign = _campaign(request, collection)
    mappings = campaign.satisfaction_mappings.order_by("measure")
    measure = request.GET.get("measure", "")
    chosen = mappings.filter(measure=measure).first() if measure else mappings.first()
    if measure and chosen is None:
        raise Http404("No mapping of this measure for this campaign.")
    context = {
        "collection": collection,
        "campaign": campaign,
        "mapping": chosen,
        "payload": chosen.payload if chosen else None,
        "measures": list(mappings.values_list("measure", flat=True)),
        "plots": figures.mapping_plots(chosen.payload) if chosen else {},
        "bins": _mapping_bins(chosen.payload) if chosen else [],
        "recompute": selectors.campaign_recompute(campaign=campaign),
    }
    return render(request, "evaluation/mapping.html", context)


@organiser_required
@require_POST
def mapping_recompute(request, pk: int):
    collection = _collection(request, pk)
    campaign = _campaign(request, collection)
    campaign_mapping_request(campaign=campaign)
    return redirect(f"{reverse('evaluation:mapping', args=[collection.pk])}?campaign={campaign.pk}")


MAPPING_COLUMNS = ["bin_low", "bin_high", "lists", "satisfied", "p_sat", "p_sat_low",
                   "p_sat_high", "examples", "agr_pos", "p_agr_pos", "p_agr_pos_low",
                   "p_agr_pos_high", "agr_neg", "p_agr_neg", "p_agr_neg_low", "p_agr_neg_high"]  # fmt: skip


@organiser_required
@require_GET
def mapping_export(request, pk: int, fmt: str):
    """The mapping as JSON (everything) or CSV (one row per bin of λ and of |Δλ|)."""
    collection = _collection(request, pk)
    row = _mapping(request, collection)
    if fmt not in ("csv", "json"):
        raise Http404("Exports are .csv or .json.")
    name = f"{_slug(row.campaign.name)}-{_slug(row.measure)}-mapping"
    if fmt == "json":
        data = {"collection": collection.name, "computed_at": row.computed_at.isoformat()}
        data.update(row.payload)
        return _download(json.dumps(data, indent=1), f"{name}.json", "application/json")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MAPPING_COLUMNS)
    sat, agr = row.payload["satisfaction"], row.payload["agreement"]
    pos, neg = agr["positive"], agr["negative"]
    for b in range(len(sat["counts"])):
        writer.writerow(
            ["" if v is None else v for v in (
                sat["edges"][b], sat["edges"][b + 1], sat["counts"][b], sat["successes"][b],
                sat["proportion"][b], sat["ci_low"][b], sat["ci_high"][b], agr["counts"][b],
                pos["successes"][b], pos["proportion"][b], pos["ci_low"][b], pos["ci_high"][b],
                neg["successes"][b], neg["proportion"][b], neg["ci_low"][b], neg["ci_high"][b],
            )]
        )  # fmt: skip
    return _download(out.getvalue(), f"{name}.csv", "text/csv")


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
    if page == "mapping":
        row = _mapping(request, collection)
        plots = figures.mapping_plots(row.payload)
        if plot not in plots:
            raise Http404("No such plot.")
        filename = f"{_slug(row.campaign.name)}-{_slug(row.measure)}-{plot}.csv"
        return _download(plots[plot].csv(), filename, "text/csv")
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
