"""A worker in a task-link session hears the clips of the examples served to them, only."""

import pytest
from django.core.files.base import ContentFile

from judging.models import Clip
from tests.audio_files import sine_wav
from tests.crowd_fixtures import make_campaign
from tests.test_crowd_task_views import key_of, open_task

pytestmark = pytest.mark.django_db


def test_a_worker_hears_the_served_clips_and_nothing_else(
    client, crowd_collection, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    for clip in crowd_collection.clips.all():
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(sine_wav(0.2)))
    campaign = make_campaign(crowd_collection, traps=0)
    page = open_task(client, campaign)
    key_of(page)
    served = campaign.examples.get(tasks__key=key_of(page))
    served_clips = {i.clip for i in served.items.all()} | {served.query.clip}
    for clip in served_clips:
        assert client.get(clip.audio_url()).status_code == 200
    unserved = Clip.objects.filter(collection=crowd_collection).exclude(
        pk__in=[c.pk for c in served_clips]
    )
    assert unserved.exists()
    for clip in unserved:
        assert client.get(clip.audio_url()).status_code == 404
    client.cookies.clear()
    assert client.get(next(iter(served_clips)).audio_url()).status_code == 404
