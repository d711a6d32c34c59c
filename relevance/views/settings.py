"""Organiser pages that change a relevance campaign after it started: settings,
open/closed, assessors.

Each page checks the organiser's ``write`` access to the campaign's collection
(:func:`relevance.selectors.relevance_campaign_for_organiser`); the rules are the
services' (:mod:`relevance.services.settings`), whose messages come back on the form.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from common.campaign_settings import open_set_page, settings_page
from common.roles import organiser_required
from people.selectors import assessors_for_organiser
from relevance import selectors
from relevance.forms.settings import AssessorAddForm, RelevanceSettingsForm
from relevance.services.headphones import assessor_screen_reopen
from relevance.services.settings import (
    relevance_campaign_assessor_add,
    relevance_campaign_assessor_remove,
    relevance_campaign_open_set,
    relevance_campaign_update,
)


def _relevance(request, pk: int):
    return selectors.relevance_campaign_for_organiser(user=request.user, campaign_id=pk)


@require_http_methods(["GET", "POST"])
@organiser_required
def relevance_campaign_settings(request, pk: int):
    return settings_page(
        request, campaign=_relevance(request, pk), form_class=RelevanceSettingsForm,
        update=relevance_campaign_update, template="relevance/relevance_campaign_settings.html",
    )  # fmt: skip


@require_POST
@organiser_required
def relevance_campaign_open(request, pk: int):
    return open_set_page(
        request, _relevance(request, pk), open_set=relevance_campaign_open_set,
        settings_page="relevance:relevance_campaign_settings",
    )  # fmt: skip


@require_http_methods(["GET", "POST"])
@organiser_required
def relevance_campaign_assessors(request, pk: int):
    """Who judges in the campaign, how far each got; add and remove assessors."""
    campaign = _relevance(request, pk)
    candidates = assessors_for_organiser(user=request.user).exclude(
        pk__in=campaign.assessors.values("pk")
    )
    form = AssessorAddForm(request.POST or None, candidates=candidates)
    if request.method == "POST" and form.is_valid():
        assessor = form.cleaned_data["assessor"]
        try:
            relevance_campaign_assessor_add(campaign=campaign, assessor=assessor)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{assessor.username} can now judge in “{campaign}”.")
            return redirect(request.path)
    context = {
        "campaign": campaign,
        "form": form,
        "by_assessor": selectors.campaign_progress_by_assessor(campaign=campaign),
    }
    return render(request, "relevance/relevance_campaign_assessors.html", context)


@require_POST
@organiser_required
def relevance_campaign_assessor_remove_view(request, pk: int, user_pk: int):
    campaign = _relevance(request, pk)
    assessor = get_object_or_404(get_user_model(), pk=user_pk, relevance_campaigns=campaign)
    outcome = relevance_campaign_assessor_remove(campaign=campaign, assessor=assessor)
    messages.success(
        request,
        f"{assessor.username} no longer judges in “{campaign}”; what they judged stays. "
        f"{outcome['freed']} untouched quer{'y' if outcome['freed'] == 1 else 'ies'} freed, "
        f"{outcome['reopened']} started one{'' if outcome['reopened'] == 1 else 's'} "
        "opened to another assessor.",
    )
    return redirect("relevance:relevance_campaign_assessors", campaign.pk)


@require_POST
@organiser_required
def relevance_campaign_headphones_again(request, pk: int, user_pk: int):
    """Let an assessor who failed the headphone check every time allowed try once more."""
    campaign = _relevance(request, pk)
    assessor = get_object_or_404(get_user_model(), pk=user_pk, relevance_campaigns=campaign)
    if assessor_screen_reopen(campaign=campaign, assessor=assessor):
        messages.success(
            request, f"{assessor.username} can take the headphone check in “{campaign}” again."
        )
    else:
        messages.info(request, f"{assessor.username} is not waiting to try the check again.")
    return redirect(campaign)
