"""Which preference campaigns an organiser reaches: those of a collection they reach
(:func:`catalog.selectors.organised_by`, the one rule), with the same 404 and 403."""

from __future__ import annotations

from django.db.models import QuerySet

from catalog.selectors import first_reachable, organised_by
from common.needs import Need
from crowd.models import PreferenceCampaign

__all__ = ["campaign_for_organiser", "organiser_campaigns"]


def organiser_campaigns(*, user, need: Need = "write") -> QuerySet[PreferenceCampaign]:
    campaigns = PreferenceCampaign.objects.select_related("collection")
    return organised_by(campaigns, user=user, path="collection", need=need)


def campaign_for_organiser(*, user, campaign_id: int, need: Need = "write") -> PreferenceCampaign:
    """The preference campaign ``campaign_id`` if ``user`` may reach its collection; else 403/404."""
    return first_reachable(
        lambda n: organiser_campaigns(user=user, need=n),
        pk=campaign_id, need=need, what="preference campaign",
    )  # fmt: skip
