"""The collection page "What listeners hear": loudness and excerpts, with each clip's loudness."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from catalog import selectors
from catalog.forms.collections import ListeningForm
from catalog.selectors import organises
from common.roles import organiser_required
from listening.services.listening_copies import listening_settings_update

FIELDS = ("loudness_target", "excerpt_start", "excerpt_seconds")


@require_http_methods(["GET", "POST"])
@organiser_required
def collection_listening(request, pk: int):
    need = "write" if request.method == "POST" else "read"
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk, need=need)
    initial = {name: getattr(collection, name) for name in FIELDS}
    form = ListeningForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            job = listening_settings_update(
                collection=collection, owner=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if job is None:
                messages.info(request, "Nothing changed.")
                return redirect(request.path)
            return redirect(job.get_absolute_url())
    context = {
        "collection": collection,
        "form": form,
        "clips": selectors.collection_loudness(collection=collection),
        "can_write": organises(user=request.user, collection=collection, need="write"),
    }
    return render(request, "listening/collection_listening.html", context)
