"""A crowd worker arrives through a campaign's task link and consents; organisers act on one.

Workers have no account: a platform id (Prolific, Mechanical Turk, or a generic
``?worker=``) names them within a campaign, and :mod:`crowd.worker_session` binds
them to the browser that first arrived with it. A platform id is not a credential:
another browser arriving with it is refused (:class:`ArrivalRefused`) and changes
nothing of that worker.

One person, many ids (issue 22): a browser already working under one id is refused
another (``OTHER_ID``) and keeps its session; a device whose worker was stopped cannot
start under a new id (``BROWSER_STOPPED``: the cookie, and failing it a keyed hash of
the client address, user agent and languages — a deterrent, which a new address or
browser defeats); and one client address makes at most
``EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR`` new ids per campaign and hour
(``TOO_MANY_IDS``).

Organisers exclude a worker (with a reason), reinstate one, or let one continue in a
new browser (:func:`worker_browser_reset`). Each action is one transaction that hands
the campaign over to evaluation once (:mod:`work.handoff` coalesces per commit).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from crowd.models import PreferenceCampaign, Worker
from crowd.services.trust import worker_locked, worker_trust_update
from work import handoff

STOP_NOTE_MAX = 2000


@dataclass(frozen=True)
class Arrival:
    """Who a task link says the worker is (see :mod:`crowd.views.tasks`)."""

    platform: str
    platform_id: str
    study_id: str = ""
    session_id: str = ""
    assignment_id: str = ""
    hit_id: str = ""
    turk_submit_to: str = ""


class ArrivalRefused(Exception):
    """A task link that may not start or resume a session in this browser."""

    OTHER_BROWSER = "other_browser"
    """The platform id belongs to a worker bound to another browser."""
    BROWSER_STOPPED = "browser_stopped"
    """This browser holds a stopped worker of the campaign and came back as someone else."""
    STOPPED = "stopped"
    """The platform id belongs to a stopped worker bound to another browser: the study
    ended for them there; here it neither starts again nor binds."""

    OTHER_ID = "other_id"
    """This browser is working under another id of the campaign, which keeps its session."""
    TOO_MANY_IDS = "too_many_ids"
    """The client address made ``EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR`` new ids in the
    last hour."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Device:
    """Keyed hashes of where an arrival comes from (``crowd.worker_session.device_of``)."""

    address_hash: str = ""
    device_hash: str = ""


def _browser_key() -> str:
    return secrets.token_urlsafe(24)


def new_ids_per_address_hour() -> int:
    return settings.EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR


def _new_id_refusal(campaign: PreferenceCampaign, device: Device) -> str | None:
    """Why this device may not start a new id in the campaign, or None."""
    workers = Worker.objects.filter(campaign=campaign).order_by()
    if device.device_hash and (
        workers.filter(device_hash=device.device_hash, status=Worker.STOPPED).exists()
    ):
        return ArrivalRefused.BROWSER_STOPPED
    if device.address_hash:
        recent = workers.filter(
            address_hash=device.address_hash, created_at__gte=timezone.now() - timedelta(hours=1)
        )
        if recent.count() >= new_ids_per_address_hour():
            return ArrivalRefused.TOO_MANY_IDS
    return None


def worker_arrive(
    *,
    campaign: PreferenceCampaign,
    arrival: Arrival,
    browser_worker: Worker | None = None,
    device: Device = Device(),
) -> Worker:
    """The worker of this platform id, bound to the arriving browser.

    ``browser_worker`` is the worker the browser's cookie already names in this
    campaign (None for a browser new to it). A new platform id creates a worker bound
    to this browser. A known one is resumed only by its own browser, or bound to this
    one if an organiser reset its binding; any other browser raises
    :class:`ArrivalRefused` (``STOPPED`` if that worker was stopped, else
    ``OTHER_BROWSER``) and changes nothing. A browser whose worker was stopped
    cannot come back under another id, nor can a browser still working under another
    id (``OTHER_ID``: it keeps that session; a finished one may start a new id, as on a
    shared computer). A new id is refused to a device whose worker was stopped and to an
    address over its hourly cap (see the module doc). The latest platform ids of a visit (study,
    session, MTurk assignment) are kept while the worker is still active.
    """
    same_person = browser_worker is not None and (
        browser_worker.platform,
        browser_worker.platform_id,
    ) == (arrival.platform, arrival.platform_id)
    if browser_worker is not None and browser_worker.status == Worker.STOPPED and not same_person:
        raise ArrivalRefused(ArrivalRefused.BROWSER_STOPPED)
    if browser_worker is not None and browser_worker.status == Worker.ACTIVE and not same_person:
        raise ArrivalRefused(ArrivalRefused.OTHER_ID)
    fields = {
        "study_id": arrival.study_id, "session_id": arrival.session_id,
        "assignment_id": arrival.assignment_id, "hit_id": arrival.hit_id,
        "turk_submit_to": arrival.turk_submit_to,
    }  # fmt: skip
    lookup = {
        "campaign": campaign,
        "platform": arrival.platform,
        "platform_id": arrival.platform_id,
    }
    worker, created = Worker.objects.filter(**lookup).first(), False
    if worker is None:
        refusal = _new_id_refusal(campaign, device)
        if refusal is not None:
            raise ArrivalRefused(refusal)
        new = {"seed": secrets.randbits(62), "browser_key": _browser_key()}
        try:
            with transaction.atomic():
                worker, created = Worker.objects.get_or_create(
                    **lookup,
                    defaults={**fields, **new, "address_hash": device.address_hash,
                              "device_hash": device.device_hash},
                )  # fmt: skip
        except IntegrityError:  # the same id arrived twice at once: the other request won
            worker, created = Worker.objects.get(**lookup), False
    if created:
        return worker
    if not same_person:
        # Bind this browser only if the worker has none (a reset, or a worker made
        # before browsers were bound); the conditional update lets one browser win.
        key = _browser_key()
        if not Worker.objects.filter(pk=worker.pk, browser_key="").update(browser_key=key):
            stopped = worker.status == Worker.STOPPED
            raise ArrivalRefused(
                ArrivalRefused.STOPPED if stopped else ArrivalRefused.OTHER_BROWSER
            )
        worker.browser_key = key
    if worker.status == Worker.ACTIVE:
        changed = {k: v for k, v in fields.items() if v and getattr(worker, k) != v}
        if changed:
            for k, v in changed.items():
                setattr(worker, k, v)
            worker.save(update_fields=list(changed))
    return worker


def worker_consent(*, worker: Worker) -> Worker:
    Worker.objects.filter(pk=worker.pk, consented_at__isnull=True).update(
        consented_at=timezone.now()
    )
    worker.refresh_from_db(fields=["consented_at"])
    return worker


def worker_end_shown(*, worker: Worker, page: str) -> None:
    """Record that ``worker`` was shown the end ``page`` (``Worker.COMPLETION``,
    ``SCREEN_OUT`` or ``NO_CONSENT``): what the approvals recommend follows what the
    person saw (issue 31). Never lowered — someone shown the completion code keeps it
    whatever happens to them next — and one conditional statement, only when it changes."""
    order = [value for value, _ in Worker.END_PAGES]
    weaker = [Worker.UNRECORDED, *order[: order.index(page)]]
    if worker.end_shown not in weaker:
        return  # this page or a stronger one was shown already: nothing to write
    Worker.objects.filter(pk=worker.pk, end_shown__in=weaker).update(end_shown=page)
    worker.end_shown = page


# --- organiser actions on one worker --------------------------------------------------


def worker_exclude(*, worker: Worker, reason: str) -> Worker:
    """Stop ``worker`` for the organiser's ``reason``: every answer excluded, slots freed.

    The worker sees the screen-out page from their next request on, and stays stopped
    until :func:`worker_reinstate`.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say why this worker is excluded.")
    if len(reason) > STOP_NOTE_MAX:
        raise ValidationError(f"The reason is longer than {STOP_NOTE_MAX} characters.")
    with transaction.atomic():
        Worker.objects.filter(pk=worker.pk).update(
            status=Worker.STOPPED,
            stop_reason=Worker.BY_ORGANISER,
            stop_note=reason,
            stopped_at=timezone.now(),
            trusted_by_organiser=False,
        )
        worker = worker_trust_update(worker=worker)
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return worker


def worker_reinstate(*, worker: Worker) -> Worker:
    """Bring a stopped worker back and vouch for them: their answers count again (those
    to examples that are not trap questions are accepted), and the automatic rules
    (trust, speed) no longer stop them. They go on where they left off."""
    with transaction.atomic():
        worker = worker_locked(worker.pk)
        if worker.status != Worker.STOPPED:
            raise ValidationError("Only a stopped worker can be reinstated.")
        full = worker.served_count >= worker.campaign.max_answers_per_worker
        Worker.objects.filter(pk=worker.pk).update(
            status=Worker.FINISHED if full else Worker.ACTIVE,
            stop_reason="",
            stop_note="",
            stopped_at=None,
            trusted_by_organiser=True,
            reinstated_unseen=True,  # told on their next visit that they may go on
        )
        worker = worker_trust_update(worker=worker)
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return worker


def worker_browser_reset(*, worker: Worker) -> Worker:
    """Unbind ``worker`` from their browser: that browser's session ends, and the next
    arrival with their platform id (from any browser) binds. For a worker who lost
    their browser; their answers, status and trust are untouched. Their device's hash
    is forgotten too, so a stopped worker's device (or another person's with the same
    address and browser) may start a new id again."""
    Worker.objects.filter(pk=worker.pk).update(browser_key="", device_hash="")
    worker.refresh_from_db(fields=["browser_key", "device_hash"])
    return worker
