"""Changing a campaign after it started: settings, open and closed, assessors.

Every change is checked first, with a message saying what is wrong and what to do
(:func:`preference_settings_errors`, :func:`relevance_settings_errors`), and written
in one transaction. What a relevance campaign judges (its pool: cut-off k and the
same-artist rule) and the length of a preference campaign's lists are fixed when it
is created, because work already done depends on them.

Changes that alter results hand over to evaluation once per commit
(:mod:`work.handoff`): a new trust threshold, minimum of trap answers or quiz
length re-decides every worker's trust (:func:`~crowd.services.trust.worker_trust_update`),
which hands the campaign over when the set of accepted answers changed — one coalesced
recompute however many workers changed.
"""

from __future__ import annotations

import copy
import unicodedata

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q

from common.roles import is_assessor
from crowd.models import PreferenceCampaign
from crowd.selectors import campaign_pool_needs
from crowd.services.trust import worker_trust_update
from listening.headphones import TRIALS as HEADPHONE_TRIALS
from relevance.models import Assignment, RelevanceCampaign
from relevance.services.lowcost import LOWCOST_SETTINGS, lowcost_settings_check
from work import handoff

PREFERENCE_SETTINGS = (
    "name",
    "instructions",
    "consent_text",
    "answers_per_example",
    "max_answers_per_worker",
    "quiz_length",
    "trap_rate",
    "trust_threshold",
    "min_trap_answers",
    "completion_code",
    "screen_out_code",
    "no_consent_code",
    "minutes_estimate",
    "pay_text",
    "listening_check",
    "min_clips_per_list",
    "min_seconds_on_task",
    "fast_answer_seconds",
    "stop_after_fast_answers",
    "min_work_answers",
    "trust_check_every",
    "per_worker_codes",
    "bonus_per_answer",
    "headphone_check",
    "headphone_pass_mark",
    "practice_length",
)
"""What can change after a preference campaign is created (its lists' length cannot).
A new setting of :class:`~crowd.models.PreferenceCampaign` is one line here: the
settings page, its form and the API read this tuple."""

PREFERENCE_RESULT_FIELDS = (
    "trust_threshold",
    "min_trap_answers",
    "quiz_length",
    "fast_answer_seconds",
    "stop_after_fast_answers",
)
"""Settings that decide which answers are accepted, hence the campaign's mapping."""

MAX_SECONDS_ON_TASK = 600
"""The listening check's wait stays far below a task's 30-minute lease."""

MAX_ASSESSORS_PER_QUERY = 20
MAX_MUST_LISTEN_SECONDS = 600
MAX_TAKE_BACK_MINUTES = 7 * 24 * 60


def _printable(text: str, *, allowed: str = "") -> bool:
    return not any(unicodedata.category(c) in ("Cc", "Cf") and c not in allowed for c in text or "")


def _text_errors(values: dict) -> dict[str, str]:
    """What is wrong with the texts among ``values`` (a name, instructions, codes)."""
    errors: dict[str, str] = {}
    if "name" in values:
        if not (values["name"] or "").strip():
            errors["name"] = "Give the campaign a name."
        elif not _printable(values["name"]):
            errors["name"] = "The name has a control character; type it again."
    for field in ("instructions", "consent_text"):
        if field in values and not _printable(values[field], allowed="\n\r\t"):
            errors[field] = "This text has a control character; type it again."
    for field in ("completion_code", "screen_out_code"):
        code = values.get(field)
        if field in values and not (code or "").strip():
            errors[field] = "Give a code (the platform checks it)."
        elif field in values and (not _printable(code) or any(c.isspace() for c in code)):
            errors[field] = "A code has no spaces or control characters."
    return errors


def preference_settings_errors(values: dict) -> dict[str, str]:
    """What is wrong with these preference-campaign settings: ``{field: message}``.

    ``values`` holds every setting (the campaign's current ones with the changes) and,
    when known, the campaign's fixed ``list_length``.
    """
    errors = _text_errors(values)
    if not 0 <= values["trap_rate"] <= 1:
        errors["trap_rate"] = (
            "The trap rate is a probability between 0 and 1 (0.1: one task in ten)."
        )
    if not 0 <= values["trust_threshold"] <= 1:
        errors["trust_threshold"] = (
            "Trust is the share of trap questions answered right: give a threshold "
            "between 0 and 1 (0.7: seven in ten)."
        )
    if values["answers_per_example"] < 1:
        errors["answers_per_example"] = "Each example needs at least one answer."
    if values["max_answers_per_worker"] < 1:
        errors["max_answers_per_worker"] = "A worker must be able to answer at least one task."
    elif values["quiz_length"] >= values["max_answers_per_worker"]:
        errors["quiz_length"] = (
            f"Workers answer at most {values['max_answers_per_worker']} tasks and the first "
            f"{values['quiz_length']} would be quiz questions, leaving no real work: make "
            "the quiz shorter than the cap per worker."
        )
    work = values["max_answers_per_worker"] - values["quiz_length"]
    if "quiz_length" not in errors and values.get("min_work_answers", 0) > work:
        errors["min_work_answers"] = (
            f"Workers answer at most {work} tasks after the quiz, so the completion code "
            f"could never be earned with {values['min_work_answers']}: ask for at most {work}."
        )
    if values.get("trust_check_every", 1) < 1:
        errors["trust_check_every"] = "Check trust at least every 1 work answer."
    if values["quiz_length"] == 0 and values["min_trap_answers"] < 1:
        errors["min_trap_answers"] = (
            "Without a quiz, trust is judged after this many trap answers: at least 1."
        )
    if values["quiz_length"] == 0 and values["trap_rate"] == 0 and "trap_rate" not in errors:
        errors["trap_rate"] = (
            "With no quiz and a trap rate of 0, no worker ever meets a trap question, so "
            "no worker is ever trusted and no answer is accepted: set a quiz length or a "
            "trap rate above 0."
        )
    if values.get("list_length") and values["min_clips_per_list"] > values["list_length"]:
        errors["min_clips_per_list"] = (
            f"Each list has {values['list_length']} clips: ask for at most that many."
        )
    if values["min_seconds_on_task"] > MAX_SECONDS_ON_TASK:
        errors["min_seconds_on_task"] = (
            f"At most {MAX_SECONDS_ON_TASK} s: a longer wait on every task would drive "
            "honest workers away."
        )
    errors.update(headphone_settings_errors(values))
    codes = (values.get("completion_code") or "", values.get("screen_out_code") or "")
    if codes[0] and codes[0] == codes[1]:
        errors["screen_out_code"] = (
            "The screen-out code must differ from the completion code, or a worker stopped "
            "for low trust would be paid as if they had finished."
        )
    return errors


def headphone_settings_errors(values: dict) -> dict[str, str]:
    """What is wrong with a campaign's headphone screen settings (crowd and relevance)."""
    if not 1 <= values.get("headphone_pass_mark", HEADPHONE_TRIALS) <= HEADPHONE_TRIALS:
        return {
            "headphone_pass_mark": f"The headphone screen has {HEADPHONE_TRIALS} trials: ask "
            f"for 1 to {HEADPHONE_TRIALS} right ({HEADPHONE_TRIALS - 1}, Woods et al.'s, by "
            "default)."
        }
    return {}


def preference_campaign_update(*, campaign: PreferenceCampaign, changes: dict) -> list[str]:
    """Apply ``changes`` (field → value) to the campaign's settings; returns the fields changed.

    Raises :class:`ValidationError` (a dict by field) and writes nothing when a value is
    wrong, or when an open campaign's new trap rate, quiz length or practice length
    would need more questions than its pools hold (as :func:`campaign_open_set` would
    refuse to open it). If trust settings changed, every worker's trust is decided again.
    """
    values = _checked(campaign, changes, PREFERENCE_SETTINGS)
    errors = preference_settings_errors({**values, "list_length": campaign.list_length})
    if errors:
        raise ValidationError(errors)
    changed = [f for f in changes if getattr(campaign, f) != values[f]]
    if not changed:
        return []
    others = PreferenceCampaign.objects.filter(collection_id=campaign.collection_id)
    if "name" in changed and others.filter(name=values["name"]).exclude(pk=campaign.pk).exists():
        raise ValidationError({"name": f"The collection has a campaign named {values['name']!r}."})
    pooled = [f for f in ("trap_rate", "quiz_length", "practice_length") if f in changed]
    if campaign.is_open and pooled:
        before = campaign_pool_needs(campaign=campaign)
        after = campaign_pool_needs(
            campaign=campaign, trap_rate=values["trap_rate"], quiz_length=values["quiz_length"],
            practice_length=values["practice_length"],
        )  # fmt: skip
        if after.worse_than(before):  # issue 22: the rule of opening holds while open
            raise ValidationError({pooled[0]: " ".join(after.problems)})
    for field in changed:
        setattr(campaign, field, values[field])
    try:
        with transaction.atomic():
            campaign.save(update_fields=changed)
            if set(changed) & set(PREFERENCE_RESULT_FIELDS):
                for worker in campaign.workers.all():
                    worker_trust_update(worker=worker)
    except IntegrityError as error:
        raise ValidationError(f"The settings could not be saved: {error}") from None
    return changed


def _checked(campaign, changes: dict, settings: tuple[str, ...]) -> dict:
    """Every setting with the changes, each checked on its own by the model's field
    (type, range, length); a :class:`ValidationError` by field if one is wrong."""
    unknown = sorted(set(changes) - set(settings))
    if unknown:
        raise ValidationError(f"These settings cannot be changed: {', '.join(unknown)}.")
    draft = copy.copy(campaign)
    for field, value in changes.items():
        setattr(draft, field, value)
    words = _text_errors({f: v for f, v in changes.items() if isinstance(v, str)})
    if words:  # said as a person would, before the fields' generic checks say it otherwise
        raise ValidationError(words)
    others = [f.name for f in campaign._meta.fields if f.name not in changes]
    draft.clean_fields(exclude=others)
    return {field: getattr(draft, field) for field in settings}


def relevance_settings_errors(campaign: RelevanceCampaign, values: dict) -> dict[str, str]:
    """What is wrong with these relevance-campaign settings: ``{field: message}``."""
    errors = _text_errors(values)
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
    values = _checked(campaign, changes, RELEVANCE_SETTINGS)
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


def campaign_open_set(*, campaign: RelevanceCampaign | PreferenceCampaign, is_open: bool) -> bool:
    """Close (no new work is handed out) or reopen a campaign; ``True`` if it changed.

    A preference campaign whose trap pools (or practice pool, issue 23) are too small for
    its settings is not opened (:func:`~crowd.selectors.campaigns.campaign_pool_needs`,
    issue 22): the message says how many questions it needs.
    """
    if is_open and isinstance(campaign, PreferenceCampaign):
        problems = campaign_pool_needs(campaign=campaign).problems
        if problems:
            raise ValidationError(" ".join(problems))
    changed = type(campaign).objects.filter(pk=campaign.pk).exclude(is_open=is_open)
    with transaction.atomic():
        if not changed.update(is_open=is_open):
            return False
        if isinstance(campaign, RelevanceCampaign) and campaign.is_lowcost:
            # Final estimates when it closes, and up to date again when it reopens.
            handoff.relevance_campaign_changed(campaign_id=campaign.pk)
    campaign.is_open = is_open
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
