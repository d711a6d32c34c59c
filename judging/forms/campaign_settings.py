"""Settings of campaigns that have started: the fields each settings page edits.

The fields are the services' lists (:data:`~judging.services.campaign_settings.PREFERENCE_SETTINGS`,
:data:`~judging.services.campaign_settings.RELEVANCE_SETTINGS`): a new setting is one line
there. Checks that involve several fields are the services' and come back as errors on
the form (``form.add_error(None, error)``).
"""

from __future__ import annotations

from django import forms

from judging.forms.fields import IdChoiceField
from judging.models import PreferenceCampaign, RelevanceCampaign
from judging.services.campaign_settings import (
    PREFERENCE_SETTINGS,
    RELEVANCE_SETTINGS,
    preference_settings_errors,
    relevance_settings_errors,
)
from judging.services.lowcost import LOWCOST_SETTINGS


class _SettingsForm(forms.ModelForm):
    """Adds the service's checks as errors beside their fields, before the model's
    constraints would say the same in the database's words."""

    def settings_errors(self, values: dict) -> dict[str, str]:
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if all(f in data for f in self.fields):  # each field shown is valid on its own
            values = {f: getattr(self.instance, f) for f in self._meta.fields} | data
            for field, message in self.settings_errors(values).items():
                self.add_error(field, message)
        return data


class PreferenceSettingsForm(_SettingsForm):
    def settings_errors(self, values):
        return preference_settings_errors({**values, "list_length": self.instance.list_length})

    class Meta:
        model = PreferenceCampaign
        fields = list(PREFERENCE_SETTINGS)
        labels = {
            "consent_text": "Consent text",
            "answers_per_example": "Answers per example (redundancy)",
            "max_answers_per_worker": "Tasks per worker at most (M)",
            "quiz_length": "Quiz length (Q)",
            "trap_rate": "Trap rate",
            "trust_threshold": "Trust threshold",
            "min_trap_answers": "Trap answers before trust counts",
            "listening_check": "Refuse answers without listening (checked by the server)",
            "min_clips_per_list": "Listening check: clips of each list to play",
            "min_seconds_on_task": "Listening check: seconds on each task at least",
            "fast_answer_seconds": "Flag answers faster than (seconds)",
            "stop_after_fast_answers": "Stop a worker after this many fast answers (0: never)",
        }
        widgets = {
            "instructions": forms.Textarea(attrs={"rows": 4}),
            "consent_text": forms.Textarea(attrs={"rows": 4}),
            "trap_rate": forms.NumberInput(attrs={"step": "0.01", "min": "0", "max": "1"}),
            "trust_threshold": forms.NumberInput(attrs={"step": "0.01", "min": "0", "max": "1"}),
        }


class RelevanceSettingsForm(_SettingsForm):
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
        labels = {
            "assessors_per_query": "Assessors per query",
            "queries_per_assessor": "Queries per assessor (cap)",
            "must_listen_seconds": "Must listen (seconds)",
            "take_back_minutes": "Take back untouched work after (minutes)",
        }


class AssessorAddForm(forms.Form):
    assessor = IdChoiceField(queryset=None, label="Assessor")

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assessor"].queryset = candidates
