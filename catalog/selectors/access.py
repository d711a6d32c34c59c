"""Who may see and change what on the organiser side: one rule, used by every page, form and API.

A collection is reached by its **owner**, by the organisers it is **shared** with
(:class:`~catalog.models.CollectionShare`: ``read`` or ``full``) and by superusers,
and so is everything in it (campaigns, examples, answers, jobs, results). What each
asks for is a ``need``:

==========  ================================================  =========================
need        who has it                                        used by
==========  ================================================  =========================
``read``    owner, full and read-only co-organisers           pages that only show, GET APIs
``write``   owner and full co-organisers (**the default**)     every form, POST, PUT, PATCH
``share``   the owner                                         choosing who it is shared with
==========  ================================================  =========================

A page that shows a row to someone with read access decides once, in its view, whether
they may also change it (:func:`organises` or :func:`job_writable` with ``need="write"``),
and hands the template a ``can_write`` flag that hides every write control.

Whatever the user may not see is a 404, as if it did not exist (healthchecks'
``_get_project_for_user``), so an id reveals nothing. Someone who may see a collection
but asks for more than they have gets a 403 that says so. The default ``need`` is the
strict one: a caller that forgets to say ``need="read"`` refuses too much, never too
little. Pages, forms and APIs reach collections, campaigns and jobs only through these
selectors: a permission change is one edit here.

**People belong to organisers** too (:func:`organiser_people`, :func:`person_for_organiser`).
An assessor account is the organiser's who made it (:class:`~people.models.Person`):

==========  ================================================================  ==============
need        who has it                                                        used by
==========  ================================================================  ==============
``read``    the organiser who made the account, and the owner and full        People page and
            co-organisers of a collection with a relevance campaign the       API, choosing a
            account judges in (they may see it and add it to their own        campaign's
            campaigns)                                                        assessors
``write``   the organiser who made the account (**the default**)              invitation links
==========  ================================================================  ==============

So when two organisers share an assessor (one added the other's assessor to a campaign
on a collection they both run), both see the account and can give it work, but only the
organiser who made it can send it a new invitation link, which resets its password:
a reset is always the owner's. Read-only co-organisers reach nobody through a shared
collection. Organisers' accounts are reached by administrators only; superusers reach
every account. Whatever a user may not reach is a 404; an account one may see but not
reset is a 403 that says who can.
"""

from __future__ import annotations

from typing import Literal

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from catalog.models import Collection, CollectionShare, TrashItem
from common.roles import ASSESSOR, ORGANISER
from crowd.models import PreferenceCampaign
from relevance.models import RelevanceCampaign
from work.models import Job

__all__ = [
    "Need",
    "campaign_for_organiser",
    "collection_access",
    "collection_for_organiser",
    "deleted_collections_for_organiser",
    "job_for_organiser",
    "job_writable",
    "need_for_method",
    "organiser_campaigns",
    "organiser_collections",
    "organiser_jobs",
    "organiser_people",
    "organiser_relevance_campaigns",
    "organises",
    "person_for_organiser",
    "relevance_campaign_for_organiser",
    "trash_item_for_organiser",
]

Need = Literal["read", "write", "share"]
NEEDS: tuple[Need, ...] = ("read", "write", "share")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

_SHARES_GIVING = {
    "read": (CollectionShare.READ, CollectionShare.FULL),
    "write": (CollectionShare.FULL,),
    "share": (),
}
_REFUSED = {
    "write": "You have read-only access to “{}”; ask its owner for full access.",
    "share": "Only the owner of “{}” chooses who it is shared with.",
}


def need_for_method(method: str) -> Need:
    """``read`` for GET/HEAD/OPTIONS, else ``write``: an API view is one operation per method."""
    return "read" if method in SAFE_METHODS else "write"


def _check(need: str) -> None:
    if need not in NEEDS:
        raise ValueError(f"need must be one of {NEEDS}, got {need!r}")


def _organised_by(queryset: QuerySet, *, user, path: str, need: Need) -> QuerySet:
    """The rule: rows whose collection (at ``path``; ``""`` for collections) ``user`` may reach."""
    _check(need)
    if not user.is_authenticated:
        return queryset.none()
    if user.is_superuser:
        return queryset
    prefix = f"{path}__" if path else ""
    allowed = Q(**{f"{prefix}owner": user})
    access = _SHARES_GIVING[need]
    if access:
        shared = CollectionShare.objects.filter(user=user, access__in=access).values("collection")
        allowed |= Q(**{f"{path}__in" if path else "pk__in": shared})
    return queryset.filter(allowed)


def organises(*, user, collection: Collection, need: Need = "write") -> bool:
    """Whether ``user`` may reach ``collection`` for ``need``: the rule, for a row already loaded."""
    _check(need)
    if not user.is_authenticated:
        return False
    if user.is_superuser or collection.owner_id == user.pk:
        return True
    access = _SHARES_GIVING[need]
    return bool(access) and collection.shares.filter(user=user, access__in=access).exists()


def job_writable(*, user, job: Job) -> bool:
    """Whether ``user`` may cancel or retry ``job``: :func:`job_for_organiser`'s rule with
    ``need="write"``, for a row already loaded (a job on no collection is its owner's)."""
    if job.collection_id is None:
        return user.is_authenticated and (user.is_superuser or job.owner_id == user.pk)
    return organises(user=user, collection=job.collection, need="write")


def collection_access(*, user, collection: Collection) -> str | None:
    """``"owner"`` (superusers too), ``"full"``, ``"read"`` or ``None``: what pages show and hide."""
    if not user.is_authenticated:
        return None
    if user.is_superuser or collection.owner_id == user.pk:
        return "owner"
    return collection.shares.filter(user=user).values_list("access", flat=True).first()


def organiser_collections(*, user, need: Need = "write") -> QuerySet[Collection]:
    return _organised_by(Collection.objects.all(), user=user, path="", need=need)


def organiser_campaigns(*, user, need: Need = "write") -> QuerySet[PreferenceCampaign]:
    campaigns = PreferenceCampaign.objects.select_related("collection")
    return _organised_by(campaigns, user=user, path="collection", need=need)


def organiser_relevance_campaigns(*, user, need: Need = "write") -> QuerySet[RelevanceCampaign]:
    campaigns = RelevanceCampaign.objects.select_related("collection")
    return _organised_by(campaigns, user=user, path="collection", need=need)


def organiser_jobs(*, user, need: Need = "write") -> QuerySet[Job]:
    """Jobs on a collection the user may reach; a job on no collection is its owner's alone."""
    _check(need)
    jobs = Job.objects.select_related("collection", "owner")
    if not user.is_authenticated:
        return jobs.none()
    if user.is_superuser:
        return jobs
    on_collections = _organised_by(jobs, user=user, path="collection", need=need)
    return on_collections | jobs.filter(collection__isnull=True, owner=user)


def _get(rows, *, pk: int, need: Need, what: str):
    """``rows(need)`` holds the row: return it; else 403 if a lesser need reaches it, else 404."""
    found = rows(need).filter(pk=pk).first()
    if found is not None:
        return found
    for lesser in NEEDS[: NEEDS.index(need)]:
        row = rows(lesser).filter(pk=pk).first()
        if row is not None:
            collection = row if isinstance(row, Collection) else row.collection
            raise PermissionDenied(_REFUSED[need].format(collection))
    raise Http404(f"No such {what}.")


def collection_for_organiser(*, user, collection_id: int, need: Need = "write") -> Collection:
    """The collection ``collection_id`` if ``user`` may reach it for ``need``; else 403/404."""
    return _get(
        lambda n: organiser_collections(user=user, need=n),
        pk=collection_id, need=need, what="collection",
    )  # fmt: skip


def campaign_for_organiser(*, user, campaign_id: int, need: Need = "write") -> PreferenceCampaign:
    """The preference campaign ``campaign_id`` if ``user`` may reach its collection; else 403/404."""
    return _get(
        lambda n: organiser_campaigns(user=user, need=n),
        pk=campaign_id, need=need, what="preference campaign",
    )  # fmt: skip


def relevance_campaign_for_organiser(
    *, user, campaign_id: int, need: Need = "write"
) -> RelevanceCampaign:
    """The relevance campaign ``campaign_id`` if ``user`` may reach its collection; else 403/404."""
    return _get(
        lambda n: organiser_relevance_campaigns(user=user, need=n),
        pk=campaign_id, need=need, what="relevance campaign",
    )  # fmt: skip


def job_for_organiser(*, user, job_id: int, need: Need = "write") -> Job:
    """The job ``job_id`` if ``user`` may reach it (its collection, or their own job); else 403/404."""
    return _get(lambda n: organiser_jobs(user=user, need=n), pk=job_id, need=need, what="job")


def organiser_people(*, user, need: Need = "write") -> QuerySet:
    """Accounts ``user`` reaches for ``need`` (``read`` or ``write``; see the table above)."""
    _check(need)
    accounts = get_user_model().objects.all()
    if not user.is_authenticated:
        return accounts.none()
    if user.is_superuser:
        reached = accounts.filter(groups__name__in=[ASSESSOR, ORGANISER])
        return accounts.filter(pk__in=reached.values("pk"))
    allowed = Q(person__created_by=user)
    if need == "read":
        campaigns = _organised_by(
            RelevanceCampaign.objects.all(), user=user, path="collection", need="write"
        )
        allowed |= Q(relevance_campaigns__in=campaigns.values("pk"))
    organisers = accounts.filter(Q(groups__name=ORGANISER) | Q(is_superuser=True))
    reached = accounts.filter(allowed, groups__name=ASSESSOR).exclude(
        pk__in=organisers.values("pk")
    )
    return accounts.filter(pk__in=reached.values("pk"))


def person_for_organiser(*, user, person_id: int, need: Need = "write"):
    """The account ``person_id`` if ``user`` reaches it for ``need``; 403 if they only see
    it, else 404 (another organiser's people do not exist for them)."""
    found = organiser_people(user=user, need=need).filter(pk=person_id).first()
    if found is not None:
        return found
    seen = need != "read" and organiser_people(user=user, need="read").filter(pk=person_id)
    if seen and seen.exists():
        raise PermissionDenied(
            f"Only the organiser who made {seen.first().username}'s account (or an "
            "administrator) can send it an invitation link: a link resets its password."
        )
    raise Http404("No such person.")


def deleted_collections_for_organiser(*, user) -> QuerySet:
    """Deleted collections in the trash of ``user`` (whose collections they were), newest first."""
    items = TrashItem.objects.filter(kind="collection").order_by("-deleted_at", "-pk")
    if not user.is_authenticated:
        return items.none()
    return items if user.is_superuser else items.filter(owner=user)


def trash_item_for_organiser(*, user, item_id: int):
    """A trash item ``user`` may restore: one of a collection they may change (the rule),
    or a deleted collection of theirs; else 404 (403 for read-only co-organisers)."""
    item = TrashItem.objects.filter(pk=item_id).select_related("collection").first()
    if item is None:
        raise Http404("No such deleted thing.")
    if item.collection_id is None:
        if deleted_collections_for_organiser(user=user).filter(pk=item.pk).exists():
            return item
        raise Http404("No such deleted thing.")
    collection_for_organiser(user=user, collection_id=item.collection_id, need="write")
    return item
