"""Clips at equal loudness (issue 23, item 3): measured at upload, heard as copies.

The expected loudness of a tone comes from ITU-R BS.1770-4 itself, not from the meter
under test: a 1 kHz sine at 0 dBFS in one channel reads −3.01 LKFS (the −0.691 of the
formula cancels the K-filter's gain at 1 kHz). So a mono 1 kHz sine of amplitude A reads
−3.01 + 20·log10(A), i.e. 20·log10(RMS) since RMS = A/√2: the independent measurement
the served copies are checked with below is that RMS, read from their samples.
"""

from __future__ import annotations

import io
import math

import pytest
import soundfile
from django.core.files.base import ContentFile

from catalog.models import Clip
from ingest.importers import clips_import
from listening.loudness import Loudness, copy_gain_db, listening_copy_write, loudness_measure
from tests.helpers.audio_files import lufs_of_a_sine, tone
from work.job_runners import job_run
from work.models import Job

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("amplitude", "expected"), [(0.5, -9.03), (0.05, -29.03)])
def test_a_sine_measures_what_the_standard_says(tmp_path, amplitude, expected):
    path = tmp_path / "sine.wav"
    path.write_bytes(tone(".wav", 3.0, rate=48_000, freq=1000.0, amplitude=amplitude))
    measured = loudness_measure(path)
    # −3.01 + 20·log10(0.5) = −9.03; −3.01 + 20·log10(0.05) = −29.03
    assert measured.lufs == pytest.approx(expected, abs=0.1)
    assert measured.true_peak_db == pytest.approx(20 * math.log10(amplitude), abs=0.1)
    assert (measured.duration, measured.channels) == (3.0, 1)


def test_the_gain_stops_at_the_true_peak_ceiling():
    # −30 LUFS with peaks at −2 dBTP: +7 dB would reach −23 LUFS but put peaks at +5 dBTP;
    # the gain stops at −1 − (−2) = +1 dB.
    peaky = Loudness(lufs=-30.0, true_peak_db=-2.0, duration=30.0, rate=44100, channels=2)
    assert copy_gain_db(peaky, target_lufs=-23.0, ceiling_dbtp=-1.0) == 1.0
    silent = Loudness(lufs=None, true_peak_db=None, duration=30.0, rate=44100, channels=2)
    assert copy_gain_db(silent, target_lufs=-23.0, ceiling_dbtp=-1.0) == 0.0


def test_an_excerpt_is_cut_and_brought_to_the_target(tmp_path):
    source = tmp_path / "long.flac"
    source.write_bytes(tone(".flac", 6.0, rate=48_000, freq=1000.0, amplitude=0.5))
    made = listening_copy_write(
        source, tmp_path / "copy.flac", target_lufs=-23.0, start=2.0, length=3.0
    )
    samples, rate = soundfile.read(str(tmp_path / "copy.flac"))
    assert (len(samples) / rate, made.duration) == (3.0, 3.0)
    assert lufs_of_a_sine(samples) == pytest.approx(-23.0, abs=1.0)


def make_tones(collection, folder):
    """Two clips 20 LU apart (1 kHz sines at amplitudes 0.5 and 0.05: −9 and −29 LUFS)."""
    folder.mkdir()
    (folder / "loud.wav").write_bytes(tone(".wav", 2.0, rate=16_000, freq=1000.0, amplitude=0.5))
    (folder / "quiet.mp3").write_bytes(tone(".mp3", 2.0, rate=16_000, freq=1000.0, amplitude=0.05))
    clips_import(collection=collection, folder=folder)


def test_upload_measures_each_clip_and_the_setting_makes_copies_at_the_target(
    client, personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    collection = personas.collection
    make_tones(collection, tmp_path / "audio")
    loud, quiet = Clip.objects.get(external_id="loud"), Clip.objects.get(external_id="quiet")
    assert loud.loudness == pytest.approx(-9.0, abs=0.2)
    assert quiet.loudness == pytest.approx(-29.0, abs=1.0)  # MP3 coding at 16 kHz: -28.4
    assert not loud.listening_audio and loud.heard_file == loud.audio  # no setting: as uploaded

    client.force_login(personas.organiser)
    page = client.get(f"/collections/{collection.pk}/listening/").content.decode()
    assert f"from <strong>{quiet.loudness:.1f} LUFS</strong>" in page  # quietest first
    assert f"a spread of {loud.loudness - quiet.loudness:.1f} LU" in page
    started = client.post(f"/collections/{collection.pk}/listening/", {"loudness_target": "-23"})
    job = Job.objects.get(kind="listening_copies")
    assert started.status_code == 302 and started["Location"] == job.get_absolute_url()
    job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.state == Job.DONE and job.result == {"clips": 2, "copies": 2}
    for clip in Clip.objects.exclude(audio=""):
        samples, _ = soundfile.read(io.BytesIO(clip.heard_file.read()))
        assert clip.heard_file.name.endswith(".flac")
        assert lufs_of_a_sine(samples) == pytest.approx(-23.0, abs=1.0), clip.external_id
        assert clip.audio.name.endswith((".wav", ".mp3"))  # the upload is kept as it came
        # Issue 31: the page's table showed the uploaded loudness after the copies were made.
        assert clip.heard_loudness == pytest.approx(lufs_of_a_sine(samples), abs=0.2)
    page = client.get(f"/collections/{collection.pk}/listening/").content.decode()
    heard = {c.external_id: c.heard_loudness for c in Clip.objects.exclude(audio="")}
    for clip in Clip.objects.exclude(audio=""):
        row = f"<td>{clip.external_id}</td><td>{clip.loudness:.1f}</td>"
        assert row in page and f"<td>{clip.heard_loudness:.1f}</td>" in page
    low, high = min(heard.values()), max(heard.values())
    assert (
        f"hear the copies (2 made), from <strong>{low:.1f} LUFS</strong> to <strong>{high:.1f} LUFS</strong>"
        in page
    )

    client.post(f"/collections/{collection.pk}/listening/", {"loudness_target": ""})
    job_run(job_id=Job.objects.filter(kind="listening_copies").latest("pk").pk)
    assert not Clip.objects.exclude(listening_audio="").exists()  # back to the uploads
    assert not Clip.objects.filter(heard_loudness__isnull=False).exists()


def test_a_clip_uploaded_to_a_collection_with_a_target_gets_its_copy_at_once(
    personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    collection = personas.collection
    collection.loudness_target = -23.0
    collection.save(update_fields=["loudness_target"])
    make_tones(collection, tmp_path / "audio")
    for clip in Clip.objects.exclude(audio=""):
        samples, _ = soundfile.read(io.BytesIO(clip.listening_audio.read()))
        assert lufs_of_a_sine(samples) == pytest.approx(-23.0, abs=1.0)


def test_a_read_only_co_organiser_sees_the_loudness_but_no_settings(
    client, personas, settings, tmp_path
):
    from catalog.models import CollectionShare
    from common.roles import ORGANISER
    from tests.helpers.personas import make_user

    settings.MEDIA_ROOT = tmp_path / "media"
    clip = personas.collection.clips.first()
    clip.audio.save("c.wav", ContentFile(tone(".wav", 1.0)))
    rita = make_user("rita", ORGANISER)
    CollectionShare.objects.create(collection=personas.collection, user=rita, access="read")
    client.force_login(rita)
    page = client.get(f"/collections/{personas.collection.pk}/listening/").content.decode()
    assert "What listeners hear" in page and "Save and make the copies" not in page
    assert (
        client.post(
            f"/collections/{personas.collection.pk}/listening/", {"loudness_target": "-23"}
        ).status_code
        == 403
    )
