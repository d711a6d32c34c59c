"""Throttling of password guessing: ``POST /api/token/``, ``/login/``, the admin's login and
invitation links, per client address and per account (the canonical form of the name
typed, :mod:`common.usernames`; an invitation link's token).

Counts live in the project's cache, which is the Redis every process already shares
(``CACHES`` in :mod:`config.settings`), so several gunicorn workers, or several
machines, count together. Rates come from ``EARSHOT_TOKEN_RATE_IP``/``_USER`` and
``EARSHOT_LOGIN_RATE_IP``/``_USER`` (by default 10 and 5 token requests a minute, 20 and
5 logins a minute). If the cache cannot be reached the attempt is allowed and the failure
logged: a Redis outage must not lock every organiser out, and the whole site needs Redis
anyway. Only the cache's errors are forgiven: a body that cannot be parsed is the
request's 400, as everywhere.

The client address is :func:`common.client_address.client_address`: DRF's ``get_ident``
with ``NUM_PROXIES`` (``EARSHOT_NUM_PROXIES``: 0 means the socket's own address and
``X-Forwarded-For`` is ignored, so rotating that header gains nothing; behind one reverse
proxy set 1, the address the proxy adds), an IPv6 address counted as its /64
(``EARSHOT_IPV6_PREFIX``), so that rotating addresses within one's network gains nothing.
"""

from __future__ import annotations

import hashlib
import logging
from functools import wraps

from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

from common.client_address import client_address
from common.error_pages import too_many_attempts
from common.usernames import username_canonical

logger = logging.getLogger(__name__)


def account_key(username) -> str | None:
    """What is counted for a username: a hash of its canonical form
    (:func:`common.usernames.username_canonical`), so that every spelling of one name
    (``carol``, ``CAROL``, ``ｃａｒｏｌ``, ``𝐜𝐚𝐫𝐨𝐥``) is one count, as it is one account; a
    hash, since a name may hold spaces or control characters, which cache keys must not
    (``None``: no username, nothing to count)."""
    if not isinstance(username, str):
        return None
    canonical = username_canonical(username[:2000])  # NFKC of 2,000 characters: < 1 ms
    if not canonical:
        return None
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class _FailOpen(SimpleRateThrottle):
    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):  # the cache (Redis) is down: count nothing, say so
            what = self.scope.split("_")[0]  # "token" or "login"
            logger.warning(
                "%s throttling skipped: the cache cannot be reached", what, exc_info=True
            )
            return True


class _ByAddress(_FailOpen):
    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class TokenAddressThrottle(_ByAddress):
    """Token requests from one client address."""

    scope = "token_address"


class TokenAccountThrottle(_FailOpen):
    """Token requests naming one username, from anywhere (a distributed guess of one account)."""

    scope = "token_account"

    def get_cache_key(self, request, view) -> str | None:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        account = account_key(username)
        return account and self.cache_format % {"scope": self.scope, "ident": account}


class LoginAddressThrottle(_ByAddress):
    """Password forms (``/login/``, the admin's login, invitation links) from one address."""

    scope = "login_address"


class LoginAccountThrottle(_FailOpen):
    """Password forms for one account: the username typed, or the invitation link's token."""

    scope = "login_account"

    def __init__(self, account: str | None):
        super().__init__()
        self.account = account

    def get_cache_key(self, request, view) -> str | None:
        return self.account and self.cache_format % {"scope": self.scope, "ident": self.account}


def login_throttled(view):
    """Throttle a page's POSTs (a password form) per address and per account.

    The account is the ``username`` posted, or the page's ``token`` (an invitation link).
    A refused attempt gets the 429 page that says when to try again; the form is not read.
    """

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "POST":
            account = account_key(request.POST.get("username") or kwargs.get("token"))
            for throttle in (LoginAddressThrottle(), LoginAccountThrottle(account)):
                if not throttle.allow_request(request, None):
                    return too_many_attempts(request, wait=throttle.wait())
        return view(request, *args, **kwargs)

    return wrapped
