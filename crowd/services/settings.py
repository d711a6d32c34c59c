"""Changing a preference campaign after it started: its settings, open and closed.

Every change is checked first (:func:`preference_settings_errors`, and the checks both
kinds share: :mod:`common.campaign_settings`) and written in one transaction. The length
of the lists is fixed when the campaign is created, because work already done depends on
it. A new trust threshold, minimum of trap answers or quiz length re-decides every
worker's trust (:func:`~crowd.services.trust.worker_trust_update`), which hands the
campaign over to evaluation when the set of accepted answers changed
(:mod:`work.handoff`) — one coalesced recompute however many workers changed.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from common.campaign_settings import is_open_set, settings_checked, text_errors
from crowd.models import PreferenceCampaign
from crowd.selectors import campaign_pool_needs
from crowd.services.trust import worker_trust_update
from listening.services.headphones import headphone_settings_errors

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


def preference_settings_errors(values: dict) -> dict[str, str]:
    """What is wrong with these preference-campaign settings: ``{field: message}``.

    ``values`` holds every setting (the campaign's current ones with the changes) and,
    when known, the campaign's fixed ``list_length``.
    """
    errors = text_errors(values)
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


def preference_campaign_update(*, campaign: PreferenceCampaign, changes: dict) -> list[str]:
    """Apply ``changes`` (field → value) to the campaign's settings; returns the fields changed.

    Raises :class:`ValidationError` (a dict by field) and writes nothing when a value is
    wrong, or when an open campaign's new trap rate, quiz length or practice length
    would need more questions than its pools hold (as :func:`preference_campaign_open_set`
    would refuse to open it). If trust settings changed, every worker's trust is decided again.
    """
    values = settings_checked(campaign, changes, PREFERENCE_SETTINGS)
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


def preference_campaign_open_set(*, campaign: PreferenceCampaign, is_open: bool) -> bool:
    """Close (the task link says the study is closed) or reopen; ``True`` if it changed.

    A campaign whose trap pools (or practice pool, issue 23) are too small for its
    settings is not opened (:func:`~crowd.selectors.campaigns.campaign_pool_needs`,
    issue 22): the message says how many questions it needs.
    """
    if is_open:
        problems = campaign_pool_needs(campaign=campaign).problems
        if problems:
            raise ValidationError(" ".join(problems))
    with transaction.atomic():
        return is_open_set(campaign, is_open=is_open)
