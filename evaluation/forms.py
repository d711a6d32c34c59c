"""Forms of the evaluation pages: the results settings and a campaign's mapping measures."""

from __future__ import annotations

from django import forms

from evaluation.models import ResultsConfig


class MeasuresField(forms.CharField):
    """Measure names, one a line (or separated by commas outside parentheses)."""

    widget = forms.Textarea(attrs={"rows": 4, "spellcheck": "false"})

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 4000)
        super().__init__(**kwargs)

    def to_python(self, value) -> list[str]:
        text = super().to_python(value)
        return [line.strip() for line in text.splitlines() if line.strip()]

    def prepare_value(self, value):
        return "\n".join(value) if isinstance(value, list | tuple) else value


class ResultsSettingsForm(forms.Form):
    measures = MeasuresField(
        label="Measures of the leaderboards",
        help_text="One name a line, e.g. CG(scale=fine)@5 or nDCG(scale=broad)@5; "
        "ADR(scale=groups) ranks the systems against the ordered groups. Empty: CG@5 and "
        "DCG@5 on each scale the collection is judged on, and ADR over each query's groups "
        "and at the length of the lists when the collection has official ordered groups.",
    )
    test = forms.ChoiceField(choices=ResultsConfig.TESTS, label="Significance test")
    adjustment = forms.ChoiceField(
        choices=ResultsConfig.ADJUSTMENTS, label="Adjustment for many pairs"
    )
    resamples = forms.IntegerField(min_value=1, label="Resamples (bootstrap, permutation)")
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, label="Seed of the resampling")
    alpha = forms.FloatField(label="Significance level α")
    reliability_target = forms.FloatField(label="Reliability target (Eρ², Φ)")
    judged_only = forms.BooleanField(
        required=False,
        label="Leave unjudged clips out of each list",
        help_text="Each system's list is scored as if its unjudged clips were not in it, "
        "the rest moving up. Unticked, an unjudged clip counts as not similar.",
    )


class MappingSettingsForm(forms.Form):
    measures = MeasuresField(
        label="Measures of the satisfaction mapping",
        help_text="One name a line. Empty: the measures the campaign's examples were "
        "generated for, else CG(scale=fine)@5 — or CG(scale=broad)@5 when the collection's "
        "judgments are on the Broad scale only.",
    )
    full_listening_only = forms.BooleanField(
        required=False,
        label="Use only the answers with every clip heard",
        help_text="Leaves out answers where the server did not send enough of the query and "
        "of every clip of both lists, or where too little time passed to hear them one "
        "after another.",
    )


class OptimalityForm(forms.Form):
    """What the "Choosing a test" study computes: how many random splits and resamples."""

    trials = forms.IntegerField(
        min_value=2,
        max_value=1000,
        initial=300,
        label="Random splits of the queries",
        help_text="The thesis used 300; fewer are quicker and less precise.",
    )
    resamples = forms.IntegerField(
        min_value=100,
        max_value=100_000,
        initial=1000,
        label="Resamples of the bootstrap and permutation tests",
    )
