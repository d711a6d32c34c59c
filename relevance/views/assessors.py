"""Assessor pages: their campaigns, getting the next query, and the judging page with its saves."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from catalog.models.collection import BROAD_LABELS, FINE_MAX
from common.roles import assessor_required
from common.validation import parse_id
from listening.audio_delivery import counted_audio_response
from relevance import selectors
from relevance.forms.campaigns import JudgmentSaveForm
from relevance.models import Assignment, RelevanceCampaign
from relevance.services.campaigns import (
    LISTEN_TOLERANCE,
    AssignmentTakenBack,
    assignment_next,
    judgment_save,
)
from relevance.services.headphones import HeadphonesFirst
from relevance.views import rankings
from relevance.views.json_saves import assignment_and_payload

PAGE_CONSTANTS = {
    "broadLabels": [label for _, label in sorted(BROAD_LABELS.items())],
    "fineMax": FINE_MAX,
    "listenTolerance": LISTEN_TOLERANCE,
}
"""What the judging page's JavaScript shares with the server, handed over by json_script."""


@assessor_required
def assessor_home(request):
    campaigns = selectors.relevance_campaigns_for_assessor(user=request.user)
    return render(request, "relevance/assessor_home.html", {"campaigns": campaigns})


@require_POST
@assessor_required
def assignment_next_view(request, pk: int):
    campaign = selectors.campaign_for_assessor(user=request.user, campaign_id=pk, open_only=True)
    return work_next(request, campaign)


def work_next(request, campaign: RelevanceCampaign):
    """To the assessor's next query in an open campaign (their unfinished one first), or
    home when there is none; to the headphone screen first when the campaign asks for it
    (before a query is taken)."""
    if not selectors.headphones_cleared(campaign=campaign, assessor=request.user):
        return redirect("relevance:assessor_headphones", campaign.pk)
    assignment = assignment_next(campaign=campaign, assessor=request.user)
    if assignment is None:
        messages.info(request, f"Nothing more to judge in “{campaign}” for now. Thank you!")
        return redirect("home")
    return redirect(assignment)


def _own_assignment(request, pk: int) -> Assignment:
    return selectors.assignment_for_assessor(user=request.user, assignment_id=pk)


@require_GET
@assessor_required
def assignment_page(request, pk: int):
    assignment = _own_assignment(request, pk)
    if not selectors.headphones_cleared(campaign=assignment.campaign, assessor=request.user):
        return redirect("relevance:assessor_headphones", assignment.campaign_id)
    if assignment.campaign.is_ranking:
        return rankings.ranking_page(request, assignment)
    candidates = selectors.assignment_candidates(assignment=assignment)
    mine = assignment.campaign.assignments.filter(assessor=request.user)
    context = {
        "assignment": assignment,
        "campaign": assignment.campaign,
        "candidates": candidates,
        "candidates_done": sum(c.is_done for c in candidates),
        "queries_done": mine.filter(completed_at__isnull=False).count(),
        "queries_assigned": mine.count(),
        "broad_labels": sorted(BROAD_LABELS.items()),
        "page_constants": PAGE_CONSTANTS,
    }
    return render(request, "relevance/assignment.html", context)


@require_GET
@assessor_required
def assignment_audio(request, pk: int, which: str):
    """The query's or a candidate's audio for the assessor's own assignment.

    ``which`` is ``"query"`` or the candidate's pool entry id (a low-cost assignment's
    own pair only: it judges that one candidate). Every response records the bytes that
    reached the assessor, as they reach them
    (:func:`listening.audio_delivery.counted_audio_response`): the must-listen rule of :func:`relevance.services.campaigns.judgment_save` reads that
    record, not what the page says it played. In a campaign that screens for headphones
    an assessor who has not passed gets no audio (403): listening on loudspeakers before
    the screen would otherwise count towards the rule once they pass.
    """
    assignment = _own_assignment(request, pk)
    if not selectors.headphones_cleared(campaign=assignment.campaign, assessor=request.user):
        return HttpResponseForbidden("Pass the campaign's headphone check first.")
    if which == "query":
        clip = assignment.query.clip
    elif parse_id(which) is not None:
        entries = assignment.campaign.pool.filter(pk=parse_id(which), query_id=assignment.query_id)
        if assignment.pool_entry_id is not None:
            entries = entries.filter(pk=assignment.pool_entry_id)
        entry = entries.select_related("clip").first()
        clip = entry.clip if entry is not None else None
    else:
        clip = None
    if clip is None or not clip.audio:
        raise Http404("No such audio.")
    return counted_audio_response(request, clip=clip, assignment=assignment)


@require_POST
@assessor_required
def judgment_save_api(request, pk: int):
    """Save one change of the judging page (JSON in, JSON out); repeating it changes nothing."""
    found = assignment_and_payload(request, pk)
    if isinstance(found, JsonResponse):
        return found
    assignment, payload = found
    form = JudgmentSaveForm(payload if isinstance(payload, dict) else {})
    if not form.is_valid():
        return JsonResponse({"detail": "Invalid values.", "fields": form.errors}, status=400)
    data = form.cleaned_data
    pool_entry = assignment.campaign.pool.filter(
        pk=data["candidate"], query=assignment.query
    ).first()
    if pool_entry is None:
        return JsonResponse({"detail": "No such candidate in this query."}, status=400)
    try:
        saved = judgment_save(
            assignment=assignment,
            assessor=request.user,
            pool_entry=pool_entry,
            broad=data["broad"],
            fine=data["fine"],
            listened_seconds=data["listened_seconds"] or 0.0,
            judging_seconds=data["judging_seconds"] or 0.0,
            plays=data["plays"] or 0,
        )
    except AssignmentTakenBack as error:
        return JsonResponse({"detail": str(error)}, status=409)
    except HeadphonesFirst as error:
        return JsonResponse({"detail": str(error)}, status=403)
    except ValidationError as error:
        return JsonResponse({"detail": " ".join(error.messages)}, status=400)
    return JsonResponse(
        {
            "candidate": pool_entry.pk,
            "broad": saved.broad,
            "fine": saved.fine,
            "listened_seconds": saved.listened_seconds,
            "judging_seconds": saved.judging_seconds,
            "plays": saved.plays,
            "heard_seconds": saved.heard_seconds,
            "candidates_done": saved.candidates_done,
            "candidates_total": saved.candidates_total,
            "assignment_done": saved.assignment_done,
        }
    )
