"""The headphone screen's answer form: which of the three tones was the quietest (the same
for crowd workers and assessors, :mod:`listening.views.headphones`)."""

from __future__ import annotations

from django import forms


class HeadphoneAnswerForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    interval = forms.TypedChoiceField(
        choices=[(1, "The first"), (2, "The second"), (3, "The third")],
        coerce=int, widget=forms.RadioSelect, label="Which tone was the quietest?",
    )  # fmt: skip
