"""The "Choosing a test" results page (thesis ch. 5): which significance test, measure and
scale to trust on this collection, from the split-half study its organiser asks for.

Thin: the access rule, the stored study (:func:`evaluation.selectors_studies.collection_optimality`),
its plots' data (:func:`evaluation.plots.optimality_plots`); the POST asks for a recompute
(:func:`evaluation.services.optimality.collection_optimality_request`).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from catalog.published import Collection
from common.roles import organiser_required
from evaluation import plots, selectors_studies
from evaluation.core.optimality_verdicts import TEST_NAMES, closest_alpha
from evaluation.forms import OptimalityForm
from evaluation.services.optimality import collection_optimality_request
from evaluation.views import _can_write, _collection, _figures

COLUMNS = (
    ("non_significance", "Not significant", "of all pairs"),
    ("success", "Confirmed", "of the significant pairs"),
    ("lack_of_power", "Not confirmed", "of the significant pairs"),
    ("minor_conflict", "Reversed", "of the significant pairs"),
    ("major_conflict", "Reversed and significant", "of the significant pairs"),
    ("global_conflict", "All reversals", "of the significant pairs"),
)
"""The table's columns: each rate of thesis §5.3 in plain words."""


def _table(groups: list[dict], key: str, i: int) -> list[dict]:
    rows = []
    for g in groups:
        cells = []
        for rate, _, _ in COLUMNS:
            value, se = g["rates"][rate][i], g["se"][rate][i]
            cells.append(
                "–"
                if value is None
                else f"{100 * value:.1f} %" + (f" ± {100 * se:.1f}" if se is not None else "")
            )
        name = TEST_NAMES.get(g[key], g[key]) if key == "test" else g[key]
        rows.append({"name": name, "cells": cells, "significant": g["significant"][i]})
    return rows


def _page(request, collection: Collection, study, form: OptimalityForm, *, status: int = 200):
    payload = study.payload if study and study.payload else None
    context = {
        "collection": collection,
        "can_write": _can_write(request, collection),
        "study": study,
        "payload": payload,
        "form": form,
        "columns": COLUMNS,
        "recompute": selectors_studies.optimality_recompute(collection=collection),
        "figures": [],
    }
    if payload:
        i = closest_alpha(payload["alphas"], payload["verdict"]["alpha"])
        context.update(
            alpha=payload["alphas"][i],
            tests=_table(payload["by_test"], "test", i),
            measures=_table(payload["by_measure"], "measure", i),
            figures=_figures(collection, "optimality", plots.optimality_plots(payload)),
        )
    return render(request, "evaluation/optimality.html", context, status=status)


@organiser_required
@require_GET
def optimality(request, pk: int):
    collection = _collection(request, pk)
    study = selectors_studies.collection_optimality(collection=collection)
    initial = {"trials": study.trials, "resamples": study.resamples} if study else None
    return _page(request, collection, study, OptimalityForm(initial=initial))


@organiser_required
@require_POST
def optimality_compute(request, pk: int):
    collection = _collection(request, pk)
    form = OptimalityForm(request.POST)
    if not form.is_valid():
        study = selectors_studies.collection_optimality(collection=collection)
        return _page(request, collection, study, form, status=400)
    collection_optimality_request(collection=collection, **form.cleaned_data)
    messages.success(
        request,
        "Computing which test to trust now; this page shows the progress and the results as "
        "soon as they are ready.",
    )
    return redirect("evaluation:optimality", pk=collection.pk)
