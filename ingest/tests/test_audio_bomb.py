"""Audio is checked by its header before it is decoded, and decoded block by block (issue 28,
item 3).

Before: the clip limits were checked after the whole file was decoded to ``float64`` and
upsampled, so a 59 KB FLAC of silence (5 channels, 208 s) took the worker to 3.6 GB and
was accepted, and an 81 KB 8-channel one reached 1.5 GB and then failed with "An
unexpected error" (``pyloudnorm``: "Audio must have five channels or less"). Now the
header is read first (``soundfile.info``) and a file beyond a limit is refused by it,
naming the figure and the limit, before a sample is decoded; within the limits decoding
and measuring hold a block at a time (the peak memory of the worst file within the
limits is measured by ``benchmarks/bench_audio_bomb.py``, ``docs/benchmarks.md``).

Expected figures: the whole-signal meter they replace, ``pyloudnorm`` (a BS.1770-4
implementation) and ``scipy.signal.resample_poly`` on the whole signal; and ITU-R
BS.1770-4 itself — a 1 kHz sine of amplitude A in one channel reads −3.01 + 20·log10(A)
LKFS (see ``listening/tests/test_equal_loudness.py``), and channels weighted 1 add their mean
squares, so the same sine in n such channels reads 10·log10(n) more.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pyloudnorm
import pytest
import soundfile
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.signal import resample_poly

from catalog.models import Clip, Collection
from ingest.importers import ImportFailed, clips_import
from ingest.models import Upload
from ingest.services.uploads import upload_create, upload_queue
from listening import loudness
from listening.loudness import (
    AudioHeader,
    AudioLimits,
    AudioTooLarge,
    listening_copy_write,
    loudness_measure,
)
from work.queues import HEAVY, INTERACTIVE

LIMITS = AudioLimits(max_seconds=600, max_channels=8, max_rate=192_000)


def silence(path, *, seconds: float, channels: int, rate: int = 48_000, fmt="FLAC") -> None:
    """``seconds`` of digital silence, written a block at a time (FLAC makes it tiny)."""
    with soundfile.SoundFile(path, "w", samplerate=rate, channels=channels, format=fmt,
                             subtype="PCM_16") as out:  # fmt: skip
        block = np.zeros((rate, channels))
        for _ in range(int(seconds)):
            out.write(block)


def sine(seconds: float, *, channels: int, rate: int = 48_000, amplitude: float = 0.25):
    t = np.arange(int(seconds * rate)) / rate
    return np.repeat((amplitude * np.sin(2 * np.pi * 1000.0 * t))[:, None], channels, axis=1)


@pytest.fixture
def never_decoded(monkeypatch):
    """Fails the test if a sample of any file is decoded."""

    def refuse(*args, **kwargs):
        raise AssertionError("the file was decoded")

    monkeypatch.setattr(loudness, "_blocks", refuse)


@pytest.mark.parametrize(
    ("channels", "rate", "seconds", "problem"),
    [
        (9, 8_000, 1, "9 channels: a clip may have at most 8"),
        (2, 384_000, 1, "384,000 samples a second: a clip may have at most 192,000"),
        (1, 8_000, 601, "601 s long: a clip may last at most 600 s"),
    ],
)
def test_a_file_beyond_a_limit_is_refused_by_its_header_before_it_is_decoded(
    tmp_path, never_decoded, channels, rate, seconds, problem
):
    path = tmp_path / "big.wav"
    silence(path, seconds=seconds, channels=channels, rate=rate, fmt="WAV")
    with pytest.raises(AudioTooLarge, match=problem):
        loudness_measure(path, limits=LIMITS)


def test_the_issues_bomb_within_the_limits_is_measured_block_by_block(tmp_path, monkeypatch):
    """The issue's file: 208 s of five-channel silence in a FLAC of a few KB (here at 8 kHz to
    keep the test short; ``benchmarks/bench_audio_bomb.py`` measures the memory of the
    real one). It is within the limits, so it is measured — a block at a time, never more."""
    path = tmp_path / "bomb.flac"
    silence(path, seconds=208, channels=5, rate=8_000)
    assert path.stat().st_size < 100_000
    sizes = []
    real = loudness._Meter.add
    monkeypatch.setattr(loudness._Meter, "add", lambda meter, block: (sizes.append(len(block)), real(meter, block)))  # fmt: skip
    measured = loudness_measure(path, limits=LIMITS)
    assert (measured.lufs, measured.true_peak_db, measured.channels) == (None, None, 5)
    assert measured.duration == 208.0
    assert max(sizes) == loudness.BLOCK_FRAMES and sum(sizes) == 208 * 8_000


@pytest.mark.parametrize("channels", [6, 8])
def test_more_than_five_channels_are_measured_every_channel_weighted_one(tmp_path, channels):
    path = tmp_path / "many.flac"
    soundfile.write(path, sine(3.0, channels=channels), 48_000, format="FLAC", subtype="PCM_16")
    measured = loudness_measure(path, limits=LIMITS)
    # −3.01 + 20·log10(0.25) + 10·log10(n): −15.05 + 7.78 (6 channels) or + 9.03 (8)
    expected = -3.01 + 20 * math.log10(0.25) + 10 * math.log10(channels)
    assert measured.lufs == pytest.approx(expected, abs=0.05)
    copy = listening_copy_write(path, tmp_path / "copy.flac", target_lufs=-23.0)
    assert copy.channels == channels and copy.lufs == pytest.approx(-23.0, abs=0.1)


def test_a_file_that_decodes_to_more_than_its_header_says_stops_at_the_limit(tmp_path):
    path = tmp_path / "liar.wav"
    silence(path, seconds=3, channels=1, rate=8_000, fmt="WAV")
    lying = AudioHeader(channels=1, rate=8_000, frames=8_000, format="WAV")  # "1 s"
    blocks = loudness._blocks(path, lying, limits=AudioLimits(max_seconds=1.0))
    with pytest.raises(AudioTooLarge, match="decodes to more than its header says"):
        list(blocks)


@settings(max_examples=15)
@given(
    rate=st.sampled_from([8_000, 11_025, 16_000, 22_050]),
    channels=st.integers(1, 5),
    seconds=st.floats(0.41, 2.0),
    block=st.sampled_from([37, 1_000, 4_096]),
    quiet_start=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_block_by_block_reads_what_the_whole_signal_meter_reads(
    rate, channels, seconds, block, quiet_start, seed
):
    """Any block size gives ``pyloudnorm``'s integrated loudness of the whole signal and the
    peak of the whole signal upsampled 4× by ``resample_poly``, to rounding."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    samples = rng.normal(0, 0.1, (n, channels)) * np.linspace(0.001, 1, n)[:, None]
    if quiet_start:
        samples[: n // 2] *= 1e-5  # blocks below the gates
    meter = loudness._Meter(rate, channels)
    for start in range(0, n, block):
        meter.add(samples[start : start + block])
    measured = meter.result()
    assert measured.lufs == pytest.approx(
        pyloudnorm.Meter(rate).integrated_loudness(samples), abs=1e-9
    )
    peak = max(np.max(np.abs(resample_poly(samples, 4, 1, axis=0))), np.max(np.abs(samples)))
    assert measured.true_peak_db == pytest.approx(20 * math.log10(peak), abs=1e-9)


# --- through the import and the upload ----------------------------------------------------


@pytest.mark.django_db
def test_the_import_names_the_file_and_the_limit_and_imports_nothing(personas, tmp_path):
    folder = tmp_path / "clips"
    folder.mkdir()
    silence(folder / "fine.flac", seconds=2, channels=2)
    silence(folder / "nine.wav", seconds=1, channels=9, rate=8_000, fmt="WAV")
    collection = Collection.objects.create(name="Bombs", owner=personas.organiser)
    with pytest.raises(ImportFailed) as failure:
        clips_import(collection=collection, folder=folder)
    assert str(failure.value) == "nine.wav: 9 channels: a clip may have at most 8"
    assert not Clip.objects.filter(collection=collection).exists()
    (folder / "nine.wav").unlink()
    soundfile.write(folder / "eight.flac", sine(1.0, channels=8), 48_000, format="FLAC")
    clips_import(collection=collection, folder=folder)  # the issue's "An unexpected error"
    assert Clip.objects.get(collection=collection, external_id="eight").loudness is not None


@pytest.mark.django_db
def test_a_small_file_of_long_many_channel_audio_is_imported_on_the_heavy_queue(
    personas, settings, tmp_path
):
    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    bomb = io.BytesIO()
    silence(bomb, seconds=60, channels=5)  # 60 KB of FLAC: 28.8 MB of 16-bit samples
    small = io.BytesIO()
    silence(small, seconds=20, channels=2)  # a short study clip: 3.8 MB decoded

    def queue_of(name: str, data: bytes) -> str:
        from django.core.files.uploadedfile import SimpleUploadedFile

        upload = upload_create(kind=Upload.CLIPS, owner=personas.organiser,
                               collection=personas.collection,
                               files={"audio": [SimpleUploadedFile(name, data)]})  # fmt: skip
        return upload_queue(upload=upload)

    assert len(bomb.getvalue()) < 100_000
    assert queue_of("bomb.flac", bomb.getvalue()) == HEAVY  # 28.8 MB / 8 > 1,024 KB
    assert queue_of("clip.flac", small.getvalue()) == INTERACTIVE  # 3.84 MB / 8 = 480 KB
