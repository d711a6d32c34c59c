"""The form of a new pairs campaign: the sort's settings and the crowd campaign's own."""

from __future__ import annotations

from django import forms

from catalog.models import JudgmentSource
from crowd.forms.campaigns import CampaignForm
from evaluation.core.ordered_groups.quicksort import DEFAULT_ANSWERS_PER_PAIR, DEFAULT_MARGIN
from pairwise.services.create import PAIR_INSTRUCTIONS

_NOT_FOR_PAIRS = ("list_length", "answers_per_example", "min_clips_per_list")
"""Crowd settings a pair fixes: one clip a side, the answers per pair as its redundancy."""


class PairsCampaignForm(CampaignForm):
    """A crowd campaign's settings (:class:`crowd.forms.campaigns.CampaignForm`) without
    those of lists, and the sort's: queries, margin, answers per pair, its source."""

    class Meta(CampaignForm.Meta):
        fields = [f for f in CampaignForm.Meta.fields if f not in _NOT_FOR_PAIRS]

    OPTIONAL_NUMBERS = tuple(n for n in CampaignForm.OPTIONAL_NUMBERS if n not in _NOT_FOR_PAIRS)

    queries = forms.ModelMultipleChoiceField(
        queryset=None, required=False, widget=forms.CheckboxSelectMultiple,
        label="Queries to sort",
        help_text="None ticked: every query. Each query's candidates are the clips the "
        "systems retrieved for it.",
    )  # fmt: skip
    margin = forms.IntegerField(
        min_value=1, max_value=100, initial=DEFAULT_MARGIN, label="Margin",
        help_text="A clip goes above (or below) the clip it is compared with when the answers "
        "preferring it outnumber the others by at least this many (2 in Urbano et al. 2010).",
    )  # fmt: skip
    answers_per_pair = forms.IntegerField(
        min_value=1, max_value=100, initial=DEFAULT_ANSWERS_PER_PAIR, label="Answers per pair",
        help_text="How many trusted workers answer each pair before it counts (10 in the paper).",
    )  # fmt: skip
    source_name = forms.CharField(
        required=False, max_length=200, label="Name of the ground truth",
        help_text="The groups are kept under this name in the collection (empty: the "
        "campaign's name). It must be a new name.",
    )  # fmt: skip
    source_status = forms.ChoiceField(
        choices=JudgmentSource.STATUSES, initial=JudgmentSource.PILOT,
        label="Does the ground truth count?",
        help_text="A pilot is kept and shown but left out of results, so you can compare it "
        "with the ground truth you hold first.",
    )  # fmt: skip

    def __init__(self, *args, collection, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["queries"].queryset = collection.queries.select_related("clip").order_by(
            "clip__external_id"
        )
        self.fields["queries"].label_from_instance = lambda q: q.clip.external_id
        self.fields["instructions"].initial = PAIR_INSTRUCTIONS
        self.fields["quiz_length"].initial = 0

    def clean(self):
        data = super().clean()
        margin, per_pair = data.get("margin"), data.get("answers_per_pair")
        if margin and per_pair and margin > per_pair:
            self.add_error("margin", "The margin cannot be larger than the answers per pair.")
        return data

    def sort_options(self) -> dict:
        """The arguments of :func:`pairwise.services.create.pairwise_campaign_create`."""
        data = dict(self.cleaned_data)
        queries = data.pop("queries")
        return {**data, "queries": list(queries) or None}
