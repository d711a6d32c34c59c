"""Who may see what on the organiser side: one rule, used by every page, form and API.

An organiser sees and changes the collections they own and everything in them
(campaigns, examples, answers, results); a superuser sees everything. Whatever another
organiser owns is a 404, as if it did not exist (healthchecks' ``_get_project_for_user``),
so an id reveals nothing. Pages, forms and APIs reach a collection or a campaign only
through these selectors: a permission change is one edit here.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from judging.models import Collection, PreferenceCampaign, RelevanceCampaign

__all__ = [
    "campaign_for_organiser",
    "collection_for_organiser",
    "organiser_campaigns",
    "organiser_collections",
    "organiser_relevance_campaigns",
    "organises",
    "relevance_campaign_for_organiser",
]


def _organised_by(queryset: QuerySet, *, user, owner: str) -> QuerySet:
    """The rule: rows whose collection ``user`` owns (``owner`` is the path to its owner)."""
    return queryset if user.is_superuser else queryset.filter(**{owner: user})


def organises(*, user, collection: Collection) -> bool:
    """Whether ``user`` organises ``collection``: the rule above, for a row already loaded."""
    return user.is_authenticated and (user.is_superuser or collection.owner_id == user.pk)


def organiser_collections(*, user) -> QuerySet[Collection]:
    return _organised_by(Collection.objects.all(), user=user, owner="owner")


def organiser_campaigns(*, user) -> QuerySet[PreferenceCampaign]:
    campaigns = PreferenceCampaign.objects.select_related("collection")
    return _organised_by(campaigns, user=user, owner="collection__owner")


def organiser_relevance_campaigns(*, user) -> QuerySet[RelevanceCampaign]:
    campaigns = RelevanceCampaign.objects.select_related("collection")
    return _organised_by(campaigns, user=user, owner="collection__owner")


def collection_for_organiser(*, user, collection_id: int) -> Collection:
    """The collection ``collection_id`` if ``user`` organises it; else 404."""
    return get_object_or_404(organiser_collections(user=user), pk=collection_id)


def campaign_for_organiser(*, user, campaign_id: int) -> PreferenceCampaign:
    """The preference campaign ``campaign_id`` if ``user`` organises its collection; else 404."""
    return get_object_or_404(organiser_campaigns(user=user), pk=campaign_id)


def relevance_campaign_for_organiser(*, user, campaign_id: int) -> RelevanceCampaign:
    """The relevance campaign ``campaign_id`` if ``user`` organises its collection; else 404."""
    return get_object_or_404(organiser_relevance_campaigns(user=user), pk=campaign_id)
