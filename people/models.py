"""Invitations: a link that lets a new assessor (or organiser) set their own password.

Only a hash of the token is stored (like a password), so the database never holds a
working link. A link is single-use (``used_at``) and expires (``expires_at``); a new
invitation for the same person revokes the earlier ones.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone


def token_hash(token: str) -> str:
    """What is stored of an invitation token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Invitation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True, help_text="Used or revoked.")

    class Meta:
        db_table = "judging_invitation"  # the table of before issue 30
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"invitation of {self.user}"

    def is_usable(self, *, now=None) -> bool:
        return self.used_at is None and self.expires_at > (now or timezone.now())


class Person(models.Model):
    """Whose an account is on the organiser side: people belong to organisers.

    ``created_by`` is the organiser who made the account (``None``: an administrator on
    the command line, or an account from before people had owners that no organiser
    could be told from). The rule that reads it is
    :func:`people.selectors.organiser_people`.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="people_created",
        help_text="The organiser whose account this is: only they (and administrators) "
        "send it invitation links, which reset its password.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_person"  # the table of before issue 30

    def __str__(self) -> str:
        return f"{self.user} (of {self.created_by or 'an administrator'})"
