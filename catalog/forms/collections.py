"""Forms of the collection pages: create and edit a collection, search it, share it, choose
one (the collection of a new preference campaign)."""

from __future__ import annotations

from django import forms

from catalog.models import CollectionShare
from catalog.selectors import organiser_collections
from common.form_fields import IdChoiceField


class CollectionForm(forms.Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(
        required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3})
    )


class ShareForm(forms.Form):
    username = forms.CharField(max_length=150, label="Organiser's username")
    access = forms.ChoiceField(
        choices=CollectionShare.ACCESS, initial=CollectionShare.READ, widget=forms.RadioSelect
    )


class ListeningForm(forms.Form):
    """What listeners hear of a collection (:mod:`listening.services.listening_copies`)."""

    loudness_target = forms.FloatField(
        required=False, min_value=-40, max_value=-10, label="Loudness listeners hear (LUFS)",
        help_text="Every clip is played at this loudness, e.g. −23 (the broadcast standard), "
        "with peaks kept below −1 dB. Leave empty to play clips as they were uploaded.",
        widget=forms.NumberInput(attrs={"step": "0.5", "placeholder": "-23"}),
    )  # fmt: skip
    excerpt_start = forms.FloatField(
        required=False, min_value=0, label="Excerpt starts at (seconds)",
        help_text="MIREX played 30 seconds from 30 seconds in.",
    )  # fmt: skip
    excerpt_seconds = forms.FloatField(
        required=False, min_value=1, max_value=3600, label="Excerpt length (seconds)",
        help_text="Leave empty to play whole clips.",
    )  # fmt: skip


class CollectionChoiceForm(forms.Form):
    """One of the collections ``user`` may change and that is in use (not archived)."""

    collection = IdChoiceField(queryset=None, label="Collection", empty_label=None)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collection"].queryset = organiser_collections(user=user, need="write").filter(
            archived_at__isnull=True
        )
