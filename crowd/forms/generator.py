"""The example generator's form (thesis §3.2.1): measures × scales, bins, how many."""

from __future__ import annotations

from django import forms

from crowd.services.generator import (
    FAMILY_CHOICES,
    MAX_EXAMPLES,
    MAX_PER_BIN,
    SCALE_CHOICES,
    generator_measure_names,
)
from evaluation.core.example_generator import N_BINS, bin_label

SCALE_LABELS = {
    "fine": "Fine (0–100)",
    "graded3": "3 levels",
    "graded4": "4 levels",
    "graded5": "5 levels",
}


class GeneratorForm(forms.Form):
    families = forms.MultipleChoiceField(
        choices=[(f, f) for f in FAMILY_CHOICES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Measures",
        initial=["CG"],
    )
    scales = forms.MultipleChoiceField(
        choices=[(s, SCALE_LABELS[s]) for s in SCALE_CHOICES],
        widget=forms.CheckboxSelectMultiple,
        label="Scales",
        initial=["fine"],
    )
    gain = forms.ChoiceField(
        choices=[("lin", "linear"), ("exp", "exponential")], initial="lin", label="Gain"
    )
    others = forms.CharField(
        required=False,
        label="Other measures (one name a line)",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "P(rel=60,scale=fine)@5"}),
    )
    bins = forms.TypedMultipleChoiceField(
        choices=[(b, f"|Δλ| in {bin_label(b)}") for b in range(N_BINS)],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        label="Bins",
        initial=list(range(N_BINS)),
    )
    per_bin = forms.IntegerField(
        min_value=1, max_value=MAX_PER_BIN, initial=20, label="Examples per bin"
    )
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=0, label="Seed")
    max_examples = forms.IntegerField(
        min_value=1, max_value=MAX_EXAMPLES, required=False, label="At most this many examples"
    )

    def __init__(self, *args, k: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.k = k

    def clean(self):
        data = super().clean()
        if "scales" in data and "gain" in data:
            try:
                data["measures"] = generator_measure_names(
                    families=data.get("families", []), scales=data["scales"], gain=data["gain"],
                    k=self.k, others=data.get("others", "").splitlines(),
                )  # fmt: skip
            except forms.ValidationError as error:
                self.add_error(None, error)
        return data
