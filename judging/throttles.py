"""Throttling of ``POST /api/token/``: password guessing is slowed, per address and per account.

Counts live in the project's cache, which is the Redis every process already shares
(``CACHES`` in :mod:`config.settings`), so several gunicorn workers, or several
machines, count together. Rates come from ``EARSHOT_TOKEN_RATE_IP`` and
``EARSHOT_TOKEN_RATE_USER`` (default 10 and 5 attempts a minute). If the cache cannot be
reached the attempt is allowed and the failure logged: a Redis outage must not lock every
organiser out, and the whole site needs Redis anyway. Only the cache's errors are
forgiven: a body that cannot be parsed is the request's 400, as everywhere.
"""

from __future__ import annotations

import hashlib
import logging

from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)


class _FailOpen(SimpleRateThrottle):
    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):  # the cache (Redis) is down: count nothing, say so
            logger.warning("token throttling skipped: the cache cannot be reached", exc_info=True)
            return True


class TokenAddressThrottle(_FailOpen):
    """Token requests from one client address."""

    scope = "token_address"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenAccountThrottle(_FailOpen):
    """Token requests naming one username, from anywhere (a distributed guess of one account)."""

    scope = "token_account"

    def get_cache_key(self, request, view) -> str | None:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(username, str) or not username:
            return None  # no username: nothing to count (the request fails validation)
        # Hashed: a username may hold spaces or control characters, which cache keys must not.
        account = hashlib.sha256(username.strip().lower()[:150].encode("utf-8", "replace"))
        return self.cache_format % {"scope": self.scope, "ident": account.hexdigest()}
