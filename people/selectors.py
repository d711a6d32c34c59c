"""Reads of people: the organiser's people (the one rule of who reaches an account) and
invitation links.

**People belong to organisers.** An assessor account is the organiser's who made it
(:class:`~people.models.Person`):

==========  ================================================================  ==============
need        who has it                                                        used by
==========  ================================================================  ==============
``read``    the organiser who made the account, and whoever a registered      People page and
            rule lets see it: the owner and full co-organisers of a           API, choosing a
            collection with a relevance campaign the account judges in        campaign's
            (:func:`relevance.selectors.assessors_of_organised_campaigns`:    assessors
            they may see it and add it to their own campaigns)
``write``   the organiser who made the account (**the default**)              invitation links
==========  ================================================================  ==============

So when two organisers share an assessor (one added the other's assessor to a campaign
on a collection they both run), both see the account and can give it work, but only the
organiser who made it can send it a new invitation link, which resets its password:
a reset is always the owner's. Read-only co-organisers reach nobody through a shared
collection. Organisers' accounts are reached by administrators only; superusers reach
every account. Whatever a user may not reach is a 404; an account one may see but not
reset is a 403 that says who can.

The apps that give organisers work with people register how they reach them
(:func:`people_reach_register`, from their ``AppConfig.ready()``): people sit below
them and never import them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from common.needs import Need, need_check
from common.roles import ASSESSOR, ORGANISER
from people.models import Invitation, token_hash

__all__ = [
    "PersonRow",
    "assessors_for_organiser",
    "campaigns_for_assessors",
    "invitation_for_token",
    "organiser_people",
    "people_campaigns_register",
    "people_for_organiser",
    "people_reach_register",
    "person_for_organiser",
]

READ_REACH: list[Callable[..., Q]] = []
"""Rules by which an organiser also sees accounts they did not make (``need="read"``),
each ``rule(user=…) → Q`` over accounts; filled by the apps' ``ready()``."""


CAMPAIGN_LISTS: list[Callable[..., Iterable]] = []
"""Listers ``lister(user=…)`` of the campaigns an organiser gives assessors work in (the
People page links them); filled by the apps' ``ready()``."""


def people_campaigns_register(lister: Callable[..., Iterable]) -> None:
    """Let the People page list the campaigns ``lister(user=organiser)`` returns."""
    if lister not in CAMPAIGN_LISTS:
        CAMPAIGN_LISTS.append(lister)


def campaigns_for_assessors(*, user) -> list:
    """The campaigns ``user`` may add assessors to (every registered lister's)."""
    return [campaign for lister in CAMPAIGN_LISTS for campaign in lister(user=user)]


def people_reach_register(rule: Callable[..., Q]) -> None:
    """Let organisers see (``read``) the accounts ``rule(user=organiser)`` selects."""
    if rule not in READ_REACH:
        READ_REACH.append(rule)


def organiser_people(*, user, need: Need = "write") -> QuerySet:
    """Accounts ``user`` reaches for ``need`` (``read`` or ``write``; see the table above)."""
    need_check(need)
    accounts = get_user_model().objects.all()
    if not user.is_authenticated:
        return accounts.none()
    if user.is_superuser:
        reached = accounts.filter(groups__name__in=[ASSESSOR, ORGANISER])
        return accounts.filter(pk__in=reached.values("pk"))
    allowed = Q(person__created_by=user)
    if need == "read":
        for rule in READ_REACH:
            allowed |= rule(user=user)
    organisers = accounts.filter(Q(groups__name=ORGANISER) | Q(is_superuser=True))
    reached = accounts.filter(allowed, groups__name=ASSESSOR).exclude(
        pk__in=organisers.values("pk")
    )
    return accounts.filter(pk__in=reached.values("pk"))


def person_for_organiser(*, user, person_id: int, need: Need = "write"):
    """The account ``person_id`` if ``user`` reaches it for ``need``; 403 if they only see
    it, else 404 (another organiser's people do not exist for them)."""
    found = organiser_people(user=user, need=need).filter(pk=person_id).first()
    if found is not None:
        return found
    seen = need != "read" and organiser_people(user=user, need="read").filter(pk=person_id)
    if seen and seen.exists():
        raise PermissionDenied(
            f"Only the organiser who made {seen.first().username}'s account (or an "
            "administrator) can send it an invitation link: a link resets its password."
        )
    raise Http404("No such person.")


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
