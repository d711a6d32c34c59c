"""Tiny helpers that read settings from the environment and fail loudly.

Each helper raises ``ImproperlyConfigured`` naming the variable and the bad value,
so that a typo in a deployment stops the process at start-up instead of running
with a silently wrong setting (after healthchecks' ``envbool``/``envint``).
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of {sorted(_TRUE | _FALSE - {''})}"
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, default: str, *, schemes: tuple[str, ...]) -> str:
    raw = os.environ.get(name, default)
    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a URL with one of the schemes {', '.join(schemes)}"
        )
    return raw


def redis_cache_location(url: str) -> str:
    """``REDIS_URL`` as redis-py (Django's Redis cache) writes it: ``redis+socket://PATH``
    (Celery's unix-socket form) becomes ``unix://PATH``.

    >>> redis_cache_location("redis+socket:///srv/var/redis.sock")
    'unix:///srv/var/redis.sock'
    >>> redis_cache_location("redis://redis:6379/0")
    'redis://redis:6379/0'
    """
    if url.startswith("redis+socket://"):
        return "unix://" + url.removeprefix("redis+socket://")
    return url


def secret_key(*, debug: bool, var_dir: Path) -> str:
    """``SECRET_KEY`` from the environment; generated into ``var/`` for local use only."""
    raw = os.environ.get("SECRET_KEY")
    if raw:
        if len(raw) < 32:
            raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters long")
        return raw
    if not debug:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    path = var_dir / "secret_key"
    if not path.exists():
        _secret_key_create(path)
    key = path.read_text().strip()
    if len(key) < 32:
        raise ImproperlyConfigured(f"{path} holds no usable key: delete it and start again")
    return key


def _secret_key_create(path: Path) -> None:
    """Write a new key to ``path`` unless one is there, atomically: whoever reads the file
    reads a whole key, and every process started at once reads the same one.

    The key is written and flushed to a temporary file of the same folder, which is then
    hard-linked as ``path``: the link either appears whole or fails because another
    process linked its own first (``FileExistsError``: that one is kept). ``exists()``
    then ``write_text`` let a second process read the file while it was still empty
    (issue 28: both passes of ``make test`` started at once on a fresh clone). On a file
    system without hard links the temporary file is renamed instead (whole too, but two
    processes starting together may then read different keys once).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=".secret_key-", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w") as handle:  # mkstemp's file is private (0600)
            handle.write(secrets.token_urlsafe(50))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process made it first: theirs is the key
        except OSError:
            if not path.exists():
                os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)


def email_settings(url: str) -> dict:
    """Django's e-mail settings from ``EMAIL_URL``: ``smtp://user:password@host:587`` (with
    STARTTLS), ``smtps://…:465`` (TLS from the start), ``smtp+plain://…`` (no encryption,
    a local relay), or ``console://`` (print to the log).

    >>> email_settings("smtp://me%40x.org:pw@mail.x.org:587")["EMAIL_HOST_USER"]
    'me@x.org'
    >>> email_settings("console://")["EMAIL_BACKEND"]
    'django.core.mail.backends.console.EmailBackend'
    """
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme not in ("smtp", "smtps", "smtp+plain") or not parts.hostname:
        raise ImproperlyConfigured(
            f"EMAIL_URL={url!r} is not smtp://, smtps://, smtp+plain:// (with a host) or console://"
        )
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or {"smtps": 465, "smtp": 587}.get(parts.scheme, 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp",
        "EMAIL_USE_SSL": parts.scheme == "smtps",
        "EMAIL_TIMEOUT": 10,
    }
