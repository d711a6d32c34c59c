"""Reads of people: the assessors an organiser can add to campaigns, and invitation links."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from judging.models import Invitation
from judging.models.people import token_hash
from judging.roles import ASSESSOR, ORGANISER

__all__ = ["PersonRow", "assessor_accounts", "invitation_for_token", "people_for_organiser"]


def invitation_for_token(*, token: str) -> Invitation | None:
    """The invitation of a link's token (used, expired or not), or ``None``."""
    if not token or len(token) > 100:
        return None
    return Invitation.objects.select_related("user").filter(token_hash=token_hash(token)).first()


def assessor_accounts() -> QuerySet:
    """Every account with the assessor role, by username (who can be added to a campaign)."""
    return get_user_model().objects.filter(groups__name=ASSESSOR).order_by("username").distinct()


@dataclass(frozen=True)
class PersonRow:
    user: object
    role: str
    can_log_in: bool
    invitation_expires_at: object | None
    """When the person's open invitation link expires (``None``: no open link)."""
    campaigns: int


def people_for_organiser(*, user) -> list[PersonRow]:
    """Assessors (and, for an administrator, organisers) with their state, by username."""
    roles = [ASSESSOR, ORGANISER] if user.is_superuser else [ASSESSOR]
    now = timezone.now()
    open_links = Invitation.objects.filter(used_at__isnull=True, expires_at__gt=now)
    accounts = (
        get_user_model()
        .objects.filter(groups__name__in=roles)
        .distinct()
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
            )
        )
    return rows
