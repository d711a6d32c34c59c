"""Account names: one canonical form for creating an account, logging in and throttling.

Unicode writes one name in many ways: ``ｂｏｂ`` (fullwidth), ``𝐛𝐨𝐛`` (mathematical bold),
``BOB`` and ``bob`` are one name to a person. Django's login form reads a name in its
NFKC form while the throttles counted it as typed (lower-cased), so rotating spellings
gave an attacker a fresh count of guesses each time, and an organiser could create an
assessor ``ａｓｓｅｓｓｏｒ`` listed beside the real ``assessor`` (issue 28, item 1).

The **canonical form** is Unicode's NFKC case fold (NFKC, then ``str.casefold``, then
NFKC again: Unicode's ``toNFKC_Casefold`` without its removal of default-ignorable
characters, which the username rule refuses anyway), with the whitespace around it cut.
Every account name is *stored* in this form, so the database's unique constraint on
``auth_user.username`` is the rule "no two accounts with one canonical name", even
between two requests at once:

- :func:`user_named` finds an account from what a person typed (the login page, the
  admin's login, ``POST /api/token/`` through :class:`people.auth_backend.CanonicalUsernameBackend`;
  sharing, ``manage.py invite``);
- :func:`username_canonical_on_save` (a ``pre_save`` receiver on the user model,
  connected in :mod:`people.apps`) stores the canonical form whoever creates the
  account — the People page, the admin, ``createsuperuser``, ``create_user`` — and
  refuses a name another account already has in that form;
- the throttles count the canonical form (:func:`common.throttles.account_key`).

Accounts made before this rule whose names are lookalikes of each other (``Carol`` and
``carol``) were left as they were by the migration ``0030_canonical_usernames``, which
renamed every other account to its canonical form and logged each pair it left: each such
account still logs in with its exact name (:func:`user_named` tries the exact name first)
and both share one throttle count; an administrator renames one of them in ``/admin/``.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError

MAX_LENGTH = 150
"""``auth_user.username``'s length."""


def username_canonical(name: str) -> str:
    """The one form of an account name that is stored, looked up and counted.

    >>> username_canonical("  Ｃａｒｏｌ ")
    'carol'
    >>> username_canonical("𝐜𝐚𝐫𝐨𝐥") == username_canonical("CAROL") == "carol"
    True
    >>> username_canonical("Straße")
    'strasse'
    """
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return unicodedata.normalize("NFKC", folded).strip()


def username_problem(canonical: str) -> str | None:
    """Why ``canonical`` cannot be an account name, or ``None``.

    >>> username_problem("ada.lovelace@example.org")
    >>> username_problem("ada lovelace")
    'a username holds only letters, digits and @ . + - _ (no spaces)'
    """
    if not canonical:
        return "choose a username"
    if len(canonical) > MAX_LENGTH:
        return f"a username has at most {MAX_LENGTH} characters"
    try:
        UnicodeUsernameValidator()(canonical)
    except ValidationError:
        return "a username holds only letters, digits and @ . + - _ (no spaces)"
    return None


def username_taken_message(typed: str, canonical: str) -> str:
    """What a person who chose an existing name (in any spelling) is told."""
    if typed.strip() == canonical:
        return f"The username {canonical!r} is taken: choose another."
    return (
        f"The username {typed.strip()!r} is taken: it reads as {canonical!r}, the name of "
        "an existing account. Choose another."
    )


def user_named(name: str | None):
    """The account a person means by ``name`` (any spelling), or ``None``.

    The name as typed (NFKC, as Django's login form reads it) is tried first, for an
    account made before names were canonical whose name is a lookalike of another's,
    then the canonical form. One statement.
    """
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        return None  # (PostgreSQL refuses NUL in any text it compares)
    typed = unicodedata.normalize("NFKC", name.strip())
    canonical = username_canonical(name)
    if len(typed) > MAX_LENGTH and len(canonical) > MAX_LENGTH:
        return None  # nothing that long is stored: no statement at all
    found = {
        user.username: user
        for user in get_user_model().objects.filter(username__in={typed, canonical})
    }
    return found.get(typed) or found.get(canonical)


def username_canonical_on_save(sender, instance, raw=False, update_fields=None, **kwargs):
    """Store an account's name in its canonical form, whoever saves it (``pre_save``).

    Refuses (``ValidationError``, which ``createsuperuser`` prints as its error) a name
    whose canonical form another account has. A save that does not write the name, and
    an account made before this rule that keeps its lookalike name, cost no statement
    and change nothing.
    """
    if update_fields is not None and "username" not in update_fields:
        return
    name = instance.get_username() or ""
    canonical = username_canonical(name)
    if canonical == name:
        return
    users = type(instance)._default_manager
    if instance.pk is not None and users.filter(pk=instance.pk, username=name).exists():
        return  # an old lookalike name, unchanged (see the module)
    if users.filter(username=canonical).exclude(pk=instance.pk).exists():
        raise ValidationError(username_taken_message(name, canonical))
    setattr(instance, instance.USERNAME_FIELD, canonical)
