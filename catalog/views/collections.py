"""Organiser pages for test collections: list, create, edit, archive, share; the audio of clips.

A collection's page shows one of its clips, queries or systems at a time, a page of
:data:`PAGE_SIZE` rows read by the database (``LIMIT``/``OFFSET``), searched through
indexes (:mod:`catalog.search`): it costs the same with 50 clips or 100,000.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog import selectors
from catalog.access import clip_audible_by
from catalog.forms.collections import CollectionForm, ShareForm
from catalog.models import Clip
from catalog.search import MAX_SEARCH_LENGTH
from catalog.selectors.query_lists import DEPTH, query_lists
from catalog.services.collections import collection_archive, collection_create, collection_update
from catalog.services.sharing import collection_share, collection_unshare
from common.audio import ranged_file_response
from common.roles import organiser_required

PAGE_SIZE = 50
TABS = {
    "clips": selectors.collection_clips,
    "queries": selectors.collection_queries,
    "systems": selectors.collection_systems,
}


@require_GET
@organiser_required
def collection_list(request):
    archived = request.GET.get("archived") == "1"
    collections = selectors.collection_list(user=request.user, archived=archived)
    context = {"collections": collections, "archived": archived}
    return render(request, "catalog/collection_list.html", context)


@require_http_methods(["GET", "POST"])
@organiser_required
def collection_new(request):
    form = CollectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            collection = collection_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Collection “{collection}” created.")
            return redirect(collection)
    return render(request, "catalog/collection_form.html", {"form": form, "collection": None})


@require_GET
@organiser_required
def collection_detail(request, pk: int):
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="read"
    )
    tab = request.GET.get("show", "clips")
    if tab not in TABS:
        raise Http404("Show clips, queries or systems.")
    q = request.GET.get("q", "").strip()[:MAX_SEARCH_LENGTH]
    counts = selectors.collection_counts(collection=collection)
    user = request.user
    paginator = Paginator(TABS[tab](collection=collection, search=q), PAGE_SIZE)
    if not q:  # the tab's rows are all of them: counted already, not twice
        paginator.__dict__["count"] = counts[tab]
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "collection": collection,
        "access": selectors.collection_access(user=user, collection=collection),
        "can_write": selectors.organises(user=user, collection=collection, need="write"),
        "can_share": selectors.organises(user=user, collection=collection, need="share"),
        "counts": counts,
        "tab": tab,
        "tabs": list(TABS),
        "q": q,
        "page": page,
    }
    return render(request, "catalog/collection_detail.html", context)


@require_http_methods(["GET", "POST"])
@organiser_required
def collection_edit(request, pk: int):
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk)
    initial = {"name": collection.name, "description": collection.description}
    form = CollectionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            collection_update(collection=collection, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Saved.")
            return redirect(collection)
    context = {"form": form, "collection": collection}
    return render(request, "catalog/collection_form.html", context)


@require_POST
@organiser_required
def collection_archive_view(request, pk: int):
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk)
    archived = request.POST.get("archived") == "1"
    collection_archive(collection=collection, archived=archived)
    verb = "archived: it is listed under Archived" if archived else "back in the list"
    messages.success(request, f"“{collection}” is {verb}.")
    return redirect(collection)


@require_http_methods(["GET", "POST"])
@organiser_required
def collection_sharing(request, pk: int):
    """The owner chooses who else organises the collection, read-only or in full."""
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="share"
    )
    form = ShareForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            share = collection_share(collection=collection, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            access = share.get_access_display()
            messages.success(request, f"Shared with {share.user.username} ({access}).")
            return redirect("catalog:collection_sharing", collection.pk)
    context = {
        "collection": collection,
        "form": form,
        "shares": selectors.collection_shares(collection=collection),
    }
    return render(request, "catalog/collection_sharing.html", context)


@require_POST
@organiser_required
def collection_unshare_view(request, pk: int):
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="share"
    )
    username = request.POST.get("username", "")
    if collection_unshare(collection=collection, username=username):
        messages.success(request, f"{username} no longer organises “{collection}”.")
    else:
        messages.error(request, f"“{collection}” was not shared with {username!r}.")
    return redirect("catalog:collection_sharing", collection.pk)


@require_GET
def clip_audio(request, token: str):
    """A clip's audio with Range support; 404 (not 403) so tokens reveal nothing."""
    clip = get_object_or_404(Clip.objects.select_related("collection"), audio_token=token)
    if not clip.audio or not clip_audible_by(request, clip):
        raise Http404("No such audio.")
    return ranged_file_response(clip.audio, request.headers.get("Range"))


@require_GET
@organiser_required
def query_page(request, pk: int, query_pk: int):
    """What each system returned for one query, playable, with its judgments."""
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="read"
    )
    query = get_object_or_404(collection.queries.select_related("clip"), pk=query_pk)
    depth = 100 if request.GET.get("depth") == "100" else DEPTH
    context = {
        "collection": collection, "lists": query_lists(query=query, depth=depth),
        "ordered_groups": selectors.query_ordered_groups(query=query),
    }  # fmt: skip
    return render(request, "catalog/query_lists.html", context)
