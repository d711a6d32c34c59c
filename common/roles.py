"""Roles of people with accounts: organisers run collections and campaigns; assessors judge.

Crowd workers have no account (they arrive through task links). Roles are Django
groups so that the admin can grant them; checks are always made on the server.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied

ORGANISER = "organiser"
ASSESSOR = "assessor"


def has_role(user, role: str) -> bool:
    if not user.is_authenticated:
        return False
    return (user.is_superuser and role == ORGANISER) or user.groups.filter(name=role).exists()


def is_organiser(user) -> bool:
    return has_role(user, ORGANISER)


def is_assessor(user) -> bool:
    return has_role(user, ASSESSOR)


def grant_role(user, role: str) -> None:
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)


def role_required(role: str):
    """View decorator: log in first, then 403 unless the user has ``role``."""

    def decorator(view):
        @wraps(view)
        @login_required
        def wrapped(request, *args, **kwargs):
            if not has_role(request.user, role):
                raise PermissionDenied(f"This page is for the {role} role.")
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


organiser_required = role_required(ORGANISER)
assessor_required = role_required(ASSESSOR)
