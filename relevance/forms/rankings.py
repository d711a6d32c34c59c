"""The New page of an expert-ranking campaign (issue 32): what a relevance campaign asks,
less the scales and the low-cost settings, plus the queries, the grouping rule and α, and
the new judgment source the groups go into."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from catalog.models import JudgmentSource, Query
from catalog.models.sources import SOURCE_NAME_MAX_LENGTH
from common.form_fields import IdChoiceField, IdMultipleChoiceField
from common.validation import name_validator
from relevance.forms.campaigns import CAMPAIGN_FIELDS, campaign_fields_set_up
from relevance.forms.labels import RELEVANCE_HELP, RELEVANCE_LABELS
from relevance.models import RelevanceCampaign

MAX_QUERY_NAMES = 10_000


class RankingCampaignForm(forms.ModelForm):
    """An organiser sets up an expert-ranking campaign on one of their collections."""

    queries = forms.CharField(
        label="Queries",
        required=False,
        max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="The ids of the queries to rank, separated by spaces or commas; leave it "
        "empty for every query of the collection.",
    )
    groups_source = forms.CharField(
        label="Name of the groups",
        required=False,
        max_length=SOURCE_NAME_MAX_LENGTH,
        validators=[name_validator(SOURCE_NAME_MAX_LENGTH)],
        help_text="The groups are kept under this name among the collection's judgments "
        "(new; empty: the campaign's name).",
    )
    groups_status = forms.ChoiceField(
        label="The groups",
        choices=[
            (JudgmentSource.PILOT, "a pilot: shown, left out of the results"),
            (JudgmentSource.OFFICIAL, "official: they count in the results (ADR leaderboards)"),
        ],
        initial=JudgmentSource.PILOT,
        widget=forms.RadioSelect,
    )

    class Meta:
        model = RelevanceCampaign
        fields = [*CAMPAIGN_FIELDS, "grouping_rule", "grouping_alpha"]
        labels = {**RELEVANCE_LABELS, "cutoff": "Candidates: each system's top k (k)"}
        help_texts = RELEVANCE_HELP
        widgets = {
            "assessors": forms.CheckboxSelectMultiple,
            "grouping_rule": forms.RadioSelect,
        }
        field_classes = {"collection": IdChoiceField, "assessors": IdMultipleChoiceField}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        campaign_fields_set_up(self, user=user)
        self.fields["cutoff"].help_text = (
            "A query's candidates are every system's top k clips for it, without the query "
            "itself, as a relevance campaign's pool."
        )
        self.fields["grouping_alpha"].widget.attrs["step"] = "any"
        self.fields["headphone_pass_mark"].required = False

    def clean_queries(self) -> list[str]:
        names = [name for name in self.cleaned_data["queries"].replace(",", " ").split() if name]
        if len(names) > MAX_QUERY_NAMES:
            raise ValidationError(f"At most {MAX_QUERY_NAMES:,} queries.")
        return names

    def clean(self):
        data = super().clean()
        if data.get("headphone_pass_mark") is None:
            data["headphone_pass_mark"] = RelevanceCampaign._meta.get_field(
                "headphone_pass_mark"
            ).default
        collection, names = data.get("collection"), data.get("queries")
        if collection is None or not names:
            data["queries"] = None
            return data
        found = dict(
            Query.objects.filter(collection=collection, clip__external_id__in=names).values_list(
                "clip__external_id", "pk"
            )
        )
        unknown = [name for name in dict.fromkeys(names) if name not in found]
        if unknown:
            shown = ", ".join(unknown[:5]) + (
                f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            )
            self.add_error("queries", f"“{collection}” has no query {shown}.")
        data["queries"] = list(found.values())
        return data
