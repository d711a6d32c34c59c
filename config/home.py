"""The site's front door, ``/``: each person lands where their work is — an organiser on
their collections (catalog), an assessor on their judging (relevance). It sits above
every app, as the URLconf does."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect

from common.roles import is_assessor, is_organiser
from relevance.views.assessors import assessor_home


def home(request):
    """Send each person to where their work is."""
    if not request.user.is_authenticated:
        return redirect("login")
    if is_organiser(request.user):
        return redirect("catalog:collections")
    if is_assessor(request.user):
        return assessor_home(request)
    raise PermissionDenied("Your account has no role yet; ask an organiser for one.")
