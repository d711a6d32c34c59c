"""The assessor's side of an expert-ranking campaign (issue 32): the ranking page and its
saves (the organiser's pages are in :mod:`relevance.views.campaigns`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from common.roles import assessor_required
from common.validation import ID_MAX
from listening.selectors import coverage_in_words
from relevance.models import Assignment
from relevance.selectors_rankings import (
    ranking_page_candidates,
    ranking_submitted,
)
from relevance.services.campaigns import (
    LISTEN_TOLERANCE,
    AssignmentTakenBack,
    MustListenFirst,
)
from relevance.services.headphones import HeadphonesFirst
from relevance.services.rankings import ranking_save, ranking_submit
from relevance.views.json_saves import assignment_and_payload

MAX_CANDIDATES = 1000
"""The longest order a save may carry (a query's pool is a few dozen clips)."""


def ranking_page(request, assignment: Assignment):
    """The assessor's ranking page of one query (from :func:`assessors.assignment_page`)."""
    campaign = assignment.campaign
    mine = campaign.assignments.filter(assessor=request.user)
    candidates = ranking_page_candidates(assignment=assignment)
    context = {
        "assignment": assignment,
        "campaign": campaign,
        "candidates": candidates,
        "coverage": coverage_in_words(),
        "listen_in_all": len(candidates) * campaign.must_listen_seconds,
        "submitted": ranking_submitted(assignment=assignment),
        "queries_done": mine.filter(completed_at__isnull=False).count(),
        "queries_assigned": mine.count(),
        "page_constants": {"listenTolerance": LISTEN_TOLERANCE},
    }
    return render(request, "relevance/ranking.html", context)


def _order(payload) -> list[int] | None:
    order = payload.get("order") if isinstance(payload, dict) else None
    if (
        not isinstance(order, list)
        or len(order) > MAX_CANDIDATES
        or not all(type(pk) is int and 1 <= pk <= ID_MAX for pk in order)
    ):
        return None
    return order


@require_POST
@assessor_required
def ranking_save_api(request, pk: int):
    """Save the order being worked on, or (``"submit": true``) submit it as the ranking.

    JSON in (``{"order": [candidate, …], "submit": bool}``, most similar first), JSON out;
    repeating a request changes nothing.
    """
    found = assignment_and_payload(request, pk)
    if isinstance(found, JsonResponse):
        return found
    assignment, payload = found
    order = _order(payload)
    if order is None:
        return JsonResponse(
            {"detail": "Send the order as a list of candidates, most similar first."}, status=400
        )
    submit = payload.get("submit") is True
    try:
        if not submit:
            ranking_save(assignment=assignment, assessor=request.user, order=order)
            return JsonResponse({"saved": True, "submitted": False})
        update = ranking_submit(assignment=assignment, assessor=request.user, order=order)
    except AssignmentTakenBack as error:
        return JsonResponse({"detail": str(error)}, status=409)
    except HeadphonesFirst as error:
        return JsonResponse({"detail": str(error)}, status=403)
    except MustListenFirst as error:
        return JsonResponse({"detail": " ".join(error.messages), "saved": True}, status=400)
    except ValidationError as error:
        return JsonResponse({"detail": " ".join(error.messages)}, status=400)
    return JsonResponse(
        {
            "saved": True,
            "submitted": True,
            "rankings": update.rankings,
            "groups": len(update.groups),
        }
    )
