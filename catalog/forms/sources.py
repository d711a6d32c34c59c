"""Input of the judgment sources control."""

from __future__ import annotations

from django import forms

from catalog.models import JudgmentSource


class JudgmentSourceStatusForm(forms.Form):
    status = forms.ChoiceField(choices=JudgmentSource.STATUSES)
