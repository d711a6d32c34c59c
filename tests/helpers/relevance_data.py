"""A small collection for relevance campaigns, built on the personas' organiser.

Two queries (``qa1`` by artist A, ``qb1`` by artist B), three systems whose top-3 lists
overlap, and one clip by each query's own artist in the lists, so that pooling, the
same-artist rule and per-query work can all be seen. With ``audio_seconds`` every clip
gets a real WAV file.
"""

from __future__ import annotations

import threading

from django.core.files.base import ContentFile
from django.db import connection
from django.utils import timezone

from catalog.models import Clip, Collection, Query, RunEntry, System
from common.roles import ASSESSOR
from relevance.models import Assignment
from relevance.services.campaigns import assignment_next, relevance_campaign_create
from tests.helpers.audio_files import sine_wav
from tests.helpers.personas import make_user

# query → each system's ranked list (rank 1 first); clip ids name their artist (a*, b*, c*).
RUNS = {
    "qa1": {"sysAlpha": ["c1", "a2", "b1", "c2"], "sysBeta": ["c1", "c3", "qa1", "b2"], "sysGamma": ["b1", "c1", "c3"]},
    "qb1": {"sysAlpha": ["a2", "c2", "b2", "c1"], "sysBeta": ["c3", "a2", "c2"], "sysGamma": ["c1", "b2", "a2"]},
}  # fmt: skip
POOL_AT_3 = {
    # union of the top 3 in RUNS above without the query clip (qa1 at S2's rank 3)
    "qa1": {"c1", "a2", "b1", "c3"},
    "qb1": {"a2", "c2", "b2", "c3", "c1"},
}
POOL_AT_3_OTHER_ARTISTS = {"qa1": {"c1", "b1", "c3"}, "qb1": {"a2", "c2", "c3", "c1"}}
"""The same without clips by the query's artist (a2 for qa1's Artist A, b2 for qb1's B)."""


def _artist(external_id: str) -> str:
    letter = external_id[1] if external_id.startswith("q") else external_id[0]
    return f"Artist {letter.upper()}"


def make_judging_collection(owner, *, audio_seconds: float | None = None, name="Judging set"):
    collection = Collection.objects.create(name=name, owner=owner)
    ids = sorted(
        {c for lists in RUNS.values() for ranked in lists.values() for c in ranked} | set(RUNS)
    )
    clips = {}
    for index, external_id in enumerate(ids):
        clip = Clip.objects.create(
            collection=collection,
            external_id=external_id,
            title=f"Clip {external_id}",
            artist=_artist(external_id),
        )
        if audio_seconds:
            clip.audio.save(
                f"{external_id}.wav", ContentFile(sine_wav(audio_seconds, freq=220 + 40 * index))
            )
        clips[external_id] = clip
    systems = {}
    for query_id, lists in RUNS.items():
        query = Query.objects.create(collection=collection, clip=clips[query_id])
        for system_name, ranked in lists.items():
            if system_name not in systems:
                systems[system_name] = System.objects.create(
                    collection=collection, name=system_name
                )
            for rank, clip_id in enumerate(ranked, start=1):
                RunEntry.objects.create(
                    system=systems[system_name],
                    query=query,
                    rank=rank,
                    clip=clips[clip_id],
                    score=1 / rank,
                )
    return collection


def make_campaign(personas, *, assessors=None, query_names=None, **options):
    """A campaign on a fresh judging collection, of the queries ``query_names`` (default:
    both); the personas' assessor judges unless told."""
    collection = make_judging_collection(personas.organiser)
    if query_names is not None:
        chosen = collection.queries.filter(clip__external_id__in=query_names)
        options["queries"] = list(chosen.values_list("pk", flat=True))
    options.setdefault("cutoff", 3)
    options.setdefault("exclude_same_artist", False)
    options.setdefault("must_listen_seconds", 0)
    return relevance_campaign_create(
        collection=collection,
        name="Similarity 2025",
        assessors=assessors if assessors is not None else [personas.assessor],
        **options,
    )


def make_assessor(username: str, *, owner=None):
    """An assessor account; ``owner`` is the organiser whose person it is (who may add it)."""
    return make_user(username, ASSESSOR, owner=owner)


def two_assessors_on_one_query(personas, ada, bea):
    """Ada and bea both hold the same query (bea finishes the other one first)."""
    campaign = make_campaign(personas, assessors=[ada, bea], assessors_per_query=2)
    ada_work = assignment_next(campaign=campaign, assessor=ada)
    bea_first = assignment_next(campaign=campaign, assessor=bea)  # the other query first
    Assignment.objects.filter(pk=bea_first.pk).update(completed_at=timezone.now())
    bea_work = assignment_next(campaign=campaign, assessor=bea)
    assert bea_work.query == ada_work.query
    return campaign, ada_work, bea_work


def at_the_same_instant(people, action) -> list:
    """``action(person)`` for each person in its own thread (its own database connection),
    all released at once; the results in ``people``'s order, an exception as its result."""
    start = threading.Barrier(len(people))
    results: dict[int, object] = {}

    def run(index, person):
        try:
            start.wait(timeout=10)
            results[index] = action(person)
        except Exception as error:  # handed back to the test, not swallowed
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(people)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return [results[index] for index in range(len(people))]
