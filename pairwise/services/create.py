"""Creating a pairs campaign: a crowd preference campaign whose examples are (query, clip,
clip) pairs, and the sort of each of its queries (issue 32, item 3)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Collection, JudgmentSource, Query, RunEntry
from catalog.services.sources import judgment_source_for_writing
from crowd.models import PreferenceCampaign, TrapQuestion
from crowd.selectors import campaign_pool_needs
from crowd.services.campaigns import preference_campaign_create
from evaluation.core.ordered_groups.quicksort import (
    DEFAULT_ANSWERS_PER_PAIR,
    DEFAULT_MARGIN,
    quicksort_start,
)
from pairwise.models import MAX_CANDIDATES, PairwiseSort, PairwiseStudy
from pairwise.services.driver import pairwise_drive
from pairwise.services.traps import trap_pairs_add
from pairwise.sort_state import state_data

PAIR_INSTRUCTIONS = (
    "Listen to the query clip, then to clip A and clip B. Which of the two sounds more "
    "similar to the query? If you cannot tell one from the other in similarity, answer "
    "that they are equally similar."
)

QUIZ_PAIRS_PER_QUESTION = 20
"""Quiz pairs made per question of the quiz (``quiz_length``): each is shown to one worker
only (:mod:`crowd.services.quiz`), so this many workers can take the quiz."""


@dataclass
class PairwiseCreated:
    """A new pairs campaign, and what the organiser should be told."""

    campaign: PreferenceCampaign
    notes: list[str] = field(default_factory=list)


def query_pools(*, collection: Collection) -> dict[int, list[int]]:
    """Each query's pool: the clips the systems' runs retrieved for it, the query's own
    clip left out (the candidates of a sort unless the organiser gives others)."""
    own = dict(collection.queries.values_list("pk", "clip_id"))
    pools: dict[int, set[int]] = {pk: set() for pk in own}
    entries = RunEntry.objects.filter(query__collection=collection).order_by()
    for query_id, clip_id in entries.values_list("query_id", "clip_id").distinct():
        if clip_id != own[query_id]:
            pools[query_id].add(clip_id)
    return {pk: sorted(clips) for pk, clips in pools.items()}


def pairwise_campaign_create(
    *,
    collection: Collection,
    name: str,
    queries: Iterable[Query] | None = None,
    candidates: Mapping[int, Sequence[int]] | None = None,
    margin: int = DEFAULT_MARGIN,
    answers_per_pair: int = DEFAULT_ANSWERS_PER_PAIR,
    source_name: str = "",
    source_status: str = JudgmentSource.PILOT,
    **options,
) -> PairwiseCreated:
    """Create the pairs campaign ``name`` on ``collection`` and the first round of each
    query's sort, all or nothing.

    ``queries`` (default: all) are sorted; each query's candidates are ``candidates[query
    id]`` (clip ids of the collection) or its pool (:func:`query_pools`). A query with
    no candidate is left out (and said so); one with a single candidate is done at once
    (one group). ``margin`` and ``answers_per_pair`` (the campaign's redundancy) are the
    sort's settings (Urbano et al. 2010: 2 and 10). The groups go to a new source named
    ``source_name`` (default: the campaign's name), a pilot unless ``source_status``
    says official. ``options`` are the crowd campaign's settings (``quiz_length``,
    ``trap_rate``, ``trust_threshold``, codes, …). A quiz (``quiz_length``) is made of
    trap pairs, :data:`QUIZ_PAIRS_PER_QUESTION` per question. Opened as asked only when
    its trap pools are what its settings need (the crowd's rule of opening), else
    created closed, and the notes say why.
    """
    if answers_per_pair < 1:
        raise ValidationError("answers per pair must be at least 1")
    if not 1 <= margin <= answers_per_pair:
        raise ValidationError(
            f"the margin must be from 1 to the answers per pair ({answers_per_pair}), got {margin}"
        )
    if PreferenceCampaign.objects.filter(collection=collection, name=name).exists():
        raise ValidationError(f"the collection has a campaign called “{name}” already")
    source_name = source_name or name
    if collection.judgment_sources.filter(name=source_name).exists():
        raise ValidationError(
            f"the collection has a source called “{source_name}” already: give the groups "
            "a new source's name (a campaign never changes a source it did not make)"
        )
    sorted_queries, notes = _candidates(collection, queries, candidates)
    options.setdefault("instructions", PAIR_INSTRUCTIONS)
    with transaction.atomic():
        campaign = preference_campaign_create(
            collection=collection, name=name, system_pairs=None, kind=PreferenceCampaign.PAIRS,
            list_length=1, min_clips_per_list=1, answers_per_example=answers_per_pair, **options,
        )  # fmt: skip
        source, _ = judgment_source_for_writing(
            collection=collection, name=source_name, kind=JudgmentSource.PAIRWISE,
            origin=f"crowd pairs campaign “{name}”", status=source_status,
        )  # fmt: skip
        study = PairwiseStudy.objects.create(campaign=campaign, margin=margin, source=source)
        starts = {
            query_id: quicksort_start([str(c) for c in clips], seed=study.seed)
            for query_id, clips in sorted_queries.items()
        }
        PairwiseSort.objects.bulk_create(
            PairwiseSort(
                study=study,
                query_id=query_id,
                candidates=[str(c) for c in clips],
                state=state_data(starts[query_id]),
                done=starts[query_id].done,
            )
            for query_id, clips in sorted_queries.items()
        )
        if campaign.quiz_length:
            trap_pairs_add(
                study=study, count=campaign.quiz_length * QUIZ_PAIRS_PER_QUESTION,
                pool=TrapQuestion.QUIZ, rng=random.Random(f"{study.seed}:quiz"),
            )  # fmt: skip
        pairwise_drive(campaign_id=campaign.pk)  # the first round's pairs, its traps
        problems = campaign_pool_needs(campaign=campaign).problems if campaign.is_open else []
        if problems:
            PreferenceCampaign.objects.filter(pk=campaign.pk).update(is_open=False)
            campaign.is_open = False
            notes.append("Created closed: " + " ".join(problems))
    return PairwiseCreated(campaign=campaign, notes=notes)


def _candidates(
    collection: Collection,
    queries: Iterable[Query] | None,
    candidates: Mapping[int, Sequence[int]] | None,
) -> tuple[dict[int, list[int]], list[str]]:
    """The candidates of each query to sort, and notes on the queries left out."""
    chosen = list(collection.queries.select_related("clip") if queries is None else queries)
    if any(q.collection_id != collection.pk for q in chosen):
        raise ValidationError("a query is not of this collection")
    pools = query_pools(collection=collection) if candidates is None else {}
    clips_here = set(collection.clips.values_list("pk", flat=True)) if candidates else set()
    found, left_out = {}, []
    for query in sorted(chosen, key=lambda q: q.clip.external_id):
        clips = sorted(set(candidates.get(query.pk, ()))) if candidates else pools[query.pk]
        if candidates and not set(clips) <= clips_here:
            raise ValidationError(f"query {query.clip.external_id}: a candidate is not a clip here")
        clips = [c for c in clips if c != query.clip_id]
        if len(clips) > MAX_CANDIDATES:
            raise ValidationError(
                f"query {query.clip.external_id} has {len(clips)} candidates; a sort takes at "
                f"most {MAX_CANDIDATES} (give fewer)"
            )
        if clips:
            found[query.pk] = clips
        else:
            left_out.append(query.clip.external_id)
    if not found:
        raise ValidationError("no query has a candidate to sort: the queries' pools are empty")
    notes = [f"Left out, with no candidates: {', '.join(left_out)}."] if left_out else []
    return found, notes
