"""Which crowd worker a request comes from: a signed cookie per campaign, set on arrival.

Workers have no account, and a platform id is no credential (anyone may know a
``PROLIFIC_PID``). Arriving through a campaign's task link with a platform id creates
the :class:`~crowd.models.Worker` and binds it to that browser: the cookie holds the
worker's id and the worker's ``browser_key`` (a secret made for that browser), signed
with the project's secret and salted with the campaign's token, so it cannot be forged
or moved to another campaign. Another browser arriving with the same platform id has
no key and gets no session (:func:`crowd.services.workers.worker_arrive`);
an organiser who empties the key lets the worker's next arrival bind a new browser,
and the old browser's cookie stops working.

Mechanical Turk shows the task in an iframe on mturk.com, where browsers send only
``SameSite=None; Secure`` cookies; over HTTPS the cookie is set that way, over plain
HTTP (development) it falls back to ``SameSite=Lax``.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare

from common.client_address import client_address
from common.validation import parse_id
from crowd.models import Worker
from crowd.selectors import worker_with_campaign
from crowd.services.workers import Device

COOKIE_PREFIX = "earshot_w_"
COOKIE_MAX_AGE = 30 * 24 * 3600

MTURK_SUBMIT_ORIGINS = ("https://www.mturk.com", "https://workersandbox.mturk.com")
"""Where an MTurk completion may be posted (``settings.EARSHOT_MTURK_SUBMIT_ORIGINS``)."""


def mturk_submit_origins() -> tuple[str, ...]:
    return tuple(getattr(settings, "EARSHOT_MTURK_SUBMIT_ORIGINS", MTURK_SUBMIT_ORIGINS))


def _cookie_name(campaign_id: int) -> str:
    return f"{COOKIE_PREFIX}{campaign_id}"


def _salt(token: str) -> str:
    return f"earshot.worker.{token}"


def worker_cookie_set(response, request, worker: Worker) -> None:
    campaign = worker.campaign
    secure = request.is_secure()
    response.set_signed_cookie(
        _cookie_name(campaign.pk),
        f"{worker.pk}:{worker.browser_key}",
        salt=_salt(campaign.token),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        secure=secure,
        samesite="None" if secure else "Lax",
    )


def worker_from_request(request, token: str) -> Worker | None:
    """The worker this browser is bound to in the campaign with task-link ``token``, or None.

    One statement, which also reads the worker's campaign (``worker.campaign``): the
    cookie's name carries the campaign's id and its signature the campaign's token, so
    the worker, the campaign and the token are checked together. Without a valid
    cookie nothing is read.
    """
    salt = _salt(token)
    for name in request.COOKIES:
        campaign_id = name.removeprefix(COOKIE_PREFIX)
        if campaign_id == name or parse_id(campaign_id) is None:
            continue
        value = request.get_signed_cookie(name, default=None, salt=salt, max_age=COOKIE_MAX_AGE)
        pk, _, key = (value or "").partition(":")
        if parse_id(pk) is None or not key:
            continue  # another campaign's cookie (its token signed it) or a forged one
        worker = worker_with_campaign(int(pk), campaign_id=int(campaign_id), token=token)
        if worker is not None and constant_time_compare(worker.browser_key, key):
            return worker
        return None
    return None


def _keyed(purpose: str, text: str) -> str:
    key = f"earshot.crowd.{purpose}.{settings.SECRET_KEY}".encode()
    return hmac.new(key, text.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def device_of(request) -> Device:
    """Where a request comes from, as keyed hashes (no address is stored in the clear).

    The address is the client's as every count per address sees it
    (:func:`common.client_address.client_address`: ``EARSHOT_NUM_PROXIES``, an IPv6
    address as its /64, ``EARSHOT_IPV6_PREFIX``); the device adds the user agent and accepted languages — features a browser sends on
    every request and keeps across cookie clearing. It is a **deterrent**: a new
    address, browser or language setting makes another device, and people behind one
    address with the same browser share one (an organiser's "new browser" reset of the
    stopped worker frees it).
    """
    address = client_address(request)
    headers = request.headers
    features = "\n".join(
        (address, headers.get("User-Agent", "")[:500], headers.get("Accept-Language", "")[:200])
    )
    return Device(
        address_hash=_keyed("address", address) if address else "",
        device_hash=_keyed("device", features) if address else "",
    )


def consent_token(worker: Worker) -> str:
    """Stands in for the CSRF token on the consent form (see crowd_tasks)."""
    return signing.dumps(worker.pk, salt=f"earshot.consent.{worker.campaign.token}")


def consent_token_valid(worker: Worker, token: str) -> bool:
    try:
        return signing.loads(token, salt=f"earshot.consent.{worker.campaign.token}") == worker.pk
    except signing.BadSignature:
        return False
