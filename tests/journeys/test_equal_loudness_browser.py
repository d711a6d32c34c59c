"""In Chromium: a crowd worker hears every clip at the collection's loudness (issue 23).

The clips were uploaded at two levels 20 LU apart (1 kHz sines of amplitude 0.5 and
0.05: −9 and −29 LUFS by ITU-R BS.1770's own calibration). The collection asks for
−23 LUFS; the worker plays the clips, and what the browser was served is measured
independently of the meter that made the copies: from the RMS of the samples, which
for a 1 kHz sine is the BS.1770 reading (``listening/tests/test_equal_loudness.py``).
"""

import io

import pytest
import soundfile
from django.core.files.base import ContentFile
from playwright.sync_api import expect

from crowd import selectors
from crowd.models import PreferenceTask
from listening.services.listening_copies import listening_copy_make
from tests.helpers.audio_files import lufs_of_a_sine, tone
from tests.helpers.browser import listen, start
from tests.helpers.crowd_fixtures import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_worker_hears_clips_uploaded_20_lu_apart_at_the_same_loudness(page, audible_collection):
    collection = audible_collection
    collection.loudness_target = -23.0
    collection.save(update_fields=["loudness_target"])
    levels = {}
    for n, clip in enumerate(collection.clips.order_by("pk")):
        amplitude = 0.5 if n % 2 else 0.05
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(
            tone(".wav", 1.5, rate=16_000, freq=1000.0, amplitude=amplitude)
        ))  # fmt: skip
        listening_copy_make(clip=clip, collection=collection)
        levels[clip.pk] = amplitude
    assert set(levels.values()) == {0.5, 0.05}
    campaign = make_campaign(collection, traps=0, listening_check=True, min_seconds_on_task=1)
    start(page, f"/t/{campaign.token}/?worker=ears")
    listen(page)  # the query and a clip of each list, played in the page to their ends

    task = PreferenceTask.objects.get(key=page.locator('input[name="key"]').get_attribute("value"))
    sources = page.locator("audio").evaluate_all("els => els.map(e => e.currentSrc || e.src)")
    heard = {}  # the upload's amplitude → what the browser was served, in LUFS
    for url in sources:
        clip = selectors.task_clip(task=task, slot=url.rstrip("/").rsplit("/", 1)[1])
        samples, _rate = soundfile.read(io.BytesIO(page.request.get(url).body()))
        heard.setdefault(levels[clip.pk], []).append(lufs_of_a_sine(samples))
    assert set(heard) == {0.5, 0.05}  # clips of both levels on the page
    served = [level for levels_heard in heard.values() for level in levels_heard]
    assert all(abs(level - (-23.0)) <= 1.0 for level in served), heard


def test_after_the_copies_the_organisers_table_shows_what_listeners_hear(
    page, personas, audible_collection
):
    """Issue 31: after making −23 LUFS copies the table still showed the uploaded loudness."""
    from listening.loudness import loudness_measure
    from tests.helpers.browser import log_in
    from tests.helpers.personas import PASSWORD

    collection = audible_collection
    collection.loudness_target = -23.0
    collection.save(update_fields=["loudness_target"])
    for n, clip in enumerate(collection.clips.order_by("pk")[:2]):
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(
            tone(".wav", 1.5, rate=16_000, freq=1000.0, amplitude=0.5 if n else 0.05)
        ))  # fmt: skip
        measured = loudness_measure(clip.audio.path)
        clip.loudness, clip.true_peak = measured.lufs, measured.true_peak_db
        clip.save(update_fields=["loudness", "true_peak"])
        listening_copy_make(clip=clip, collection=collection)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{collection.pk}/listening/")
    table = page.get_by_role("table", name="As uploaded, and as listeners hear it")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    for row in rows.all():
        uploaded, heard = (float(row.locator("td").nth(i).inner_text()) for i in (1, 3))
        assert abs(heard - (-23.0)) <= 1.0  # the copy's level, within the meter's tolerance
        assert uploaded in (pytest.approx(-9.0, abs=0.5), pytest.approx(-29.0, abs=0.5))
