"""The §3.2.1 example generator's page: choose, see the coverage, run it in the background."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from catalog.selectors import collection_judged_scales
from common.roles import organiser_required
from crowd import selectors
from crowd.forms.generator import GeneratorForm
from crowd.selectors.generator import generator_coverage
from crowd.services.generator import KIND, generator_start
from evaluation.core.example_generator import N_BINS, bin_label
from work.models import Job


@require_http_methods(["GET", "POST"])
@organiser_required
def generator(request, pk: int):
    """POST with ``action=preview`` shows the coverage of the choice; ``action=run`` asks
    first (how many examples it adds at most), and with ``confirm=yes`` starts the generator
    and shows its job."""
    campaign = selectors.campaign_for_organiser(user=request.user, campaign_id=pk)
    k = campaign.list_length
    form = GeneratorForm(request.POST or None, k=k)
    measures, bins, per_bin = [f"CG(scale=fine)@{k}"], list(range(N_BINS)), 20
    confirm = None  # "Run" asks first: how many examples at most it adds, and how to undo
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        measures, bins, per_bin = data["measures"], data["bins"], data["per_bin"]
        if request.POST.get("action") == "run" and request.POST.get("confirm") != "yes":
            at_most = len(measures) * len(bins) * per_bin
            confirm = {
                "at_most": min(at_most, data["max_examples"] or at_most),
                "fields": [(k, v) for k, values in request.POST.lists() for v in values
                           if k not in ("csrfmiddlewaretoken", "action")],
            }  # fmt: skip
        elif request.POST.get("action") == "run":
            try:
                job = generator_start(
                    campaign=campaign, owner=request.user, measures=measures, bins=bins,
                    per_bin=per_bin, seed=data["seed"], max_examples=data["max_examples"],
                )  # fmt: skip
            except ValidationError as error:
                form.add_error(None, error)
            else:
                return redirect(job)
    context = {
        "campaign": campaign,
        "form": form,
        "confirm": confirm,
        "coverage": generator_coverage(
            campaign=campaign, measures=measures, bins=bins, per_bin=per_bin
        )
        if not form.errors
        else None,
        "per_bin": per_bin,
        "bin_labels": [bin_label(b) for b in range(N_BINS)],
        "jobs": Job.objects.filter(kind=KIND, key=f"campaign:{campaign.pk}")[:5],
        # It builds lists from Fine judgments: a collection of TREC qrels has none (issue 31).
        "no_fine": "fine" not in collection_judged_scales(collection=campaign.collection),
    }
    return render(request, "crowd/preference_generator.html", context)
