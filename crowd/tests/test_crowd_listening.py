"""Listening evidence: what the server sent is recorded per task and clip, and the crowd's
listening check reads it (listening.services.audio_served, crowd.services.listening)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from common.audio import ByteRange
from crowd import selectors
from crowd.models import PreferenceTask
from crowd.services.listening import task_listening
from listening.models import AudioServed
from listening.services.audio_served import audio_served_record, merge_range
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.threads import run_together

pytestmark = pytest.mark.django_db


def test_ranges_merge_into_the_bytes_sent():
    assert merge_range([], 0, 9) == [[0, 9]]
    assert merge_range([[0, 9]], 10, 19) == [[0, 19]]  # adjacent
    assert merge_range([[0, 9], [30, 39]], 5, 34) == [[0, 39]]  # bridging
    assert merge_range([[20, 29]], 0, 4) == [[0, 4], [20, 29]]


def test_every_range_request_of_the_workers_browser_is_recorded(audible_collection):
    campaign = make_campaign(audible_collection, traps=0)
    browser = Browser(campaign)
    browser.start("worker=w1")
    url = next(u for u in browser.audio_urls() if u.endswith("/a1"))
    size = int(browser.get(url, HTTP_RANGE="bytes=0-99")["Content-Range"].split("/")[1])
    browser.get(url, HTTP_RANGE="bytes=100-199")
    browser.get(url, HTTP_RANGE="bytes=1000-1099")
    assert browser.get(url, HTTP_RANGE=f"bytes={size + 10}-").status_code == 416  # nothing sent
    served = AudioServed.objects.get()
    assert (served.ranges, served.bytes_sent, served.requests) == ([[0, 199], [1000, 1099]], 300, 3)
    assert served.size == size and served.fraction == pytest.approx(300 / size)
    browser.get(url)  # the whole file
    served.refresh_from_db()
    assert (served.ranges, served.bytes_sent) == ([[0, size - 1]], size)


@pytest.mark.django_db(transaction=True)
def test_requests_arriving_together_are_all_recorded(audible_collection):
    campaign = make_campaign(audible_collection, traps=0)
    browser = Browser(campaign)
    browser.start("worker=w1")
    task = PreferenceTask.objects.get(key=browser.key)
    clip = task.example.query.clip
    results = run_together(
        [
            lambda i=i: audio_served_record(
                clip=clip, size=10_000, byte_range=ByteRange(i * 1000, i * 1000 + 999), task=task
            )
            for i in range(4)
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    served = AudioServed.objects.get()
    assert (served.requests, served.bytes_sent, served.ranges) == (4, 4000, [[0, 3999]])


def listening_of(browser, campaign):
    task = PreferenceTask.objects.get(key=browser.key)
    return task_listening(task=task, campaign=campaign, now=timezone.now())


def test_the_check_asks_for_the_query_and_clips_of_each_list_as_shown(audible_collection):
    campaign = make_campaign(
        audible_collection, traps=0, listening_check=True, min_clips_per_list=2,
        min_seconds_on_task=5,
    )  # fmt: skip
    browser = Browser(campaign)
    browser.start("worker=w1")
    nothing = listening_of(browser, campaign)
    assert (nothing.query_missing, nothing.lists_missing, nothing.seconds_left) == (
        True, (("A", 2), ("B", 2)), 5,
    )  # fmt: skip
    assert nothing.message(campaign).startswith(
        "Please listen before answering: play the query and at least 2 clips of list A and "
        "of list B (still to play: the query, list A, list B). A clip counts once you have "
        "played 50 % of its first 30 seconds. Please take at least 5 seconds"
    )
    # Audio is recorded per clip: a clip in both lists counts for both. Play the query,
    # one clip only in A and two only in B.
    task = PreferenceTask.objects.get(key=browser.key)
    slots = {f"{side}{rank}": selectors.task_clip(task=task, slot=f"{side}{rank}").pk
             for side in "ab" for rank in range(1, 6)}  # fmt: skip
    only = {side: [s for s in slots if s[0] == side
                   and slots[s] not in {c for t, c in slots.items() if t[0] != side}]
            for side in "ab"}  # fmt: skip
    assert len(only["a"]) >= 2 and len(only["b"]) >= 2
    for slot in ("query", only["a"][0], *only["b"][:2]):
        browser.get(next(u for u in browser.audio_urls() if u.endswith(f"/{slot}")))
    partly = listening_of(browser, campaign)
    assert (partly.query_missing, partly.lists_missing, partly.clips_heard) == (
        False, (("A", 1),), 4,
    )  # fmt: skip
    browser.get(next(u for u in browser.audio_urls() if u.endswith(f"/{only['a'][1]}")))
    browser.wait(5)
    # Five clips relied on (the query, two of A, two of B), one at a time, each 1.5 s long
    # (shorter than the 5 s asked of a clip: all of it): 7.5 s, 5 of them gone, ⌈2.5⌉ to go.
    assert listening_of(browser, campaign).listening_left == 3
    browser.wait(25)
    assert listening_of(browser, campaign).enough


def test_clips_without_audio_are_not_asked_for(audible_collection):
    campaign = make_campaign(
        audible_collection, traps=0, listening_check=True, min_seconds_on_task=0
    )
    browser = Browser(campaign)
    browser.start("worker=w1")
    task = PreferenceTask.objects.get(key=browser.key)
    for item in task.example.items.filter(side="a"):
        item.clip.audio = ""
        item.clip.save(update_fields=["audio"])
    browser.task()
    browser.listen()  # the query and one clip of the list that has audio
    assert listening_of(browser, campaign).listening_left == 3  # two clips of 1.5 s: ⌈3.0⌉
    browser.wait(10)
    listening = listening_of(browser, campaign)
    assert listening.enough and listening.clips_heard == 2


def test_with_the_check_off_nothing_is_refused_but_listening_is_still_counted(audible_collection):
    campaign = make_campaign(audible_collection, traps=0, listening_check=False)
    browser = Browser(campaign)
    browser.start("worker=w1")
    assert listening_of(browser, campaign).enough
    browser.listen()
    assert browser.answer("a_better").status_code == 302
    assert PreferenceTask.objects.get(answer__isnull=False).answer.clips_heard == 3


def test_the_page_says_nothing_about_listening_it_cannot_check(audible_collection):
    """The refusal names lists as shown, never the stored sides or a clip."""
    campaign = make_campaign(audible_collection, traps=0, listening_check=True)
    browser = Browser(campaign)
    browser.start("worker=w1")
    PreferenceTask.objects.filter(key=browser.key).update(
        served_at=timezone.now() - timedelta(seconds=30)
    )
    html = browser.answer("both_bad").content.decode()
    task = PreferenceTask.objects.get(key=browser.key)
    for clip in [task.example.query.clip, *(i.clip for i in task.example.items.all())]:
        assert clip.audio_token not in html and f">{clip.title}<" not in html
