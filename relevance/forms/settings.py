"""Settings of campaigns that have started: the fields each settings page edits.

The fields are the services' lists (:data:`~relevance.services.settings.PREFERENCE_SETTINGS`,
:data:`~relevance.services.settings.RELEVANCE_SETTINGS`): a new setting is one line
there. Checks that involve several fields are the services' and come back as errors on
the form (``form.add_error(None, error)``).
"""

from __future__ import annotations

from django import forms

from common.campaign_labels import (
    PREFERENCE_HELP,
    PREFERENCE_LABELS,
    RELEVANCE_HELP,
    RELEVANCE_LABELS,
)
from common.form_fields import IdChoiceField
from crowd.models import PreferenceCampaign
from relevance.models import RelevanceCampaign
from relevance.services.lowcost import LOWCOST_SETTINGS
from relevance.services.settings import (
    PREFERENCE_SETTINGS,
    RELEVANCE_SETTINGS,
    preference_settings_errors,
    relevance_settings_errors,
)


class _SettingsForm(forms.ModelForm):
    """Adds the service's checks as errors beside their fields, before the model's
    constraints would say the same in the database's words."""

    KEPT_WHEN_EMPTY: tuple[str, ...] = ()
    """Left empty (a form from before the field, an API client), these keep their value."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.KEPT_WHEN_EMPTY:
            self.fields[name].required = False

    def settings_errors(self, values: dict) -> dict[str, str]:
        raise NotImplementedError

    def clean(self):
        for name in self.KEPT_WHEN_EMPTY:
            if self.cleaned_data.get(name) in (None, ""):
                self.cleaned_data[name] = getattr(self.instance, name)
        data = super().clean()
        if all(f in data for f in self.fields):  # each field shown is valid on its own
            values = {f: getattr(self.instance, f) for f in self._meta.fields} | data
            for field, message in self.settings_errors(values).items():
                self.add_error(field, message)
        return data


class PreferenceSettingsForm(_SettingsForm):
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


class RelevanceSettingsForm(_SettingsForm):
    KEPT_WHEN_EMPTY = ("headphone_pass_mark",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance.is_lowcost:  # a pooled campaign has no low-cost settings
            for field in LOWCOST_SETTINGS:
                del self.fields[field]
        else:
            self.fields["lowcost_stop_at"].widget.attrs["step"] = "any"

    def settings_errors(self, values):
        return relevance_settings_errors(self.instance, values)

    class Meta:
        model = RelevanceCampaign
        fields = list(RELEVANCE_SETTINGS)
        labels = RELEVANCE_LABELS
        help_texts = RELEVANCE_HELP


class AssessorAddForm(forms.Form):
    assessor = IdChoiceField(queryset=None, label="Assessor")

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assessor"].queryset = candidates
