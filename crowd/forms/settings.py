"""The settings page of a preference campaign that has started: the fields it edits are
:data:`~crowd.services.settings.PREFERENCE_SETTINGS` (a new setting is one line there);
checks that involve several fields are the service's, shown beside their fields
(:class:`common.campaign_settings.SettingsForm`)."""

from __future__ import annotations

from django import forms

from common.campaign_settings import SettingsForm
from crowd.forms.labels import PREFERENCE_HELP, PREFERENCE_LABELS
from crowd.models import PreferenceCampaign
from crowd.services.settings import PREFERENCE_SETTINGS, preference_settings_errors


class PreferenceSettingsForm(SettingsForm):
    KEPT_WHEN_EMPTY = ("no_consent_code", "practice_length")

    def settings_errors(self, values):
        return preference_settings_errors({**values, "list_length": self.instance.list_length})

    class Meta:
        model = PreferenceCampaign
        fields = list(PREFERENCE_SETTINGS)
        labels = PREFERENCE_LABELS
        help_texts = PREFERENCE_HELP
        widgets = {
            "instructions": forms.Textarea(attrs={"rows": 4}),
            "consent_text": forms.Textarea(attrs={"rows": 4}),
            "trap_rate": forms.NumberInput(attrs={"step": "0.01", "min": "0", "max": "1"}),
            "trust_threshold": forms.NumberInput(attrs={"step": "0.01", "min": "0", "max": "1"}),
        }
