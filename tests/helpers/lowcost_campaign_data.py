"""A small collection for low-cost relevance campaigns, where a handful of judgments settle
the ranking of its three systems.

Three queries; each system returns two clips per query, named by what they are:
``g`` good (Fine 100), ``s`` so-so (50), ``m`` meagre (30), ``p`` poor (0). GoodEar
returns (g, s), MidFi (s, m), Poorly (p, m): on CG_l@2 GoodEar > MidFi > Poorly, and
the pool of a query is its four clips g, s, m, p (12 pairs in all). Every clip has its
own artist and the genre "Rock", queries too, so M_out applies from the start.

With the published models and the judgments of :data:`FINE`, the core's
:func:`~evaluation.core.lowcost.lowcost_state` reaches 95% mean confidence in the
ranking of CG(scale=fine)@2 after 5 judgments, judging in its own order (g1, p1, g2,
p2, g3), whether the order is re-ranked after every judgment or not at all (the
stale-order fallback); ``evaluation/tests/test_campaign_estimate.py`` checks both.

The low-cost test modules take their ``collection`` and ``campaign`` fixtures from
:func:`organisers_collection` and :func:`assessors_campaign`, one line each
(``collection = pytest.fixture(name="collection")(organisers_collection)``).
"""

from __future__ import annotations

from django.core.files.base import ContentFile

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from relevance.services.campaigns import judgment_save, relevance_campaign_create
from tests.helpers.audio_files import sine_wav
from tests.helpers.sources import source_for

QUERIES = ("q1", "q2", "q3")
LISTS = {"GoodEar": "gs", "MidFi": "sm", "Poorly": "pm"}
"""Each system's two clips per query, best first, by kind (g, s, m, p + the query's number)."""
FINE = {"g": 100, "s": 50, "m": 30, "p": 0}
"""The Fine score of each kind of clip."""
MEASURE = "CG(scale=fine)@2"
CONFIDENT_AFTER = 5
"""Judgments after which the ranking is 95% confident (see the module's docstring)."""


def broad_of(fine: int) -> int:
    return 0 if fine < 35 else 1 if fine < 70 else 2


def fine_of(clip_id: str) -> int:
    return FINE[clip_id[0]]


def rankings() -> dict[str, dict[str, list[str]]]:
    """``{system: {query: [clip, clip]}}`` as the core's ``Pool.from_rankings`` takes it."""
    return {
        system: {q: [f"{kind}{q[1]}" for kind in kinds] for q in QUERIES}
        for system, kinds in LISTS.items()
    }


def make_lowcost_collection(owner, *, audio_seconds: float | None = None, name="Low-cost set"):
    collection = Collection.objects.create(name=name, owner=owner)
    ids = sorted({c for lists in rankings().values() for r in lists.values() for c in r})
    clips = {}
    for index, external_id in enumerate([*QUERIES, *ids]):
        clip = Clip.objects.create(
            collection=collection,
            external_id=external_id,
            title=f"Clip {external_id}",
            artist=f"Artist {external_id}",
            genre="Rock",
        )
        if audio_seconds:
            clip.audio.save(
                f"{external_id}.wav", ContentFile(sine_wav(audio_seconds, freq=220 + 30 * index))
            )
        clips[external_id] = clip
    queries = {q: Query.objects.create(collection=collection, clip=clips[q]) for q in QUERIES}
    for system_name, by_query in rankings().items():
        system = System.objects.create(collection=collection, name=system_name)
        for query_id, ranked in by_query.items():
            for rank, clip_id in enumerate(ranked, start=1):
                RunEntry.objects.create(
                    system=system, query=queries[query_id], rank=rank, clip=clips[clip_id]
                )
    return collection


def make_lowcost_campaign(collection, *, assessors=(), **options):
    options.setdefault("cutoff", 2)
    options.setdefault("exclude_same_artist", False)
    options.setdefault("must_listen_seconds", 0)
    options.setdefault("lowcost_measure", MEASURE)
    return relevance_campaign_create(
        collection=collection, name="Low-cost 2025", mode="lowcost", assessors=assessors, **options
    )


def organisers_collection(personas) -> Collection:
    """This collection, owned by the organiser (a fixture's body)."""
    return make_lowcost_collection(personas.organiser)


def assessors_campaign(collection, personas):
    """A low-cost campaign on ``collection`` with the assessor (a fixture's body)."""
    return make_lowcost_campaign(collection, assessors=[personas.assessor])


def judge(assignment, assessor, fine: int | None = None):
    """Save the assessor's complete judgment of their pair (its :data:`FINE` by default)."""
    entry = assignment.pool_entry
    fine = fine_of(entry.clip.external_id) if fine is None else fine
    return judgment_save(
        assignment=assignment,
        assessor=assessor,
        pool_entry=entry,
        broad=broad_of(fine),
        fine=fine,
        listened_seconds=1,
    )


def import_judgment(collection, query_id: str, clip_id: str, fine: int, *, source="elsewhere"):
    """A judgment that came from elsewhere (an imported file), not from the campaign."""
    return RelevanceJudgment.objects.create(
        query=collection.queries.get(clip__external_id=query_id),
        clip=collection.clips.get(external_id=clip_id),
        source=source_for(collection, f"{source}.tsv"),
        broad=broad_of(fine),
        fine=fine,
    )
