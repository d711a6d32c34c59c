"""Delete with undo: the confirmation that says what goes with it, the collection's trash
with "Restore", and the owner's deleted collections (:mod:`catalog.services.trash`)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog import selectors
from catalog.models import TrashItem
from catalog.services.trash import KINDS, trash_preview, trash_put, trash_restore
from common.redirects import back_link, redirect_back
from common.roles import organiser_required


def _root(request, pk: int, kind: str, item_pk: int):
    if kind not in KINDS:
        raise Http404("Nothing of that kind is deleted here.")
    need = "share" if kind == "collection" else "write"  # a whole collection: its owner
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk, need=need)
    root = KINDS[kind].rows(collection).filter(pk=item_pk).first()
    if root is None:
        raise Http404("No such thing in this collection.")
    return collection, root


@require_http_methods(["GET", "POST"])
@organiser_required
def delete_confirm(request, pk: int, kind: str, item_pk: int):
    collection, root = _root(request, pk, kind, item_pk)
    error = None
    if request.method == "POST":
        try:
            trash_put(root=root, kind=kind, collection=collection, by=request.user,
                      with_answers=request.POST.get("with_answers") == "on")  # fmt: skip
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(
                request, f"Deleted {root}. It can be restored below for {days()} days."
            )
            if kind == "collection":
                return redirect("catalog:deleted_collections")
            return redirect("catalog:trash", collection.pk)
    preview = trash_preview(root=root, kind=kind)
    what = dict(TrashItem.KINDS)[kind]
    context = {"collection": collection, "kind": kind, "root": root, "preview": preview, "what": what,
               "error": error, "days": days(), "back": back_link(request.GET.get("back"), collection)}  # fmt: skip
    return render(request, "catalog/delete_confirm.html", context)


def days() -> int:
    return settings.EARSHOT_TRASH_DAYS


@require_GET
@organiser_required
def trash(request, pk: int):
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="read"
    )
    context = {
        "collection": collection,
        "items": collection.trash.order_by("-deleted_at", "-pk"),
        "can_write": selectors.organises(user=request.user, collection=collection, need="write"),
        "days": days(),
    }
    return render(request, "catalog/trash.html", context)


@require_GET
@organiser_required
def deleted_collections(request):
    items = selectors.deleted_collections_for_organiser(user=request.user)
    return render(request, "catalog/deleted_collections.html", {"items": items, "days": days()})


@require_POST
@organiser_required
def restore(request, item_pk: int):
    item = selectors.trash_item_for_organiser(user=request.user, item_id=item_pk)
    try:
        root = trash_restore(item=item)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect_back(request.POST.get("back"), "catalog:collections")
    messages.success(request, f"Restored {root}.")
    return redirect(_restored_page(root, item))


def _restored_page(root, item) -> str:
    """Where what came back is seen: an example on its campaign's examples page, a trap
    question on its campaign's page, a campaign or collection on its own page; anything
    else on its collection's page."""
    if item.kind == "example":
        return reverse("crowd:preference_campaign_examples", args=[root.campaign_id])
    if item.kind == "trap":
        return root.example.campaign.get_absolute_url()
    if item.kind in ("preference_campaign", "relevance_campaign", "collection"):
        return root.get_absolute_url()
    return item.collection.get_absolute_url()
