"""Listening as the server saw it, built by hand: three answers whose coverage and time
are worked out in the comments, and the listening rules those figures assume
(``rules``, a fixture a module asks for)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from catalog.models import Clip
from crowd.models import Example, ExampleItem, PreferenceTask
from crowd.services.answers import answer_submit
from crowd.services.campaigns import preference_campaign_create
from crowd.services.tasks import task_serve
from listening.models import AudioServed
from tests.helpers.crowd_fixtures import arrive

WINDOW = 1000
"""Bytes of each hand-made clip's listening window (the whole file: its length is unknown)."""


@pytest.fixture
def rules(settings):
    """The rules as the comments compute them, whatever the environment says."""
    settings.EARSHOT_LISTEN_COVERAGE = 0.5
    settings.EARSHOT_LISTEN_WINDOW_SECONDS = 30
    settings.EARSHOT_LISTEN_SECONDS_PER_CLIP = 5


def one_clip_lists_campaign(collection, **options):
    """Three examples of a query and lists of one clip each, nine distinct clips with audio
    of unknown length (each needs 5 s, so hearing an example's three takes 15 s)."""
    campaign = preference_campaign_create(
        collection=collection, name="Tiny", system_pairs=None, listening_check=False,
        list_length=1, max_answers_per_worker=10, **options,
    )  # fmt: skip
    queries = list(collection.queries.order_by("clip__external_id")[:3])
    songs = list(collection.clips.filter(external_id__startswith="d").order_by("external_id"))
    for n, query in enumerate(queries):
        a, b = songs[2 * n], songs[2 * n + 1]
        example = Example.objects.create(
            campaign=campaign, query=query, source=Example.SOURCE_CSV, signature=f"tiny {n}"
        )
        ExampleItem.objects.create(example=example, side="a", rank=1, clip=a)
        ExampleItem.objects.create(example=example, side="b", rank=1, clip=b)
        Clip.objects.filter(pk__in=[query.clip_id, a.pk, b.pk]).update(audio="clips/x.wav")
    return campaign


def served(task: PreferenceTask, clip_id: int, *, sent: int, before_answer: float) -> None:
    """What the server would have recorded had it sent the first ``sent`` bytes of the clip
    ``before_answer`` seconds before the task's answer."""
    at = task.answer.answered_at - timedelta(seconds=before_answer)
    AudioServed.objects.create(
        task=task, clip_id=clip_id, size=WINDOW, ranges=[[0, sent - 1]], bytes_sent=sent,
        window_bytes=WINDOW, window_bytes_sent=sent, requests=1, first_sent_at=at,
        last_sent_at=at,
    )  # fmt: skip


def clips_of(task: PreferenceTask) -> list[int]:
    """The query's clip, then list a's, then list b's."""
    items = dict(task.example.items.values_list("side", "clip_id"))
    return [task.example.query.clip_id, items["a"], items["b"]]


# Three answers of one worker, each relying on three clips (query, list a, list b), with
# windows of 1000 bytes; a clip counts once 50 % of its window was sent, and every clip
# needs 5 s, one at a time: 15 s per answer.
#   answer 1: 1000, 1000, 400 bytes sent → 100 %, 100 %, 40 %: 2 of 3 clips heard (40 % <
#             50 %); 10 s from the first clip to the answer → not every clip heard.
#   answer 2: 600, 500, 1000 → 60 %, 50 %, 100 %: 3 of 3 (50 % is enough); 20 s ≥ 15 s
#             → every clip heard.
#   answer 3: 700, 700, 700 → 70 % each: 3 of 3, but 12 s < 15 s → not every clip heard:
#             no time to hear three clips one after another.
# The worker: 1 of 3 answers; coverage per clip, the nine sorted: .4 .5 .6 .7 .7 .7 1 1 1,
# median .7 (the fifth); seconds 10, 20, 12 → median 12; every answer needs 15 s.
SENT = [(1000, 1000, 400), (600, 500, 1000), (700, 700, 700)]


SECONDS = [10, 20, 12]


@pytest.fixture
def three_answers(crowd_collection):
    campaign = one_clip_lists_campaign(crowd_collection)
    worker = arrive(campaign, "careful-mostly")
    tasks = []
    for sent, seconds in zip(SENT, SECONDS, strict=True):
        task = task_serve(worker=worker)
        answer_submit(worker=worker, key=task.key, choice="a_better")
        task = PreferenceTask.objects.select_related("answer", "example__query").get(pk=task.pk)
        for clip_id, n in zip(clips_of(task), sent, strict=True):
            served(task, clip_id, sent=n, before_answer=seconds)
        tasks.append(task)
    assert task_serve(worker=worker) is None  # three examples, three answers
    return campaign, worker, tasks
