"""The organiser's control of which judgment sources count (on the collection page), and
the download of a source's ordered groups."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from catalog import selectors
from catalog.forms.sources import JudgmentSourceStatusForm
from catalog.services.sources import judgment_source_set_status
from common.csv_export import download
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


@require_GET
@organiser_required
def judgment_source_groups(request, pk: int, source_pk: int):
    """A source's ordered groups as a groups file (``NAME QUERY DOC GROUP``), to download."""
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="read"
    )
    source = selectors.collection_judgment_source(collection=collection, source_id=source_pk)
    if not source.holds_groups:
        raise Http404("This source holds relevance judgments, not ordered groups.")
    return download(
        selectors.source_groups_text(source=source),
        filename=f"groups-{slugify(source.name) or source.pk}.txt",
        content_type="text/plain; charset=utf-8",
    )
