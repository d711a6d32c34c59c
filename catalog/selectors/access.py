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

Preference and relevance campaigns are reached through their collection, by
:func:`organised_by` (:func:`crowd.selectors.campaign_for_organiser`,
:func:`relevance.selectors.relevance_campaign_for_organiser`); people, who belong to
organisers rather than to collections, by :func:`people.selectors.organiser_people`.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from catalog.models import Collection, CollectionShare, TrashItem
from common.needs import NEEDS, Need, need_check
from work.models import Job

__all__ = [
    "collection_access",
    "collection_for_organiser",
    "deleted_collections_for_organiser",
    "first_reachable",
    "job_for_organiser",
    "job_writable",
    "organised_by",
    "organiser_collections",
    "organiser_jobs",
    "organises",
    "trash_item_for_organiser",
]

_SHARES_GIVING = {
    "read": (CollectionShare.READ, CollectionShare.FULL),
    "write": (CollectionShare.FULL,),
    "share": (),
}
_REFUSED = {
    "write": "You have read-only access to “{}”; ask its owner for full access.",
    "share": "Only the owner of “{}” chooses who it is shared with.",
}


def organised_by(queryset: QuerySet, *, user, path: str, need: Need) -> QuerySet:
    """The rule: rows whose collection (at ``path``; ``""`` for collections) ``user`` may
    reach for ``need``; every app reaches its rows in a collection through it."""
    need_check(need)
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
    need_check(need)
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
    return organised_by(Collection.objects.all(), user=user, path="", need=need)


def organiser_jobs(*, user, need: Need = "write") -> QuerySet[Job]:
    """Jobs on a collection the user may reach; a job on no collection is its owner's alone."""
    need_check(need)
    jobs = Job.objects.select_related("collection", "owner")
    if not user.is_authenticated:
        return jobs.none()
    if user.is_superuser:
        return jobs
    on_collections = organised_by(jobs, user=user, path="collection", need=need)
    return on_collections | jobs.filter(collection__isnull=True, owner=user)


def first_reachable(rows, *, pk: int, need: Need, what: str):
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
    return first_reachable(
        lambda n: organiser_collections(user=user, need=n),
        pk=collection_id, need=need, what="collection",
    )  # fmt: skip


def job_for_organiser(*, user, job_id: int, need: Need = "write") -> Job:
    """The job ``job_id`` if ``user`` may reach it (its collection, or their own job); else 403/404."""
    return first_reachable(
        lambda n: organiser_jobs(user=user, need=n), pk=job_id, need=need, what="job"
    )


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
