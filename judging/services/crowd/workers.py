"""A crowd worker arrives through a campaign's task link and consents; organisers act on one.

Workers have no account: a platform id (Prolific, Mechanical Turk, or a generic
``?worker=``) names them within a campaign, and :mod:`judging.worker_session` binds
them to the browser that first arrived with it. A platform id is not a credential:
another browser arriving with it is refused (:class:`ArrivalRefused`) and changes
nothing of that worker.

Organisers exclude a worker (with a reason), reinstate one, or let one continue in a
new browser (:func:`worker_browser_reset`). Each action is one transaction that hands
the campaign over to evaluation once (:mod:`judging.handoff` coalesces per commit).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from judging import handoff
from judging.models import PreferenceCampaign, Worker
from judging.services.crowd.trust import worker_locked, worker_trust_update

STOP_NOTE_MAX = 2000


@dataclass(frozen=True)
class Arrival:
    """Who a task link says the worker is (see :mod:`judging.views.crowd_tasks`)."""

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

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _browser_key() -> str:
    return secrets.token_urlsafe(24)


def worker_arrive(
    *, campaign: PreferenceCampaign, arrival: Arrival, browser_worker: Worker | None = None
) -> Worker:
    """The worker of this platform id, bound to the arriving browser.

    ``browser_worker`` is the worker the browser's cookie already names in this
    campaign (None for a browser new to it). A new platform id creates a worker bound
    to this browser. A known one is resumed only by its own browser, or bound to this
    one if an organiser reset its binding; any other browser raises
    :class:`ArrivalRefused` (``STOPPED`` if that worker was stopped, else
    ``OTHER_BROWSER``) and changes nothing. A browser whose worker was stopped
    cannot come back under another id. The latest platform ids of a visit (study,
    session, MTurk assignment) are kept while the worker is still active.
    """
    same_person = browser_worker is not None and (
        browser_worker.platform,
        browser_worker.platform_id,
    ) == (arrival.platform, arrival.platform_id)
    if browser_worker is not None and browser_worker.status == Worker.STOPPED and not same_person:
        raise ArrivalRefused(ArrivalRefused.BROWSER_STOPPED)
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
    try:
        with transaction.atomic():
            worker, created = Worker.objects.get_or_create(
                **lookup,
                defaults={**fields, "seed": secrets.randbits(62), "browser_key": _browser_key()},
            )
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
        )
        worker = worker_trust_update(worker=worker)
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return worker


def worker_browser_reset(*, worker: Worker) -> Worker:
    """Unbind ``worker`` from their browser: that browser's session ends, and the next
    arrival with their platform id (from any browser) binds. For a worker who lost
    their browser; their answers, status and trust are untouched."""
    Worker.objects.filter(pk=worker.pk).update(browser_key="")
    worker.refresh_from_db(fields=["browser_key"])
    return worker
