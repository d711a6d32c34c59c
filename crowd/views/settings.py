"""Organiser pages that change a preference campaign after it started: settings and
open/closed. Each checks the organiser's ``write`` access to the campaign's collection
(:func:`crowd.selectors.campaign_for_organiser`); the rules are the services'
(:mod:`crowd.services.settings`), whose messages come back on the form."""

from __future__ import annotations

from django.views.decorators.http import require_http_methods, require_POST

from common.campaign_settings import open_set_page, settings_page
from common.roles import organiser_required
from crowd import selectors
from crowd.forms.settings import PreferenceSettingsForm
from crowd.services.settings import preference_campaign_open_set, preference_campaign_update


def _preference(request, pk: int):
    return selectors.campaign_for_organiser(user=request.user, campaign_id=pk)


@require_http_methods(["GET", "POST"])
@organiser_required
def preference_campaign_settings(request, pk: int):
    return settings_page(
        request, campaign=_preference(request, pk), form_class=PreferenceSettingsForm,
        update=preference_campaign_update, template="crowd/preference_campaign_settings.html",
    )  # fmt: skip


@require_POST
@organiser_required
def preference_campaign_open(request, pk: int):
    return open_set_page(
        request, _preference(request, pk), open_set=preference_campaign_open_set,
        settings_page="crowd:preference_campaign_settings",
    )  # fmt: skip
