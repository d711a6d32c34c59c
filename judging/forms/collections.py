"""Forms of the collection pages: create and edit a collection, search it, share it."""

from __future__ import annotations

from django import forms

from judging.models import CollectionShare
from judging.search import MAX_SEARCH_LENGTH


class CollectionForm(forms.Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(
        required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3})
    )


class SearchForm(forms.Form):
    """``?q=…&page=…`` of a collection's clips, queries or systems."""

    q = forms.CharField(required=False, max_length=MAX_SEARCH_LENGTH, label="Search")
    page = forms.IntegerField(required=False, min_value=1)


class ShareForm(forms.Form):
    username = forms.CharField(max_length=150, label="Organiser's username")
    access = forms.ChoiceField(
        choices=CollectionShare.ACCESS, initial=CollectionShare.READ, widget=forms.RadioSelect
    )
