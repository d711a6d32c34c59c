"""Unguessable tokens: the parts of URLs and keys nobody can guess or count through."""

from __future__ import annotations

import secrets


def url_token() -> str:
    """24 URL-safe characters (18 random bytes): a task link, a task's key, a trial's key."""
    return secrets.token_urlsafe(18)
