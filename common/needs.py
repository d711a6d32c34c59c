"""What a request asks of the one access rule: to read, to write or to share.

The words every app's access rule speaks (:mod:`catalog.selectors.access` for a
collection and all in it, :mod:`people.selectors` for accounts): a page that only shows
needs ``read``, every form and write needs ``write`` (**the default**: a caller that
forgets to say ``read`` refuses too much, never too little), choosing who a collection is
shared with needs ``share``.
"""

from __future__ import annotations

from typing import Literal

Need = Literal["read", "write", "share"]
NEEDS: tuple[Need, ...] = ("read", "write", "share")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def need_for_method(method: str) -> Need:
    """``read`` for GET/HEAD/OPTIONS, else ``write``: an API view is one operation per method."""
    return "read" if method in SAFE_METHODS else "write"


def need_check(need: str) -> None:
    """Refuse a ``need`` that is none of :data:`NEEDS` (a programming error, not a request's)."""
    if need not in NEEDS:
        raise ValueError(f"need must be one of {NEEDS}, got {need!r}")
