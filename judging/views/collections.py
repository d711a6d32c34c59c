"""Organiser pages for test collections, and the audio of their clips."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from judging import selectors
from judging.access import clip_audible_by
from judging.audio import ranged_file_response
from judging.models import Clip
from judging.roles import is_assessor, is_organiser, organiser_required
from judging.views.assessors import assessor_home


def home(request):
    """Send each person to where their work is."""
    if not request.user.is_authenticated:
        return redirect("login")
    if is_organiser(request.user):
        return redirect("judging:collections")
    if is_assessor(request.user):
        return assessor_home(request)
    raise PermissionDenied("Your account has no role yet; ask an organiser for one.")


@organiser_required
def collection_list(request):
    collections = selectors.collections_for_organiser(user=request.user)
    return render(request, "judging/collection_list.html", {"collections": collections})


@organiser_required
def collection_detail(request, pk: int):
    collection = selectors.collection_for_organiser(user=request.user, collection_id=pk)
    context = {
        "collection": collection,
        "clips": selectors.collection_clips(collection=collection),
        "queries": selectors.collection_queries(collection=collection),
        "systems": selectors.collection_systems(collection=collection),
    }
    return render(request, "judging/collection_detail.html", context)


@require_GET
def clip_audio(request, token: str):
    """A clip's audio with Range support; 404 (not 403) so tokens reveal nothing."""
    clip = get_object_or_404(Clip.objects.select_related("collection"), audio_token=token)
    if not clip.audio or not clip_audible_by(request, clip):
        raise Http404("No such audio.")
    return ranged_file_response(clip.audio, request.headers.get("Range"))
