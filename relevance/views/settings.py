"""Organiser pages that change campaigns after they started: settings, open/closed, assessors.

Each page checks the organiser's ``write`` access to the campaign's collection
(:mod:`catalog.selectors.access`); the rules are the services'
(:mod:`relevance.services.settings`), whose messages come back on the form.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from common.roles import organiser_required
from crowd import selectors as crowd_selectors
from people.selectors import assessors_for_organiser
from relevance import selectors
from relevance.forms.settings import AssessorAddForm, PreferenceSettingsForm, RelevanceSettingsForm
from relevance.services.headphones import assessor_screen_reopen
from relevance.services.settings import (
    campaign_open_set,
    preference_campaign_update,
    relevance_campaign_assessor_add,
    relevance_campaign_assessor_remove,
    relevance_campaign_update,
)


def _relevance(request, pk: int):
    return selectors.relevance_campaign_for_organiser(user=request.user, campaign_id=pk)


def _preference(request, pk: int):
    return crowd_selectors.campaign_for_organiser(user=request.user, campaign_id=pk)


def _settings_page(request, *, campaign, form_class, update, template):
    form = form_class(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        changes = {field: form.cleaned_data[field] for field in form.changed_data}
        campaign.refresh_from_db()  # the form's validation wrote into the instance
        try:
            changed = update(campaign=campaign, changes=changes)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            saved = ", ".join(form.fields[f].label or f for f in changed) or "nothing changed"
            messages.success(request, f"Saved: {saved}.")
            return redirect(request.path)
    return render(request, template, {"campaign": campaign, "form": form})


@require_http_methods(["GET", "POST"])
@organiser_required
def relevance_campaign_settings(request, pk: int):
    return _settings_page(
        request, campaign=_relevance(request, pk), form_class=RelevanceSettingsForm,
        update=relevance_campaign_update, template="relevance/relevance_campaign_settings.html",
    )  # fmt: skip


@require_http_methods(["GET", "POST"])
@organiser_required
def preference_campaign_settings(request, pk: int):
    return _settings_page(
        request, campaign=_preference(request, pk), form_class=PreferenceSettingsForm,
        update=preference_campaign_update, template="crowd/preference_campaign_settings.html",
    )  # fmt: skip


def _open_set(request, campaign, settings_page: str):
    is_open = request.POST.get("is_open") == "1"
    try:
        changed = campaign_open_set(campaign=campaign, is_open=is_open)
    except ValidationError as refused:  # a preference campaign's trap pools are too small
        messages.error(request, " ".join(refused.messages))
        return redirect(settings_page, campaign.pk)
    if changed:
        messages.success(request, f"“{campaign}” is {'open' if is_open else 'closed'}.")
    return redirect(settings_page, campaign.pk)


@require_POST
@organiser_required
def relevance_campaign_open(request, pk: int):
    return _open_set(request, _relevance(request, pk), "relevance:relevance_campaign_settings")


@require_POST
@organiser_required
def preference_campaign_open(request, pk: int):
    return _open_set(request, _preference(request, pk), "crowd:preference_campaign_settings")


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
