"""What every JSON save of an assessor's page starts with: their own assignment and the
request's JSON, or the one error answer for each way that fails."""

from __future__ import annotations

from django.http import Http404, JsonResponse

from common.json_body import BadJson, json_body
from relevance import selectors
from relevance.models import Assignment


def assignment_and_payload(request, pk: int) -> tuple[Assignment, object] | JsonResponse:
    """``(assignment, payload)``, or a 409 (the assignment is not the assessor's any more:
    taken back, or they left the campaign) or a 400 (the body is not JSON)."""
    try:
        assignment = selectors.assignment_for_assessor(user=request.user, assignment_id=pk)
    except Http404:
        return JsonResponse({"detail": "This query is no longer assigned to you."}, status=409)
    try:
        return assignment, json_body(request.body or b"{}")
    except BadJson:
        return JsonResponse({"detail": "The request is not JSON."}, status=400)
