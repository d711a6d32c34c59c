"""The results settings page: leaderboards' measures, test, adjustment, resamples, α,
reliability target (``ResultsConfig``) and each campaign's mapping measures (``MappingConfig``).

Saving asks for one coalesced recompute (:mod:`evaluation.services.settings`); the page
shows its progress without reloading, so nothing typed meanwhile is lost.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from catalog import published as catalog
from common.roles import organiser_required
from common.validation import parse_id
from crowd.published import PreferenceCampaign
from evaluation import selectors
from evaluation.forms import MappingSettingsForm, ResultsSettingsForm
from evaluation.models import MappingConfig, ResultsConfig
from evaluation.services.settings import (
    RESULTS_SETTINGS,
    mapping_config_update,
    results_config_update,
    results_settings_notes,
)


@require_http_methods(["GET", "POST"])
@organiser_required
def results_settings(request, pk: int):
    collection = catalog.collection_for_organiser(user=request.user, collection_id=pk)
    config = ResultsConfig.for_collection(collection)
    initial = {field: getattr(config, field) for field in RESULTS_SETTINGS}
    posted = request.POST.get("form")
    results_form = ResultsSettingsForm(
        request.POST if posted == "results" else None, initial=initial
    )
    campaigns = list(  # a pairs campaign has no mapping (campaign_mapping_request)
        collection.preference_campaigns.filter(kind=PreferenceCampaign.LISTS).order_by("name")
    )
    mapping_forms = []
    for campaign in campaigns:
        mine = posted == "mapping" and request.POST.get("campaign") == str(campaign.pk)
        stored = MappingConfig.for_campaign(campaign)
        initial = {"measures": stored.measures, "full_listening_only": stored.full_listening_only}
        form = MappingSettingsForm(
            request.POST if mine else None, initial=initial, prefix=f"c{campaign.pk}"
        )
        mapping_forms.append((campaign, form))

    if posted == "results" and results_form.is_valid():
        try:
            changed = results_config_update(
                collection=collection, changes=results_form.cleaned_data
            )
        except ValidationError as error:
            results_form.add_error(None, error)
        else:
            _saved(request, changed, "results")
            return redirect(request.path)
    elif posted == "mapping":
        campaign_id = parse_id(request.POST.get("campaign"))
        campaign, form = next(
            ((c, f) for c, f in mapping_forms if c.pk == campaign_id), (None, None)
        )
        if campaign is None:
            raise Http404("No such campaign in this collection.")
        if form.is_valid():
            try:
                changed = mapping_config_update(campaign=campaign, **form.cleaned_data)
            except ValidationError as error:
                form.add_error("measures", error)
            else:
                _saved(request, ["mapping"] if changed else [], f"the mapping of “{campaign}”")
                return redirect(request.path)

    context = {
        "collection": collection,
        "config": config,
        "results_form": results_form,
        "mapping_forms": mapping_forms,
        "notes": results_settings_notes(config=config, n_systems=collection.systems.count()),
        "recompute": selectors.collection_recompute(collection=collection),
        "leaderboards": list(collection.leaderboards.values_list("measure", flat=True)),
    }
    return render(request, "evaluation/results_settings.html", context)


def _saved(request, changed: list[str], what: str) -> None:
    if changed:
        messages.success(request, f"Saved {what}; the results are being recomputed.")
    else:
        messages.info(request, f"Nothing changed in {what}.")
