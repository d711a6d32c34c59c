"""In Chromium: the demo organiser logs in, opens a collection, plays a clip and seeks in it."""

import pytest
from django.core.files.base import ContentFile
from playwright.sync_api import expect

from tests.helpers.audio_files import sine_wav
from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_plays_a_clip_and_seeks_to_the_middle(page, personas, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    clip = personas.collection.clips.get(external_id="c2")
    clip.audio.save("c2.wav", ContentFile(sine_wav(6.0)))

    log_in(page, personas.organiser.username, PASSWORD)
    page.get_by_role("link", name="Tiny collection").click()
    expect(page.get_by_role("heading", name="Tiny collection")).to_be_visible()

    player = page.get_by_label("Clip Clip 2")
    player.evaluate("audio => audio.play()")
    page.wait_for_function(
        "() => document.querySelector('audio[aria-label=\"Clip Clip 2\"]').currentTime > 0.2"
    )
    duration = player.evaluate("audio => audio.duration")
    assert duration == pytest.approx(6.0, abs=0.05)

    # Seeking needs Range support: without it Chromium cannot jump ahead.
    player.evaluate("audio => { audio.currentTime = 4.5; }")
    page.wait_for_function(
        "() => { const a = document.querySelector('audio[aria-label=\"Clip Clip 2\"]'); return !a.seeking && a.currentTime >= 4.5; }"
    )
    seekable_end = player.evaluate("audio => audio.seekable.end(0)")
    assert seekable_end == pytest.approx(6.0, abs=0.05)
