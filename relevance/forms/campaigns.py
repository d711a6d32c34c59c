"""HTML and JSON input of the judging app, parsed and validated by Django forms."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from catalog import qrels
from catalog.models.collection import BROAD_LABELS, FINE_MAX
from catalog.selectors import organiser_collections
from common.form_fields import IdChoiceField, IdMultipleChoiceField
from common.validation import ID_MAX
from people.selectors import assessors_for_organiser
from relevance.forms.labels import RELEVANCE_HELP, RELEVANCE_LABELS
from relevance.models import RelevanceCampaign
from relevance.services.lowcost import (
    LOWCOST_SETTINGS,
    lowcost_default_measure,
    lowcost_settings_check,
)

LOWCOST_FIELDS = ("mode", *LOWCOST_SETTINGS)
"""The campaign's mode and low-cost settings, chosen when it is created."""
OPTIONAL_FIELDS = (*LOWCOST_FIELDS, "headphone_pass_mark")
"""Left empty, these take the model's defaults (pooled mode, a pass mark of 5)."""


CAMPAIGN_FIELDS = [
    "collection",
    "name",
    "cutoff",
    "exclude_same_artist",
    "assessors_per_query",
    "queries_per_assessor",
    "must_listen_seconds",
    "take_back_minutes",
    "headphone_check",
    "headphone_pass_mark",
    "assessors",
]
"""What every kind of assessor campaign asks when it is created (an expert-ranking one
too: :class:`relevance.forms.rankings.RankingCampaignForm`)."""


def campaign_fields_set_up(form: forms.ModelForm, *, user) -> None:
    """The organiser's own collections and assessors to choose from, and counts from 1."""
    form.fields["collection"].queryset = organiser_collections(user=user)
    form.fields["assessors"].queryset = assessors_for_organiser(user=user)
    for name in ("cutoff", "assessors_per_query"):
        form.fields[name].min_value = 1
        form.fields[name].widget.attrs["min"] = 1


class RelevanceCampaignForm(forms.ModelForm):
    """An organiser sets up a relevance campaign on one of their collections."""

    class Meta:
        model = RelevanceCampaign
        fields = [*CAMPAIGN_FIELDS, *LOWCOST_FIELDS]
        labels = RELEVANCE_LABELS
        help_texts = RELEVANCE_HELP
        widgets = {"assessors": forms.CheckboxSelectMultiple, "mode": forms.RadioSelect}
        field_classes = {"collection": IdChoiceField, "assessors": IdMultipleChoiceField}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        campaign_fields_set_up(self, user=user)
        self.fields["lowcost_stop_at"].widget.attrs["step"] = "any"
        # an expert-ranking campaign has a New page of its own (relevance.forms.rankings)
        self.fields["mode"].choices = [
            choice
            for choice in self.fields["mode"].choices
            if choice[0] != RelevanceCampaign.RANKING
        ]
        for name in OPTIONAL_FIELDS:
            self.fields[name].required = False
        chosen = self.fields["collection"].queryset.filter(pk=self.initial.get("collection") or 0)
        if not self.is_bound and chosen.exists():
            self._measure_for(chosen.get())

    def _measure_for(self, collection) -> None:
        """The low-cost measure offered for ``collection``, and why when it is not Fine."""
        measure = lowcost_default_measure(collection=collection)
        self.initial["lowcost_measure"] = measure
        if "broad" in measure:
            self.fields["lowcost_measure"].help_text += (
                f" {measure} is offered because the judgments of “{collection}” are on the "
                "Broad scale only: on it they count from the first estimate."
            )

    def clean(self):
        data = super().clean()
        for name in OPTIONAL_FIELDS:
            if data.get(name) in (None, ""):
                data[name] = RelevanceCampaign._meta.get_field(name).default
        if not self.data.get("lowcost_measure") and data.get("collection") is not None:
            data["lowcost_measure"] = lowcost_default_measure(
                collection=data["collection"], cutoff=data.get("cutoff") or 5
            )
        if data["mode"] == RelevanceCampaign.LOWCOST and not self.errors:
            try:
                data["lowcost_measure"] = lowcost_settings_check(
                    cutoff=data["cutoff"],
                    assessors_per_query=data["assessors_per_query"],
                    queries_per_assessor=data["queries_per_assessor"],
                    measure=data["lowcost_measure"],
                    target=data["lowcost_target"],
                    stop_at=data["lowcost_stop_at"],
                )
            except ValidationError as error:
                for field, messages in error.message_dict.items():
                    self.add_error(field, messages)
        return data


class JudgmentSaveForm(forms.Form):
    """One save of the judging page: a candidate's scores (either may be absent) and timings."""

    candidate = forms.IntegerField(min_value=1, max_value=ID_MAX)
    broad = forms.TypedChoiceField(
        choices=[(value, label) for value, label in sorted(BROAD_LABELS.items())],
        coerce=int,
        required=False,
        empty_value=None,
    )
    fine = forms.IntegerField(min_value=0, max_value=FINE_MAX, required=False)
    listened_seconds = forms.FloatField(min_value=0, max_value=86_400, required=False)
    judging_seconds = forms.FloatField(min_value=0, max_value=86_400, required=False)
    plays = forms.IntegerField(min_value=0, max_value=100_000, required=False)


class QrelsForm(forms.Form):
    """Which qrels to export: the scale and the consolidation policy."""

    scale = forms.ChoiceField(choices=[(s, s.capitalize()) for s in qrels.SCALES])
    policy = forms.ChoiceField(choices=[(p, p) for p in qrels.POLICIES], initial="mean")
