"""Fixtures for the crowd preference tests (registered as a plugin in ``tests/helpers/fixtures.py``).

``crowd_collection``: 4 queries, 24 candidate clips, 3 systems with top-5 lists that
differ, and a Fine judgment for every (query, candidate) pair, so that clear-cut trap
questions can be made from judgments. Handing answers to Celery is recorded, not sent.
"""

from __future__ import annotations

import random

import pytest
from django.core.files.base import ContentFile

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from config.env import redis_cache_location
from crowd.models import (
    A_BETTER,
    B_BETTER,
    BOTH_BAD,
    BOTH_GOOD,
    Answer,
    Example,
    PreferenceCampaign,
    TrapQuestion,
    Worker,
)
from crowd.services.answers import answer_submit
from crowd.services.campaigns import preference_campaign_create
from crowd.services.tasks import task_serve
from crowd.services.traps import trap_question_mark
from crowd.services.workers import (
    Arrival,
    worker_arrive,
    worker_consent,
)
from tests.helpers.audio_files import sine_wav
from tests.helpers.sources import source_for
from work import handoff


@pytest.fixture(autouse=True)
def handed_over(request, monkeypatch):
    """Every task judging sends by name, as (name, kwargs); nothing reaches a broker.

    A test marked ``real_handoff`` (the pipeline with a real Celery worker) sends for real,
    coalesced through markers in the cache: the cache is the session's Redis there, as
    the worker's is (``work.handoff.queued_mark``).
    """
    sent: list[tuple[str, dict]] = []
    if request.node.get_closest_marker("real_handoff"):
        cache_on_the_session_redis(request)
        return sent
    monkeypatch.setattr(
        handoff, "send_task", lambda name, *, kwargs, **options: sent.append((name, kwargs))
    )
    return sent


def cache_on_the_session_redis(request) -> None:
    """Point this test's cache at the session's Redis, where the tests' Celery worker
    keeps its cache (same key prefix, so the worker deletes the markers the test sets),
    without the login throttle's counts that earlier tests left there.

    That Redis lives as long as the session, and every login of a journey counts (5 a
    minute per account, :mod:`common.throttles`): run back to back (``-m
    celery_worker``), the fifth journey's log-in as the organiser was refused with a 429.
    Only the counts go: the Redis is the broker too, whose keys a ``cache.clear()``
    (``FLUSHDB``) would take.
    """
    from django.core.cache import cache

    server = request.getfixturevalue("embedded_redis")
    settings = request.getfixturevalue("settings")
    default = dict(settings.CACHES["default"], LOCATION=redis_cache_location(server.url))
    settings.CACHES = {**settings.CACHES, "default": default}
    client = cache._cache.get_client(write=True)  # redis-py's client of Django's cache
    for key in client.scan_iter(match=f"{default.get('KEY_PREFIX', '')}*throttle_*"):
        client.delete(key)


def build_crowd_collection(owner, *, name="Crowd collection", queries=4, candidates=24):
    rng = random.Random(7)
    collection = Collection.objects.create(name=name, owner=owner)
    query_clips = [
        Clip.objects.create(collection=collection, external_id=f"q{i}", title=f"Query {i}")
        for i in range(1, queries + 1)
    ]
    clips = [
        Clip.objects.create(collection=collection, external_id=f"d{i:02d}", title=f"Song {i}")
        for i in range(1, candidates + 1)
    ]
    systems = [System.objects.create(collection=collection, name=f"S{i}") for i in (1, 2, 3)]
    source = source_for(collection, "test")
    for query_clip in query_clips:
        query = Query.objects.create(collection=collection, clip=query_clip)
        fine = {clip.pk: rng.randrange(0, 101) for clip in clips}
        for clip in clips:
            RelevanceJudgment.objects.create(
                query=query, clip=clip, source=source, fine=fine[clip.pk]
            )
        for s, system in enumerate(systems):
            ranked = sorted(clips, key=lambda c: -fine[c.pk])[s * 3 : s * 3 + 5]
            if s == 2:
                ranked = sorted(clips, key=lambda c: fine[c.pk])[:5]
            for rank, clip in enumerate(ranked, start=1):
                RunEntry.objects.create(system=system, query=query, rank=rank, clip=clip)
    return collection


@pytest.fixture
def crowd_collection(personas):
    return build_crowd_collection(personas.organiser)


@pytest.fixture
def audible_collection(crowd_collection, settings, tmp_path):
    """``crowd_collection`` with a 1.5 s WAV for every clip (media in a temporary folder)."""
    settings.MEDIA_ROOT = tmp_path
    wav = sine_wav(1.5)
    for clip in crowd_collection.clips.all():
        clip.duration = 1.5  # what importing the file would read (ingest.importers.clips)
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(wav))
    return crowd_collection


WHY = {
    A_BETTER: "{a} is the better list.",
    B_BETTER: "{b} is the better list.",
    BOTH_GOOD: "both lists are good.",
    BOTH_BAD: "both lists are bad.",
}
"""The trap questions' explanations, naming the lists as each worker sees them."""


def make_campaign(
    collection, *, traps=4, quiz_traps=None, practice=0, **options
) -> PreferenceCampaign:
    """A campaign with the 12 system-pair examples; the first ``traps`` become trap
    questions whose accepted answer cycles through the four answers. The first
    ``quiz_traps`` of them (``quiz_length`` unless told) form the quiz pool, the others
    the work pool; the ``practice`` examples after them form the practice pool.

    The listening check is off unless asked for (``listening_check=True``): these
    tests are about everything else, and their clips mostly have no audio. The tests of
    the check itself are in ``crowd/tests/test_crowd_listening.py`` and ``test_crowd_attacks.py``.
    """
    options.setdefault("trap_rate", 0.0)
    options.setdefault("listening_check", False)
    campaign = preference_campaign_create(collection=collection, name="Study", **options)
    answers = [A_BETTER, B_BETTER, BOTH_GOOD, BOTH_BAD]
    if quiz_traps is None:
        quiz_traps = campaign.quiz_length
    pools = ([TrapQuestion.QUIZ] * quiz_traps + [TrapQuestion.WORK] * traps)[:traps]
    pools += [TrapQuestion.PRACTICE] * practice
    for i, (example, pool) in enumerate(zip(campaign.examples.order_by("pk"), pools, strict=False)):
        trap_question_mark(
            example=example,
            accepted_answers=[answers[i % 4]],
            explanation=f"Trap {i}: {WHY[answers[i % 4]]}",
            pool=pool,
        )
    return campaign


def trap_of(assignment) -> TrapQuestion | None:
    return TrapQuestion.objects.filter(example_id=assignment.example_id).first()


def right_choice(assignment) -> str:
    """The shown-side answer a careful worker gives (accepted for traps, ``a_better`` else)."""
    from crowd.models import choice_as_stored

    trap = trap_of(assignment)
    stored = trap.accepted_answers[0] if trap else A_BETTER
    return choice_as_stored(stored, swapped=assignment.swapped)


def wrong_choice(assignment) -> str:
    from crowd.models import CHOICE_LABELS, choice_as_stored

    trap = trap_of(assignment)
    for choice in CHOICE_LABELS:
        if (
            not trap
            or choice_as_stored(choice, swapped=assignment.swapped) not in trap.accepted_answers
        ):
            return choice
    raise AssertionError("a trap question that accepts every answer")


__all__ = ["Example", "build_crowd_collection", "make_campaign"]


def arrive(campaign, worker_id="w1", seed=None):
    """A consenting worker; seeded from their id so that every run serves the same order."""
    worker = worker_arrive(campaign=campaign, arrival=Arrival("generic", worker_id))
    worker.seed = seed if seed is not None else sum(map(ord, worker_id)) * 7919
    worker.save(update_fields=["seed"])
    return worker_consent(worker=worker)


def answer_all(worker, limit=100):
    served = []
    for _ in range(limit):
        task = task_serve(worker=worker)
        if task is None:
            break
        served.append(task)
        answer_submit(worker=worker, key=task.key, choice=right_choice(task))
    return served


def work(worker, *, miss_traps: bool, tasks: int = 100):
    for _ in range(tasks):
        task = task_serve(worker=worker)
        if task is None:
            return
        choice = wrong_choice(task) if miss_traps and trap_of(task) else right_choice(task)
        answer_submit(worker=worker, key=task.key, choice=choice)


def assert_consistent(campaign) -> None:
    """Trust, missed and the answers' flags, recounted from the answers themselves."""
    for worker in Worker.objects.filter(campaign=campaign):
        counting = Answer.objects.filter(
            worker=worker, example__trap__isnull=False, example__trap__contested=False
        )
        answered, correct = counting.count(), counting.filter(correct=True).count()
        assert (worker.trap_answered, worker.trap_correct) == (answered, correct), worker
        assert worker.trust == (correct / answered if answered else None), worker
        assert worker.trap_missed == answered - correct
        answers = Answer.objects.filter(worker=worker)
        if worker.status == Worker.STOPPED:
            assert not answers.filter(excluded=False).exists(), worker
            assert not answers.filter(accepted_at__isnull=False).exists(), worker
        else:
            assert not answers.filter(excluded=True).exists(), worker
            accepted = set(answers.filter(accepted_at__isnull=False).values_list("pk", flat=True))
            countable = set(answers.filter(example__trap__isnull=True).values_list("pk", flat=True))
            assert accepted == (countable if worker.trusted else set()), worker
    for example in campaign.examples.all():
        live = example.answers.filter(excluded=False).count()
        open_tasks = example.tasks.filter(answered_at__isnull=True, released=False).count()
        assert example.slots_taken == live + open_tasks, example
