"""Listening is evidence of content served and time passed, not of requests (issue 23).

Two attacks, replayed with plain HTTP as a script would make them:

- a crowd worker asks for one byte of the query and of the first clip of each list
  (``Range: bytes=0-0``), waits, and answers: before, the check read only that *some*
  bytes were sent, and the answer was accepted;
- an assessor fetches every candidate's audio at once, waits 6 s and judges them all:
  before, each clip's 5 s were met by the same 6 s, and all 13 judgments were saved.

Each now meets a refusal that says what to play; the honest way through still works.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from catalog.models import RelevanceJudgment
from crowd import selectors
from crowd.models import Answer, PreferenceTask
from listening.models import AudioServed
from listening.services.audio_served import bytes_within, window_bytes
from relevance.services.campaigns import assignment_next
from tests.helpers.audio_files import played, sine_wav
from tests.helpers.clients import as_, post_json
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = pytest.mark.django_db


def test_one_byte_of_each_clip_is_not_listening(audible_collection):
    campaign = make_campaign(
        audible_collection, traps=0, listening_check=True, min_seconds_on_task=5
    )
    worker = Browser(campaign)
    worker.start("worker=tiny-ranges")
    urls = worker.audio_urls()
    wanted = [u for u in urls if u.endswith(("/query", "/a1", "/b1"))]
    for url in wanted:
        assert worker.get(url, HTTP_RANGE="bytes=0-0").status_code == 206
    worker.wait(60)  # far longer than the 5.2 s of the report

    refused = worker.answer("a_better")
    page = refused.content.decode()
    assert refused.status_code == 400 and not Answer.objects.exists()
    assert "still to play: the query, list A, list B" in page
    assert "A clip counts once you have played 50 % of its first 30 seconds" in page
    served = AudioServed.objects.filter(task__key=worker.key)
    assert sorted(s.window_bytes_sent for s in served) == [1, 1, 1]

    for url in wanted:  # the browser plays them: the whole file reaches it
        worker.get(url, HTTP_RANGE="bytes=0-")
    worker.wait(16)  # three clips, one at a time, 5 s each
    assert worker.answer("a_better").status_code == 302 and Answer.objects.count() == 1


def test_fetching_every_candidate_at_once_counts_as_hearing_one(
    client, personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    campaign = make_relevance_campaign(personas, must_listen_seconds=5)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entries = list(campaign.pool.filter(query=work.query))
    for entry in entries:
        entry.clip.audio.save(f"{entry.clip.external_id}.wav", ContentFile(sine_wav(8.0)))
    assessor = as_(client, personas.assessor)
    for entry in entries:  # every candidate at once
        audio = played(
            assessor, f"/judge/assignments/{work.pk}/audio/{entry.pk}", HTTP_RANGE="bytes=0-"
        )
        assert audio.status_code == 206
    AudioServed.objects.filter(assignment=work).update(
        first_sent_at=timezone.now() - timedelta(seconds=6)
    )  # "waiting 6 s"

    url = f"/judge/assignments/{work.pk}/judgments"
    statuses = [
        post_json(assessor, url, {"candidate": e.pk, "broad": 1, "fine": 50}).status_code
        for e in entries
    ]
    assert len(entries) >= 2 and statuses == [200] + [400] * (len(entries) - 1)
    assert RelevanceJudgment.objects.count() == 1
    refused = post_json(assessor, url, {"candidate": entries[1].pk, "broad": 1}).json()["detail"]
    assert "Listen to the candidates one at a time: judging 2 of them needs at least 10 s" in (
        refused
    )

    AudioServed.objects.filter(assignment=work).update(
        first_sent_at=timezone.now() - timedelta(seconds=5 * len(entries) + 1)
    )  # as long as hearing each for 5 s, one after another, takes
    assert all(
        post_json(assessor, url, {"candidate": e.pk, "broad": 1, "fine": 50}).status_code == 200
        for e in entries
    )


def test_a_judgment_needs_half_of_the_clips_first_thirty_seconds_sent(
    client, personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    campaign = make_relevance_campaign(personas, must_listen_seconds=5)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entry = campaign.pool.filter(query=work.query).first()
    entry.clip.audio.save("long.wav", ContentFile(sine_wav(8.0)))
    entry.clip.duration = 60.0  # as if 60 s long: its window is its first half
    entry.clip.save(update_fields=["duration"])
    size = entry.clip.audio.size
    assessor = as_(client, personas.assessor)
    audio_url = f"/judge/assignments/{work.pk}/audio/{entry.pk}"
    played(assessor, audio_url, HTTP_RANGE=f"bytes=0-{size // 5}")  # 40 % of the window
    AudioServed.objects.filter(assignment=work).update(
        first_sent_at=timezone.now() - timedelta(seconds=60)
    )
    url = f"/judge/assignments/{work.pk}/judgments"
    refused = post_json(assessor, url, {"candidate": entry.pk, "broad": 2})
    assert refused.status_code == 400 and "so far 40 %" in refused.json()["detail"]
    played(assessor, audio_url, HTTP_RANGE=f"bytes={size // 5}-{size // 2}")
    assert post_json(assessor, url, {"candidate": entry.pk, "broad": 2}).status_code == 200


def test_the_window_is_the_first_thirty_seconds_by_bytes():
    # 90 s in 3,000,000 bytes: 30 s are the first 1,000,000 bytes (hand computation).
    assert window_bytes(size=3_000_000, duration=90.0) == 1_000_000
    assert window_bytes(size=3_000_000, duration=20.0) == 3_000_000  # shorter than 30 s
    assert bytes_within([[0, 0], [500_000, 1_499_999]], 1_000_000) == 1 + 500_000


def test_the_task_page_is_told_which_clips_the_server_counts_as_heard(audible_collection):
    """Issue 23, item 4: each clip is marked once heard enough, from the server's evidence,
    and the page says what the answer still waits for."""
    campaign = make_campaign(
        audible_collection, traps=0, listening_check=True, min_seconds_on_task=0
    )
    worker = Browser(campaign)
    worker.start("worker=marks")
    heard_url = f"/t/{campaign.token}/heard/{worker.key}/"
    assert f'data-heard-url="{heard_url}"' in worker.page.content.decode()
    query_url = next(u for u in worker.audio_urls() if u.endswith("/query"))
    worker.get(query_url, HTTP_RANGE="bytes=0-0")
    nothing = worker.get(heard_url).json()
    assert nothing["heard"] == [] and nothing["ready"] is False
    assert "still to play: the query, list A, list B" in nothing["missing"]
    worker.listen(then_wait=5)
    # every slot holding a clip that was played is marked (lists can share a clip)
    task = PreferenceTask.objects.get(key=worker.key)
    slots = ["query"] + [f"{side}{n}" for side in "ab" for n in range(1, 6)]
    clip_of = {slot: selectors.task_clip(task=task, slot=slot).pk for slot in slots}
    played = {clip_of["query"], clip_of["a1"], clip_of["b1"]}
    expected = [slot for slot in slots if clip_of[slot] in played]
    assert worker.get(heard_url).json() == {"heard": expected, "ready": True, "missing": ""}
    assert worker.answer("a_better").status_code == 302
    assert worker.get(heard_url).status_code == 404  # an answered task is no longer asked about


def test_a_response_recorded_in_parts_is_one_request_from_its_first_delivery(personas):
    """A long response records what it delivered as it goes (listening.audio_delivery): the
    parts merge into one range, count one request, and keep the first delivery's time even
    when a later request recorded first."""
    from common.audio import ByteRange
    from listening.services.audio_served import audio_served_record

    campaign = make_relevance_campaign(personas, must_listen_seconds=5)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    clip = campaign.pool.filter(query=work.query).first().clip
    t0 = timezone.now() - timedelta(seconds=30)
    later = t0 + timedelta(seconds=10)
    record = dict(clip=clip, size=1000, assignment=work)
    audio_served_record(**record, byte_range=ByteRange(500, 999), first_at=later, now=later)
    audio_served_record(**record, byte_range=ByteRange(0, 199), first_at=t0, now=t0)
    audio_served_record(
        **record, byte_range=ByteRange(0, 499), first_at=t0, now=t0 + timedelta(seconds=1),
        new_request=False,
    )  # fmt: skip
    served = AudioServed.objects.get(assignment=work, clip=clip)
    assert (served.ranges, served.bytes_sent, served.requests) == ([[0, 999]], 1000, 2)
    assert (served.first_sent_at, served.last_sent_at) == (t0, later)
