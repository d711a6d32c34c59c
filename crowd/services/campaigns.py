"""Creating a crowd preference campaign, with its examples and trap questions."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from catalog.models import Collection, System
from crowd.models import PreferenceCampaign
from crowd.selectors import campaign_pool_needs
from crowd.services.examples import examples_from_systems
from crowd.services.traps import trap_questions_from_judgments


def preference_campaign_create(
    *,
    collection: Collection,
    name: str,
    system_pairs: Iterable[tuple[System, System]] | str | None = "all",
    trap_questions: int = 0,
    **options,
) -> PreferenceCampaign:
    """Create (or return, if it exists) a campaign named ``name`` on ``collection``.

    ``system_pairs="all"`` adds an example for every pair of systems and every query
    where both have a top-k list and the lists differ; ``trap_questions`` marks that many
    examples as trap questions from the collection's Fine judgments
    (:func:`trap_questions_from_judgments`). ``options`` are campaign fields
    (``list_length``, ``answers_per_example``, ``max_answers_per_worker``,
    ``quiz_length``, ``trap_rate``, ``trust_threshold``, ``min_trap_answers``,
    ``completion_code``, ``screen_out_code``, ``instructions``, ...).

    Idempotent by name, so demo seeding may call it on every start.
    """
    with transaction.atomic():
        existing = PreferenceCampaign.objects.filter(collection=collection, name=name).first()
        if existing is not None:
            return existing
        campaign = PreferenceCampaign(collection=collection, name=name, **options)
        campaign.full_clean()
        campaign.save()
        if system_pairs == "all":
            systems = list(collection.systems.order_by("name"))
            system_pairs = [(a, b) for i, a in enumerate(systems) for b in systems[i + 1 :]]
        for system_a, system_b in system_pairs or []:
            examples_from_systems(campaign=campaign, system_a=system_a, system_b=system_b)
        if trap_questions:
            trap_questions_from_judgments(campaign=campaign, count=trap_questions)
    return campaign


def preference_campaign_new(
    *, collection: Collection, name: str, **options
) -> tuple[PreferenceCampaign, list[str]]:
    """Create an empty campaign from the New form or the API, and why it was created
    closed although ``is_open`` was asked for (an empty list: as asked).

    A new campaign has no examples yet, so its trap pools hold nothing: opened as asked,
    it would hand workers a quiz from an empty or tiny pool that a few identities learn
    (issue 22). The rule of opening (:func:`~crowd.services.settings.preference_campaign_open_set`)
    applies from the start: such a campaign is created closed and the organiser opens it
    once examples and trap questions are in.
    """
    with transaction.atomic():
        campaign = preference_campaign_create(
            collection=collection, name=name, system_pairs=None, **options
        )
        problems = campaign_pool_needs(campaign=campaign).problems if campaign.is_open else []
        if problems:
            PreferenceCampaign.objects.filter(pk=campaign.pk).update(is_open=False)
            campaign.is_open = False
    return campaign, problems
