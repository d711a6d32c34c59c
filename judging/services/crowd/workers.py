"""A crowd worker arrives through a campaign's task link, and consents.

Workers have no account: a platform id (Prolific, Mechanical Turk, or a generic
``?worker=``) names them within a campaign; :mod:`judging.worker_session` keeps them
in a signed cookie.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from judging.models import PreferenceCampaign, Worker


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


def worker_arrive(*, campaign: PreferenceCampaign, arrival: Arrival) -> Worker:
    """The worker of this platform id (created on first arrival); platform ids of the
    latest visit (study, session, MTurk assignment) are kept."""
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
                **lookup, defaults={**fields, "seed": secrets.randbits(62)}
            )
    except IntegrityError:  # the same worker arrived twice at once
        worker, created = Worker.objects.get(**lookup), False
    if not created:
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
