"""The "which collection?" step of a "New … campaign" button (crowd's preference campaigns,
pairwise campaigns): a campaign belongs to a collection and is made on that collection's
form, so the button asks which one first — or goes straight there when the organiser can
change only one. Only collections the organiser may change are offered, through the one
access rule (:class:`catalog.forms.collections.CollectionChoiceForm`)."""

from __future__ import annotations

from django.shortcuts import redirect, render

from catalog.forms.collections import CollectionChoiceForm


def collection_choice(request, *, then: str, template: str):
    """Redirect to the page named ``then`` (it takes the collection's id) once a collection
    is chosen, or when there is only one to choose; else render ``template`` with the form
    (``form``) and whether there is any collection to offer (``any``)."""
    form = CollectionChoiceForm(request.GET or None, user=request.user)
    choices = form.fields["collection"].queryset
    if form.is_valid():
        return redirect(then, form.cleaned_data["collection"].pk)
    if not request.GET and choices.count() == 1:
        return redirect(then, choices.get().pk)
    return render(request, template, {"form": form, "any": choices.exists()})
