"""Reads of people: an organiser's people (the rule is :func:`catalog.selectors.organiser_people`)
and invitation links."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from catalog.selectors import organiser_people
from common.roles import ASSESSOR, ORGANISER
from people.models import Invitation, token_hash

__all__ = ["PersonRow", "assessors_for_organiser", "invitation_for_token", "people_for_organiser"]


def invitation_for_token(*, token: str) -> Invitation | None:
    """The invitation of a link's token (used, expired or not), or ``None``."""
    if not token or len(token) > 100:
        return None
    return Invitation.objects.select_related("user").filter(token_hash=token_hash(token)).first()


def assessors_for_organiser(*, user) -> QuerySet:
    """The assessors ``user`` may add to a campaign (their people with the assessor role), by username."""
    return (
        organiser_people(user=user, need="read").filter(groups__name=ASSESSOR).order_by("username")
    )


@dataclass(frozen=True)
class PersonRow:
    user: object
    role: str
    can_log_in: bool
    invitation_expires_at: object | None
    """When the person's open invitation link expires (``None``: no open link)."""
    campaigns: int
    can_invite: bool
    """Whether ``user`` may send them an invitation link (which resets their password)."""


def people_for_organiser(*, user) -> list[PersonRow]:
    """The people ``user`` reaches (administrators: every assessor and organiser) with their
    state, by username."""
    now = timezone.now()
    open_links = Invitation.objects.filter(used_at__isnull=True, expires_at__gt=now)
    owned = set(organiser_people(user=user, need="write").values_list("pk", flat=True))
    accounts = (
        organiser_people(user=user, need="read")
        .annotate(campaign_count=Count("relevance_campaigns", distinct=True))
        .prefetch_related("groups", Prefetch("invitations", queryset=open_links, to_attr="open"))
        .order_by("username")
    )
    rows = []
    for person in accounts:
        names = {g.name for g in person.groups.all()}
        rows.append(
            PersonRow(
                user=person,
                role=ORGANISER if ORGANISER in names or person.is_superuser else ASSESSOR,
                can_log_in=person.has_usable_password() and person.is_active,
                invitation_expires_at=max((i.expires_at for i in person.open), default=None),
                campaigns=person.campaign_count,
                can_invite=person.pk in owned,
            )
        )
    return rows
