"""Which crowd worker a request comes from: a signed cookie per campaign, set on arrival.

Workers have no account. Arriving through a campaign's task link with a platform id
creates (or finds) the :class:`~judging.models.Worker` and sets a cookie holding the
worker's id, signed with the project's secret and salted with the campaign's token, so
it cannot be forged or moved to another campaign.

Mechanical Turk shows the task in an iframe on mturk.com, where browsers send only
``SameSite=None; Secure`` cookies; over HTTPS the cookie is set that way, over plain
HTTP (development) it falls back to ``SameSite=Lax``.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db.models import Q

from judging.models import PreferenceCampaign, PreferenceTask, Worker

COOKIE_PREFIX = "earshot_w_"
COOKIE_MAX_AGE = 30 * 24 * 3600

MTURK_SUBMIT_ORIGINS = ("https://www.mturk.com", "https://workersandbox.mturk.com")
"""Where an MTurk completion may be posted (``settings.EARSHOT_MTURK_SUBMIT_ORIGINS``)."""


def mturk_submit_origins() -> tuple[str, ...]:
    return tuple(getattr(settings, "EARSHOT_MTURK_SUBMIT_ORIGINS", MTURK_SUBMIT_ORIGINS))


def _cookie_name(campaign_id: int) -> str:
    return f"{COOKIE_PREFIX}{campaign_id}"


def _salt(campaign: PreferenceCampaign) -> str:
    return f"earshot.worker.{campaign.token}"


def worker_cookie_set(response, request, worker: Worker) -> None:
    campaign = worker.campaign
    secure = request.is_secure()
    response.set_signed_cookie(
        _cookie_name(campaign.pk),
        str(worker.pk),
        salt=_salt(campaign),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        secure=secure,
        samesite="None" if secure else "Lax",
    )


def worker_from_request(request, campaign: PreferenceCampaign) -> Worker | None:
    value = request.get_signed_cookie(
        _cookie_name(campaign.pk), default=None, salt=_salt(campaign), max_age=COOKIE_MAX_AGE
    )
    if value is None or not value.isdigit():
        return None
    return (
        Worker.objects.filter(pk=int(value), campaign=campaign).select_related("campaign").first()
    )


def clip_served_to_worker(request, clip) -> bool:
    """True if a worker of this request was served an example that holds ``clip``."""
    for name in request.COOKIES:
        if not name.startswith(COOKIE_PREFIX) or not name[len(COOKIE_PREFIX) :].isdigit():
            continue
        campaign = PreferenceCampaign.objects.filter(pk=int(name[len(COOKIE_PREFIX) :])).first()
        if campaign is None or campaign.collection_id != clip.collection_id:
            continue
        worker = worker_from_request(request, campaign)
        if worker is None:
            continue
        if (
            PreferenceTask.objects.filter(worker=worker)
            .filter(Q(example__query__clip=clip) | Q(example__items__clip=clip))
            .exists()
        ):
            return True
    return False


def consent_token(worker: Worker) -> str:
    """Stands in for the CSRF token on the consent form (see crowd_tasks)."""
    return signing.dumps(worker.pk, salt=f"earshot.consent.{worker.campaign.token}")


def consent_token_valid(worker: Worker, token: str) -> bool:
    try:
        return signing.loads(token, salt=f"earshot.consent.{worker.campaign.token}") == worker.pk
    except signing.BadSignature:
        return False
