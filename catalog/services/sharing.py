"""Sharing a collection with co-organisers: read-only or full (see :mod:`catalog.selectors.access`).

Only organisers can be co-organisers, never the owner themselves; sharing again changes
the access (so the call is idempotent). The caller has already checked that the
person sharing owns the collection (``need="share"``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from catalog.models import Collection, CollectionShare
from common.roles import is_organiser
from common.usernames import user_named


def _organiser_named(username: str):
    username = (username or "").strip()
    user = user_named(username)
    if user is None or not user.is_active:
        raise ValidationError(f"No organiser is called {username!r}.")
    if not is_organiser(user):
        raise ValidationError(
            f"{user.username} is not an organiser: only organisers can be co-organisers."
        )
    return user


def collection_share(*, collection: Collection, username: str, access: str) -> CollectionShare:
    """Give organiser ``username`` ``access`` (``read`` or ``full``) to the collection."""
    if access not in dict(CollectionShare.ACCESS):
        raise ValidationError("Access is read (read-only) or full.")
    user = _organiser_named(username)
    if user.pk == collection.owner_id:
        raise ValidationError(f"{user.username} owns this collection already.")
    share, _ = CollectionShare.objects.update_or_create(
        collection=collection, user=user, defaults={"access": access}
    )
    return share


def collection_unshare(*, collection: Collection, username: str) -> bool:
    """Take the collection back from ``username``; ``False`` if it was not shared with them."""
    user = user_named(username)
    if user is None:
        return False
    deleted, _ = CollectionShare.objects.filter(collection=collection, user=user).delete()
    return bool(deleted)
