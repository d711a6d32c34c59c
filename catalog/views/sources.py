"""The organiser's control of which judgment sources count (on the collection page)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from catalog import selectors
from catalog.forms.sources import JudgmentSourceStatusForm
from catalog.services.sources import judgment_source_set_status
from common.roles import organiser_required


@require_POST
@organiser_required
def judgment_source_status(request, pk: int, source_pk: int):
    """Make a source official or a pilot; the results are recomputed once, in the background."""
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk)
    source = selectors.collection_judgment_source(collection=collection, source_id=source_pk)
    form = JudgmentSourceStatusForm(request.POST)
    if form.is_valid():
        status = form.cleaned_data["status"]
        if judgment_source_set_status(source=source, status=status):
            counted = "now counts" if source.counts else "is now left out of results"
            messages.success(request, f"“{source.name}” {counted}; the results are recomputed.")
    else:
        messages.error(request, "Choose official or pilot.")
    return redirect(f"{collection.get_absolute_url()}#judgment-sources")
