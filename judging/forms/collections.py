"""Forms of the collection pages: create and edit a collection, search it, share it."""

from __future__ import annotations

from django import forms

from judging.models import CollectionShare


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
