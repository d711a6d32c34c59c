"""What evaluation does with each change judging hands over (:mod:`work.handoff`).

One function per handoff task, keyed by the task's name in :data:`RECEIVERS`, which
the app registers with :func:`work.kinds.receiver_register`: the hand-off tasks of
:mod:`work.tasks` call them when a message arrives, and work's sweep
(:func:`work.handoff.pending_handoffs_hand_over`) calls the same ones for a change that
could not be sent (a :class:`~work.models.PendingHandoff`). Each only *asks* for a
coalesced recompute, so receiving a change twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable

from catalog.published import Collection
from crowd.published import PreferenceCampaign
from evaluation.services.estimates import campaign_estimate_request, lowcost_campaigns_request
from evaluation.services.mappings import campaign_mapping_request
from evaluation.services.results import collection_results_request
from relevance.published import RelevanceCampaign
from work.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
)


def preference_answers_received(target_id: int) -> bool:
    """The accepted answers of preference campaign ``target_id`` changed: one coalesced
    recompute of its mapping (a burst of answers joins the one pending). Whether this
    call enqueued it."""
    campaign = PreferenceCampaign.objects.filter(pk=target_id).first()
    if campaign is None:
        return False  # deleted meanwhile
    return campaign_mapping_request(campaign=campaign)


def collection_change_received(target_id: int) -> bool:
    """Collection ``target_id``'s judgments or runs changed: one coalesced recompute of its
    leaderboards and reliability studies, and one of each open low-cost campaign's estimates."""
    collection = Collection.objects.filter(pk=target_id).first()
    if collection is None:
        return False  # deleted meanwhile
    lowcost_campaigns_request(collection=collection)
    return collection_results_request(collection=collection)


def relevance_campaign_change_received(target_id: int) -> bool:
    """Low-cost relevance campaign ``target_id`` was created or stopped: one coalesced
    recompute of its estimates and the order of its pairs."""
    campaign = RelevanceCampaign.objects.filter(pk=target_id).first()
    if campaign is None or not campaign.is_lowcost:
        return False  # deleted meanwhile, or nothing to estimate
    return campaign_estimate_request(campaign=campaign)


RECEIVERS: dict[str, Callable[[int], bool]] = {
    ANSWERS_ACCEPTED_TASK: preference_answers_received,
    COLLECTION_CHANGED_TASK: collection_change_received,
    RELEVANCE_CAMPAIGN_CHANGED_TASK: relevance_campaign_change_received,
}
"""Handoff task name → what evaluation does with it (given the target's id)."""
