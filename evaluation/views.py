"""Organiser pages of results: overview with progress, leaderboard, significance, system,
reliability, mapping, exports.

Thin: look up the organiser's collection (:mod:`catalog.selectors.access`), read what
the last recompute stored (:mod:`evaluation.selectors`: only what the page shows, never
a whole payload), render; plots are data the browser draws (:mod:`evaluation.plots`);
files are built by :mod:`evaluation.exports`. Long lists (pairs of systems, per-query
scores) come a page at a time (``?page=N``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from catalog import published as catalog
from catalog.published import Collection
from common.needs import need_for_method
from common.roles import organiser_required
from common.validation import parse_id
from evaluation import exports, plots, selectors, selectors_studies
from evaluation.core.goodness_of_fit import FAMILIES, FAMILY_NAMES
from evaluation.core.names import parse_measure
from evaluation.glossary import entries as glossary_entries
from evaluation.leaderboard_table import leaderboard_table
from evaluation.results_missing import results_missing
from evaluation.services import campaign_mapping_request, collection_results_request
from evaluation.services.results import MIN_JUDGED_QUERIES


def _collection(request, pk: int) -> Collection:
    # Every view here is GET-only (shows) or POST-only (asks for a recompute).
    need = need_for_method(request.method)
    return catalog.collection_for_organiser(user=request.user, collection_id=pk, need=need)


def _can_write(request, collection: Collection) -> bool:
    """Whether a page shows its write controls (recompute, settings): the one access rule,
    asked once per page."""
    return catalog.organises(user=request.user, collection=collection, need="write")


def _measure(request) -> str:
    measure = request.GET.get("measure", "")
    if not measure:
        raise Http404("Name a measure: ?measure=…")
    return measure


PAIRS_PER_PAGE = 50
QUERIES_PER_PAGE = 100


def page_of(request, items, per_page: int):
    """One page of ``items`` (``?page=N``; past the end, the last page)."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def _figures(collection: Collection, page: str, page_plots: dict, **query) -> list[dict]:
    """Each plot with the link to its CSV (same numbers) for ``evaluation/_plot.html``."""
    return [
        {
            "plot": plot,
            "csv_url": reverse("evaluation:plot_csv", args=[collection.pk, page, name])
            + f"?{urlencode(query)}",
        }
        for name, plot in page_plots.items()
    ]


def _format(fmt: str) -> str:
    if fmt not in exports.EXPORT_FORMATS:
        raise Http404("Exports are .csv or .json.")
    return fmt


@organiser_required
@require_GET
def results_overview(request, pk: int):
    collection = _collection(request, pk)
    context = {
        "collection": collection,
        "can_write": _can_write(request, collection),
        **selectors.collection_results_overview(collection=collection),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    if not context["leaderboards"]:  # say exactly what is missing (read only then)
        context["missing"] = results_missing(
            collection=collection, min_judged_queries=MIN_JUDGED_QUERIES
        )
    return render(request, "evaluation/results.html", context)


@organiser_required
@require_GET
def results_status(request, pk: int):
    """The small JSON document the results pages poll while a recompute runs.

    With ``?campaign=<id>`` the recompute is that campaign's mapping recompute; with
    ``?part=optimality`` the collection's "Choosing a test" study's.
    """
    collection = _collection(request, pk)
    status = selectors.collection_results_status(collection=collection)
    if request.GET.get("part") == "optimality":
        status["recompute"] = selectors_studies.optimality_recompute(collection=collection)
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
    missing = results_missing(collection=collection, min_judged_queries=MIN_JUDGED_QUERIES)
    collection_results_request(collection=collection, resend=True)
    if missing:
        messages.warning(request, f"Nothing to compute yet: {'; '.join(missing)}.")
    else:
        messages.success(
            request,
            "Recomputing every leaderboard and reliability study now; this page shows the "
            "progress and the results as soon as they are ready.",
        )
    return redirect("evaluation:results", pk=collection.pk)


@organiser_required
@require_GET
def leaderboard(request, pk: int):
    collection = _collection(request, pk)
    board = selectors.leaderboard_summary_for(
        collection=collection, measure=_measure(request), table=True
    )
    context = {
        "collection": collection,
        "board": board,
        "summary": board.summary,
        "table_body": leaderboard_table(collection, board),
        "figures": _figures(
            collection, "leaderboard", plots.leaderboard_plots(board.summary), measure=board.measure
        ),
        "recompute": selectors.collection_recompute(collection=collection),
        "has_study": collection.reliability_studies.filter(measure=board.measure).exists(),
        "fits": _fit_rows(board.summary.get("score_distributions")),
    }
    return render(request, "evaluation/leaderboard.html", context)


FAMILY_HEADINGS = {f: FAMILY_NAMES[f] for f in FAMILIES}


def _fit_rows(fits: dict | None) -> dict | None:
    """The "Score distributions" panel: per sample size, each family's average ω̂ (eq. 4.7)
    in the order of :data:`FAMILY_HEADINGS`, the best marked."""
    if not fits:
        return None
    rows = [
        {
            "fitted": row["fitted"],
            "held_out": row["held_out"],
            "cells": [(row["omega"][f], f == row["best"]) for f in FAMILIES],
        }
        for row in fits["sizes"]
    ]
    return {**fits, "rows": rows, "headings": list(FAMILY_HEADINGS.values()),
            "recommended_name": FAMILY_NAMES.get(fits["recommended"], fits["recommended"])}  # fmt: skip


@organiser_required
@require_GET
def significance(request, pk: int):
    """Every pair of systems of a leaderboard: the heat map and a page of the table
    (thesis §5.6.2: Δ with its interval, p-value, adjusted p-value)."""
    collection = _collection(request, pk)
    board = selectors.leaderboard_summary_for(
        collection=collection, measure=_measure(request), significance=True
    )
    page_plots = plots.significance_plots(board.summary, board.significance)
    context = {
        "collection": collection,
        "board": board,
        "summary": board.summary,
        "pairs": page_of(request, selectors.leaderboard_pairs(leaderboard=board), PAIRS_PER_PAGE),
        "page_query": urlencode({"measure": board.measure}) + "&",
        "figures": _figures(collection, "significance", page_plots, measure=board.measure),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/significance.html", context)


@organiser_required
@require_GET
def system_detail(request, pk: int, system_id: int):
    collection = _collection(request, pk)
    system = catalog.collection_system(collection=collection, system_id=system_id)
    entry = selectors.leaderboard_system_for(
        collection=collection, measure=_measure(request), system=system.name
    )
    board = entry.leaderboard
    page_plots = plots.system_plots(board.measure, entry.distributions)
    context = {
        "collection": collection,
        "board": board,
        "system": entry.system,
        "row": entry.row,
        "per_query": page_of(request, entry.per_query, QUERIES_PER_PAGE),
        "page_query": urlencode({"measure": board.measure}) + "&",
        "figures": _figures(
            collection, "system", page_plots, measure=board.measure, system=entry.system
        ),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/system.html", context)


@organiser_required
@require_GET
def reliability(request, pk: int):
    collection = _collection(request, pk)
    study = selectors.reliability_study_for(collection=collection, measure=_measure(request))
    page_plots = plots.reliability_plots(study.payload)
    context = {
        "collection": collection,
        "study": study,
        "payload": study.payload,
        "figures": _figures(collection, "reliability", page_plots, measure=study.measure),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/reliability.html", context)


def _campaign(request, collection: Collection):
    campaign_id = parse_id(request.GET.get("campaign", ""))
    if campaign_id is None:
        raise Http404("Name a preference campaign: ?campaign=<id>")
    return selectors.campaign_of_collection(collection=collection, campaign_id=campaign_id)


def _mapping(request, collection: Collection):
    campaign = _campaign(request, collection)
    return selectors.campaign_mapping(campaign=campaign, measure=request.GET.get("measure") or None)


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
    figures = []
    if chosen:
        figures = _figures(
            collection, "mapping", plots.mapping_plots(chosen.payload),
            campaign=campaign.pk, measure=chosen.measure,
        )  # fmt: skip
    context = {
        "collection": collection,
        "campaign": campaign,
        "can_write": _can_write(request, collection),
        "mapping": chosen,
        "payload": chosen.payload if chosen else None,
        "measures": list(mappings.values_list("measure", flat=True)),
        "figures": figures,
        "bins": _mapping_bins(chosen.payload) if chosen else [],
        "unjudged_scale": _unjudged_scale(chosen) if chosen else None,
        "recompute": selectors.campaign_recompute(campaign=campaign),
    }
    return render(request, "evaluation/mapping.html", context)


def _unjudged_scale(mapping) -> str | None:
    """The scale ``mapping``'s measure names when the collection has no judgment on it (a
    Fine measure of TREC qrels): every list then scores 0 and the mapping says nothing."""
    scales = mapping.payload.get("chosen", {}).get("scales")
    scale = parse_measure(mapping.measure).option("scale")
    if scales is None or scale not in ("fine", "broad") or scale in scales:
        return None
    return scale


@organiser_required
@require_POST
def mapping_recompute(request, pk: int):
    collection = _collection(request, pk)
    campaign = _campaign(request, collection)
    campaign_mapping_request(campaign=campaign, resend=True)
    return redirect(f"{reverse('evaluation:mapping', args=[collection.pk])}?campaign={campaign.pk}")


@organiser_required
@require_GET
def mapping_export(request, pk: int, fmt: str):
    """The mapping as JSON (everything) or CSV (one row per bin of λ and of |Δλ|)."""
    collection = _collection(request, pk)
    row = _mapping(request, collection)
    if _format(fmt) == "json":
        return exports.mapping_json(collection=collection, row=row)
    return exports.mapping_csv(row=row)


@organiser_required
@require_GET
def plot_csv(request, pk: int, page: str, plot: str):
    """The data of one plot of a page, as CSV."""
    collection = _collection(request, pk)
    if page == "mapping":
        row = _mapping(request, collection)
        page_plots = plots.mapping_plots(row.payload)
        if plot not in page_plots:
            raise Http404("No such plot.")
        filename = f"{exports.slug(row.campaign.name)}-{exports.slug(row.measure)}-{plot}.csv"
        return exports.plot_csv(page_plots[plot], filename=filename)
    if page == "optimality":
        return _optimality_plot_csv(collection, plot)
    measure = _measure(request)
    if page == "leaderboard":
        board = selectors.leaderboard_summary_for(collection=collection, measure=measure)
        page_plots = plots.leaderboard_plots(board.summary)
    elif page == "significance":
        board = selectors.leaderboard_summary_for(
            collection=collection, measure=measure, significance=True
        )
        page_plots = plots.significance_plots(board.summary, board.significance)
    elif page == "system":
        entry = selectors.leaderboard_system_for(
            collection=collection, measure=measure, system=request.GET.get("system", "")
        )
        page_plots = plots.system_plots(measure, entry.distributions)
    elif page == "reliability":
        study = selectors.reliability_study_for(collection=collection, measure=measure)
        page_plots = plots.reliability_plots(study.payload)
    else:
        raise Http404("No such page.")
    if plot not in page_plots:
        raise Http404("No such plot.")
    filename = f"{exports.slug(measure)}-{plot}.csv"
    return exports.plot_csv(page_plots[plot], filename=filename)


def _optimality_plot_csv(collection: Collection, plot: str):
    study = selectors_studies.collection_optimality(collection=collection)
    page_plots = plots.optimality_plots(study.payload) if study and study.payload else {}
    if plot not in page_plots:
        raise Http404("No such plot.")
    return exports.plot_csv(page_plots[plot], filename=f"choosing-a-test-{plot}.csv")


@organiser_required
@require_GET
def leaderboard_export(request, pk: int, fmt: str):
    """The leaderboard as CSV (systems; ``?table=pairs`` for the pairs) or JSON (everything)."""
    collection = _collection(request, pk)
    board = selectors.leaderboard_for(collection=collection, measure=_measure(request))
    if _format(fmt) == "json":
        return exports.leaderboard_json(collection=collection, board=board)
    table = request.GET.get("table", "systems")
    if table not in exports.LEADERBOARD_TABLES:
        raise Http404("table is systems, pairs or scores")
    return exports.leaderboard_csv(collection=collection, board=board, table=table)


@organiser_required
@require_GET
def glossary(request):
    """Every word of the results pages in plain sentences (:mod:`evaluation.glossary`)."""
    return render(request, "evaluation/glossary.html", {"terms": glossary_entries()})
