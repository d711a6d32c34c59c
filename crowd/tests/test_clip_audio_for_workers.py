"""A worker hears the clips of their own open task, through URLs made for that task only.

Issue 12: clip-wide audio URLs let a worker recognise a clip (a trap question) across
tasks and identities; now a worker's audio URL names the task and a place on the page,
works for that worker's open task only, and the clip-wide URL says nothing to them.
"""

import re

import pytest
from django.core.files.base import ContentFile

from crowd.models import PreferenceTask
from listening.models import AudioServed
from tests.helpers.audio_files import played, sine_wav
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import key_of, open_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def audible(crowd_collection, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    for clip in crowd_collection.clips.all():
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(sine_wav(0.2)))
    return crowd_collection


def audio_urls(page) -> list[str]:
    return re.findall(r'<audio[^>]* src="([^"]+)"', page.content.decode())


def test_a_worker_hears_their_tasks_clips_through_urls_of_that_task_only(client, audible):
    campaign = make_campaign(audible, traps=0)
    page = open_task(client, campaign)
    task = PreferenceTask.objects.get(key=key_of(page))
    urls = audio_urls(page)
    assert len(urls) == 11  # the query and 5 + 5 clips
    assert all(url.startswith(f"/t/{campaign.token}/audio/{task.key}/") for url in urls)
    for url in urls:
        response = played(client, url)
        assert response.status_code == 200 and response["Content-Type"] == "audio/wav"
        assert "Content-Disposition" not in response  # no file name: nothing names the clip
    served = {i.clip_id for i in task.example.items.all()} | {task.example.query.clip_id}
    assert set(AudioServed.objects.filter(task=task).values_list("clip_id", flat=True)) == served


def test_the_clip_wide_url_another_worker_or_an_answered_task_hear_nothing(client, audible):
    campaign = make_campaign(audible, traps=0)
    page = open_task(client, campaign)
    task = PreferenceTask.objects.get(key=key_of(page))
    url = audio_urls(page)[0]
    assert client.get(task.example.query.clip.audio_url()).status_code == 404
    assert client.get(url.rsplit("/", 1)[0] + "/c9").status_code == 404  # no such place

    from django.test import Client

    other = Client()
    open_task(other, campaign, "worker=w2")
    assert other.get(url).status_code == 404  # not their task

    client.post(f"/t/{campaign.token}/task/", {"key": task.key, "choice": "a_better"})
    assert client.get(url).status_code == 404  # expired with its task
    client.cookies.clear()
    assert client.get(url).status_code == 404


def test_the_audio_reaches_the_client_as_the_counting_stream_through_every_middleware(
    client, audible, settings
):
    """Issue 29, item 5: whitenoise serves the static files only (under ``STATIC_URL``), so
    an audio response goes through every middleware as the stream that counts what it
    delivers (:mod:`listening.audio_delivery`): nothing buffers it or rewrites its bytes (a
    GZip middleware would compress them, and what was counted would no longer be the
    clip's bytes), and nothing is counted before it is read."""
    assert not any("gzip" in middleware.lower() for middleware in settings.MIDDLEWARE)
    campaign = make_campaign(audible, traps=0)
    page = open_task(client, campaign)
    task = PreferenceTask.objects.get(key=key_of(page))
    url = audio_urls(page)[0]
    assert not url.lstrip("/").startswith(settings.STATIC_URL)
    response = client.get(url, HTTP_RANGE="bytes=0-")
    assert response.streaming and response["X-Accel-Buffering"] == "no"
    assert "Content-Encoding" not in response
    assert not AudioServed.objects.filter(task=task).exists()  # sent off, not yet read
    body = b"".join(response.streaming_content)
    assert AudioServed.objects.get(task=task).bytes_sent == len(body) > 0
