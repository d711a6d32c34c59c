"""Changing a relevance campaign after it started: settings, open and closed, assessors.

Every change is checked first, with a message saying what is wrong and what to do
(:func:`relevance_settings_errors`, and the checks both kinds share:
:mod:`common.campaign_settings`), and written in one transaction. What a campaign judges
(its pool: cut-off k and the same-artist rule) and its mode are fixed when it is
created, because work already done depends on them. A low-cost campaign's new settings,
closing and reopening hand it over to evaluation (:mod:`work.handoff`): new estimates
and a new order of its pairs.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q

from common.campaign_settings import is_open_set, settings_checked, text_errors
from common.roles import is_assessor
from listening.services.headphones import headphone_settings_errors
from relevance.models import Assignment, RelevanceCampaign
from relevance.services.lowcost import LOWCOST_SETTINGS, lowcost_settings_check
from work import handoff

MAX_ASSESSORS_PER_QUERY = 20
MAX_MUST_LISTEN_SECONDS = 600
MAX_TAKE_BACK_MINUTES = 7 * 24 * 60


def relevance_settings_errors(campaign: RelevanceCampaign, values: dict) -> dict[str, str]:
    """What is wrong with these relevance-campaign settings: ``{field: message}``."""
    errors = text_errors(values)
    per_query = values["assessors_per_query"]
    if not 1 <= per_query <= MAX_ASSESSORS_PER_QUERY:
        errors["assessors_per_query"] = (
            f"Each query needs between 1 and {MAX_ASSESSORS_PER_QUERY} assessors."
        )
    elif per_query < campaign.assessors_per_query:
        busy = (
            campaign.assignments.filter(assessor__isnull=False)
            .values("query")
            .annotate(n=Count("pk"))
            .filter(n__gt=per_query)
        )
        if busy.exists():
            most = max(row["n"] for row in busy)
            errors["assessors_per_query"] = (
                f"{busy.count()} quer{'y has' if busy.count() == 1 else 'ies have'} "
                f"{most} assessors at work or done already, so the number per query can go "
                f"down to {most} at the lowest."
            )
    cap = values.get("queries_per_assessor")
    if cap is not None and cap < 1:
        errors["queries_per_assessor"] = "Leave the cap empty for no cap, or give at least 1."
    if not 0 <= values["must_listen_seconds"] <= MAX_MUST_LISTEN_SECONDS:
        errors["must_listen_seconds"] = (
            f"Between 0 and {MAX_MUST_LISTEN_SECONDS} seconds (a clip is rarely longer)."
        )
    if not 1 <= values["take_back_minutes"] <= MAX_TAKE_BACK_MINUTES:
        errors["take_back_minutes"] = f"Between 1 minute and {MAX_TAKE_BACK_MINUTES} (a week)."
    errors.update(headphone_settings_errors(values))
    errors.update(_lowcost_errors(campaign, values, errors))
    return errors


def _lowcost_errors(campaign: RelevanceCampaign, values: dict, found: dict) -> dict[str, str]:
    """A low-cost campaign's measure, target and stop (one assessor per pair, no cap);
    a pooled campaign has none to change."""
    if not campaign.is_lowcost:
        return {
            f: "Only a low-cost campaign has this setting (its mode is fixed at creation)."
            for f in LOWCOST_SETTINGS
            if f in values and values[f] != getattr(campaign, f)
        }
    try:
        lowcost_settings_check(
            cutoff=campaign.cutoff,
            assessors_per_query=values["assessors_per_query"],
            queries_per_assessor=values.get("queries_per_assessor"),
            measure=values.get("lowcost_measure", campaign.lowcost_measure),
            target=values.get("lowcost_target", campaign.lowcost_target),
            stop_at=values.get("lowcost_stop_at", campaign.lowcost_stop_at),
        )
    except ValidationError as error:
        return {f: m[0] for f, m in error.message_dict.items() if f not in found}
    return {}


RELEVANCE_SETTINGS = (
    "name",
    "assessors_per_query",
    "queries_per_assessor",
    "must_listen_seconds",
    "take_back_minutes",
    "headphone_check",
    "headphone_pass_mark",
    *LOWCOST_SETTINGS,
)
"""What can change after a relevance campaign is created (its pool and mode cannot; the
low-cost settings only for a low-cost campaign). Turning the headphone check on applies
to the judgments after: what was judged before stays."""


def relevance_campaign_update(*, campaign: RelevanceCampaign, changes: dict) -> list[str]:
    """Apply ``changes`` to the campaign's settings; returns the fields changed.

    More assessors per query adds free slots to every query of the pool; fewer removes
    free slots (never work someone holds or did).
    """
    values = settings_checked(campaign, changes, RELEVANCE_SETTINGS)
    errors = relevance_settings_errors(campaign, values)
    if errors:
        raise ValidationError(errors)
    changed = [f for f in changes if getattr(campaign, f) != values[f]]
    if not changed:
        return []
    with transaction.atomic():
        if "assessors_per_query" in changed:
            _slots_set(campaign, values["assessors_per_query"])
        for field in changed:
            setattr(campaign, field, values[field])
        campaign.save(update_fields=changed)
        if set(changed) & set(LOWCOST_SETTINGS):
            handoff.relevance_campaign_changed(campaign_id=campaign.pk)  # a new order
    return changed


def _slots_set(campaign: RelevanceCampaign, per_query: int) -> None:
    """Give every query of the pool ``per_query`` slots, counting the ones in use."""
    slots = campaign.assignments.values("query").annotate(
        n=Count("pk"), used=Count("pk", filter=Q(assessor__isnull=False)), top=Max("slot")
    )
    new = []
    for row in slots:
        if row["n"] < per_query:
            new += [
                Assignment(campaign=campaign, query_id=row["query"], slot=row["top"] + i)
                for i in range(1, per_query - row["n"] + 1)
            ]
        elif row["n"] > per_query:
            free = campaign.assignments.filter(query_id=row["query"], assessor__isnull=True)
            extra = list(
                free.order_by("-slot").values_list("pk", flat=True)[: row["n"] - per_query]
            )
            Assignment.objects.filter(pk__in=extra).delete()
    Assignment.objects.bulk_create(new)


def relevance_campaign_open_set(*, campaign: RelevanceCampaign, is_open: bool) -> bool:
    """Close (no new work is handed out) or reopen; ``True`` if it changed."""
    with transaction.atomic():
        if not is_open_set(campaign, is_open=is_open):
            return False
        if campaign.is_lowcost:
            # Final estimates when it closes, and up to date again when it reopens.
            handoff.relevance_campaign_changed(campaign_id=campaign.pk)
    return True


def relevance_campaign_assessor_add(*, campaign: RelevanceCampaign, assessor) -> bool:
    """Let ``assessor`` judge in the campaign; ``False`` if they already do."""
    if not is_assessor(assessor) or not assessor.is_active:
        raise ValidationError(f"{assessor.get_username()} is not an assessor.")
    if campaign.assessors.filter(pk=assessor.pk).exists():
        return False
    campaign.assessors.add(assessor)
    return True


def relevance_campaign_assessor_remove(*, campaign: RelevanceCampaign, assessor) -> dict:
    """Stop ``assessor`` judging in the campaign; what they judged stays.

    Queries they hold but never touched are freed for others; each query they started
    but did not finish gets one more free slot, so another assessor can judge it while
    their partial work is kept (and resumed if they are added back).
    Returns ``{"freed": n, "reopened": n}``.
    """
    with transaction.atomic():
        campaign.assessors.remove(assessor)
        theirs = campaign.assignments.filter(assessor=assessor, completed_at__isnull=True)
        freed = theirs.filter(touched_at__isnull=True).update(assessor=None, assigned_at=None)
        if campaign.is_lowcost:
            return {"freed": freed, "reopened": _pairs_reopen(campaign, theirs)}
        started = list(theirs.filter(touched_at__isnull=False).values_list("query_id", flat=True))
        tops = dict(
            campaign.assignments.filter(query_id__in=started)
            .values("query")
            .annotate(top=Max("slot"))
            .values_list("query", "top")
        )
        Assignment.objects.bulk_create(
            Assignment(campaign=campaign, query_id=q, slot=tops[q] + 1) for q in started
        )
    return {"freed": freed, "reopened": len(started)}


def _pairs_reopen(campaign: RelevanceCampaign, theirs) -> int:
    """A low-cost campaign's pairs a removed assessor started: one more free slot each."""
    started = list(theirs.filter(touched_at__isnull=False).values_list("query_id", "pool_entry_id"))
    tops = dict(
        campaign.assignments.filter(pool_entry_id__in=[p for _, p in started])
        .values("pool_entry")
        .annotate(top=Max("slot"))
        .values_list("pool_entry", "top")
    )
    Assignment.objects.bulk_create(
        Assignment(campaign=campaign, query_id=q, pool_entry_id=p, slot=tops[p] + 1)
        for q, p in started
    )
    return len(started)
