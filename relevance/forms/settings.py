"""The settings and assessors pages of a relevance campaign that has started: the fields
the settings page edits are :data:`~relevance.services.settings.RELEVANCE_SETTINGS` (a
new setting is one line there); checks that involve several fields are the service's,
shown beside their fields (:class:`common.campaign_settings.SettingsForm`)."""

from __future__ import annotations

from django import forms

from common.campaign_settings import SettingsForm
from common.form_fields import IdChoiceField
from relevance.forms.labels import RELEVANCE_HELP, RELEVANCE_LABELS
from relevance.models import RelevanceCampaign
from relevance.services.lowcost import LOWCOST_SETTINGS
from relevance.services.settings import RELEVANCE_SETTINGS, relevance_settings_errors


class RelevanceSettingsForm(SettingsForm):
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
