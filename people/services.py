"""People with accounts: organisers create assessors, and invitation links set passwords.

An organiser creates an **assessor** account with a password they choose, or without
one and with an **invitation link** that lets the person set their own. Only an
administrator (superuser) creates **organisers**, or invites someone who is already an
organiser or administrator: otherwise an invitation link would let one organiser take
over another's account.

Invitation tokens are 256-bit random strings; only their SHA-256 is stored. A link
works once and for :data:`INVITATION_DAYS` days; a new invitation for a person revokes
their earlier ones.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from smtplib import SMTPException

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from common.roles import ASSESSOR, ORGANISER, grant_role, is_assessor, is_organiser
from common.usernames import (
    user_named,
    username_canonical,
    username_problem,
    username_taken_message,
)
from people.models import Invitation, Person, token_hash

logger = logging.getLogger(__name__)

INVITATION_DAYS = getattr(settings, "EARSHOT_INVITATION_DAYS", 7)


class InvitationGone(Exception):
    """The invitation was used (or replaced by a newer one) or has expired."""


@dataclass(frozen=True)
class NewInvitation:
    invitation: Invitation
    token: str
    """The secret part of the link, shown once and never stored."""

    @property
    def path(self) -> str:
        return reverse("people:invitation", args=[self.token])


def _may_invite(*, by, user) -> None:
    """Organisers invite their own assessors only: a link sets a password, so inviting
    someone is taking over their account until they set it again. ``by=None`` is the
    command line (``manage.py invite``), run by whoever administers the server. Pages and
    APIs find the person through :func:`people.selectors.person_for_organiser`
    first (another organiser's people are a 404 there); this is the same rule again, so
    that no caller can forget it."""
    if by is None or by.is_superuser:
        return
    if user.is_superuser or is_organiser(user):
        raise PermissionDenied("Only an administrator can invite an organiser or administrator.")
    if not is_assessor(user):
        raise PermissionDenied("Organisers invite assessors only; ask an administrator.")
    if not Person.objects.filter(user=user, created_by=by).exists():
        raise PermissionDenied(
            f"Only the organiser who made {user.username}'s account (or an administrator) "
            "can send it an invitation link."
        )


def person_create(
    *,
    created_by,
    username: str,
    email: str = "",
    role: str = ASSESSOR,
    password: str | None = None,
):
    """Create an account with ``role``; with ``password`` it can log in at once.

    The account's name is the canonical form of ``username`` (:mod:`common.usernames`:
    ``Ａｄａ`` becomes ``ada``); a name that is another account's in any spelling is
    refused with a message that says so. Without a password the account cannot log in until its invitation link is used
    (:func:`invitation_create`).
    """
    if role not in (ASSESSOR, ORGANISER):
        raise ValidationError("The role is assessor or organiser.")
    if role == ORGANISER and created_by is not None and not created_by.is_superuser:
        raise PermissionDenied("Only an administrator can create organisers.")
    User = get_user_model()
    typed = username or ""
    username = username_canonical(typed)
    problem = username_problem(username)
    if problem:
        raise ValidationError(problem[0].upper() + problem[1:] + ".")
    if user_named(username) is not None:
        raise ValidationError(username_taken_message(typed, username))
    email = (email or "").strip()
    if email:
        validate_email(email)
    user = User(username=username, email=email)
    if password:
        password_validation.validate_password(password, user)
        user.set_password(password)
    else:
        user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
            grant_role(user, role)
            Person.objects.create(user=user, created_by=created_by)
    except IntegrityError:  # the same name created a moment ago by another request
        raise ValidationError(username_taken_message(typed, username)) from None
    return user


def invitation_create(*, user, created_by, days: int | None = None) -> NewInvitation:
    """A new single-use link for ``user`` to set their password; earlier ones stop working."""
    _may_invite(by=created_by, user=user)
    days = INVITATION_DAYS if days is None else days
    if not 1 <= days <= 90:
        raise ValidationError("An invitation lasts between 1 and 90 days.")
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        Invitation.objects.filter(user=user, used_at__isnull=True).update(used_at=now)
        invitation = Invitation.objects.create(
            user=user,
            token_hash=token_hash(token),
            created_by=created_by,
            expires_at=now + timedelta(days=days),
        )
    return NewInvitation(invitation=invitation, token=token)


def invitation_accept(*, invitation: Invitation, password: str, now=None):
    """Set the invited person's password and use up the invitation; returns the user.

    The claim is one conditional ``UPDATE`` (unused, not expired), so two submits of
    the same link at once set the password once; the loser gets :class:`InvitationGone`.
    """
    now = now or timezone.now()
    user = invitation.user
    password_validation.validate_password(password, user)
    with transaction.atomic():
        claimed = Invitation.objects.filter(
            pk=invitation.pk, used_at__isnull=True, expires_at__gt=now
        ).update(used_at=now)
        if not claimed:
            raise InvitationGone
        user.set_password(password)
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    return user


def invitation_email_send(*, new: NewInvitation, url: str, by) -> str | None:
    """E-mail the link of ``new`` to the person, if their account has an address and the
    server can send e-mail (``EMAIL_URL``); the address it went to, else ``None``. The link
    is shown to the organiser either way (to copy), and a failed send is not an error."""
    person = new.invitation.user
    if not person.email or not settings.EARSHOT_EMAIL_ENABLED:
        return None
    inviter = (by.get_full_name() or by.get_username()) if by is not None else "An organiser"
    body = (
        f"Hello {person.get_username()},\n\n{inviter} invited you to judge music with Earshot.\n"
        f"Open this link to choose your password (it works once, until "
        f"{new.invitation.expires_at:%Y-%m-%d}):\n\n{url}\n\n"
        "If you did not expect this, ignore this message.\n"
    )
    try:
        send_mail("Your Earshot invitation", body, None, [person.email])
    except (OSError, SMTPException):
        logger.warning("the invitation e-mail to %s could not be sent", person.email, exc_info=True)
        return None
    return person.email
