"""Store how often each crowd worker answers the same as the others, and the opposite,
as estimated over a whole campaign (issue 29).

The satisfaction mapping's recompute (:mod:`evaluation.services.mappings`) fits every
worker of a campaign together (:func:`evaluation.core.worker_agreement.agreement_fit`,
over :func:`crowd.selectors.agreement.campaign_agreement_answers`) and hands the rates
back here: the workers page shows them, and each worker's next trust checkpoint weighs
the others' answers by them (:func:`crowd.selectors.agreement.worker_agreement`).
Storing never stops anyone: only a checkpoint does (no oracle, issue 22).
"""

from __future__ import annotations

from collections.abc import Mapping

from crowd.models import PreferenceCampaign, Worker
from evaluation.core.worker_agreement import WorkerAgreement

AGREEMENT_FIELDS = [
    "agreement_same",
    "agreement_opposite",
    "agreement_compared",
    "agreement_opposite_ordinary",
    "agreement_compared_ordinary",
]
"""The worker's fields an estimate writes (:class:`~evaluation.core.worker_agreement.WorkerAgreement`)."""


def worker_agreement_set(worker: Worker, fit: WorkerAgreement) -> None:
    """Put ``fit`` on ``worker`` (unsaved): the :data:`AGREEMENT_FIELDS`."""
    worker.agreement_same, worker.agreement_opposite = fit.same, fit.opposite
    worker.agreement_compared = fit.compared
    worker.agreement_opposite_ordinary = fit.opposite_ordinary
    worker.agreement_compared_ordinary = fit.compared_ordinary


def workers_agreement_store(
    *, campaign: PreferenceCampaign, fits: Mapping[int, WorkerAgreement]
) -> int:
    """Write each worker's rates (workers of ``campaign`` only); returns how many."""
    workers = list(Worker.objects.filter(campaign=campaign, pk__in=list(fits)).order_by())
    for worker in workers:
        worker_agreement_set(worker, fits[worker.pk])
    Worker.objects.bulk_update(workers, AGREEMENT_FIELDS, batch_size=500)
    return len(workers)
