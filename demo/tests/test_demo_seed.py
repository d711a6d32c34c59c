"""Seeding the demo: ``demo.seed.demo_seed`` and ``manage.py seed_demo`` — twice, with audio,
over an older demo. What the demo holds is read in ``test_demo_contents.py``, from one
seeding."""

from __future__ import annotations

import hashlib
import io
import re
import wave
from pathlib import Path

import numpy as np
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from demo.plan import DEFAULT_SEED, plan_demo
from demo.seed import (
    ASSESSOR_PASSWORD,
    ASSESSOR_USERNAME,
    COLLECTION_NAME,
    LOWCOST_CAMPAIGN_NAME,
    LOWCOST_COLLECTION_NAME,
    ORGANISER_PASSWORD,
    ORGANISER_USERNAME,
    RELEVANCE_CAMPAIGN_NAME,
    SECOND_ASSESSOR_USERNAME,
    demo_seed,
)
from demo.synth import PEAK_DBFS, SAMPLE_RATE, render, wav_bytes

MODELS = (Collection, Clip, Query, System, RunEntry, RelevanceJudgment)


@pytest.fixture
def media(settings, tmp_path) -> Path:
    """Media in a temporary folder (never ``var/``), and fast password hashing."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings.MEDIA_ROOT


@pytest.fixture(scope="module")
def demo_wavs() -> dict[str, bytes]:
    """The WAV bytes of every planned clip, rendered once for the module (no database)."""
    return {c.external_id: wav_bytes(render(c.spec)) for c in plan_demo().clips}


def _row_counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (*MODELS, get_user_model())}


def _files(root: Path) -> dict[str, tuple[int, str]]:
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(root.rglob("*.wav"))
    }


@pytest.mark.django_db
def test_a_second_run_creates_no_rows_and_leaves_the_audio_files_untouched(media):
    first = demo_seed()
    rows, files = _row_counts(), _files(media)
    assert first.created.audio_files == 48 and len(files) == 48

    second = demo_seed()

    assert not second.created.anything
    assert second.total == first.total
    assert _row_counts() == rows
    assert _files(media) == files  # same modification times and same bytes


@pytest.mark.one_pass("sqlite", why="make run's database; the point is the files or the words")
@pytest.mark.django_db
def test_the_same_seed_gives_the_same_wav_bytes_in_two_media_roots(settings, media, tmp_path):
    demo_seed()
    first = {name: digest for name, (_, digest) in _files(media).items()}

    settings.MEDIA_ROOT = tmp_path / "other-media"
    again = demo_seed()  # the rows are there, the files are not: they are generated again

    second = {name: digest for name, (_, digest) in _files(settings.MEDIA_ROOT).items()}
    assert again.created.audio_files == 48
    assert len(first) == 48
    assert second == first


def test_another_seed_gives_other_audio():
    clip = plan_demo(seed=DEFAULT_SEED).clips[0]
    other = plan_demo(seed=DEFAULT_SEED + 1).clips[0]

    assert wav_bytes(render(clip.spec)) != wav_bytes(render(other.spec))


def test_every_clip_is_mono_22050_hz_16_bit_pcm_of_its_duration_peaking_below_full_scale(
    demo_wavs,
):
    for clip in plan_demo().clips:
        with wave.open(io.BytesIO(demo_wavs[clip.external_id])) as wav:
            assert wav.getnchannels() == 1
            assert wav.getframerate() == SAMPLE_RATE
            assert wav.getsampwidth() == 2
            assert wav.getnframes() == round(clip.duration * SAMPLE_RATE)
            samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        peak_dbfs = 20 * np.log10(np.max(np.abs(samples.astype(float))) / 32768)
        assert peak_dbfs == pytest.approx(PEAK_DBFS, abs=0.01)
        # Faded in and out: no click at either end.
        assert abs(int(samples[0])) <= 1 and abs(int(samples[-1])) <= 1


def _features(samples: np.ndarray) -> tuple[float, float, np.ndarray]:
    """(log spectral centroid, onsets per second, 12-bin pitch-class histogram)."""
    n_fft, hop = 1024, 512
    frames = np.lib.stride_tricks.sliding_window_view(samples, n_fft)[::hop] * np.hanning(n_fft)
    magnitude = np.abs(np.fft.rfft(frames, axis=1))
    frequencies = np.fft.rfftfreq(n_fft, 1 / SAMPLE_RATE)

    centroid = np.sum(magnitude * frequencies) / np.sum(magnitude)

    # Spectral flux: how much louder each frequency got since the last frame. Onsets
    # are its local maxima above 30 % of its largest value (echoes stay below that).
    flux = np.maximum(np.diff(np.log1p(10 * magnitude), axis=0), 0).sum(axis=1)
    middle = flux[1:-1]
    peaks = (middle > flux[:-2]) & (middle >= flux[2:]) & (middle > 0.3 * flux.max())
    onset_rate = peaks.sum() / (len(samples) / SAMPLE_RATE)

    # Energy between 60 Hz and 2 kHz folded onto the 12 pitch classes of its nearest note.
    band = (frequencies >= 60) & (frequencies <= 2000)
    pitch_class = np.round(12 * np.log2(frequencies[band] / 440) + 69).astype(int) % 12
    energy = (magnitude[:, band] ** 2).sum(axis=0)
    chroma = np.bincount(pitch_class, weights=energy, minlength=12)
    return float(np.log(centroid)), float(onset_rate), chroma / chroma.sum()


def test_same_artist_and_same_genre_clips_are_measurably_nearer_than_others(demo_wavs):
    """What a listener should hear, measured.

    Each clip becomes three groups of features: timbre (spectral centroid), rhythm
    (onset rate) and key (pitch-class histogram). Every dimension is standardised over
    the collection and the 12 chroma dimensions are divided by √12, so that each group
    weighs the same in the Euclidean distance. An artist fixes instrument, register and
    key, a genre fixes tempo and groove, so same-artist pairs must be nearer on average
    than different-artist pairs, and same-genre pairs nearer than different-genre pairs.
    (With seed 2011: artist 1.94 vs 2.38, genre 1.86 vs 2.56.)
    """
    clips = plan_demo().clips
    rows = []
    for clip in clips:
        with wave.open(io.BytesIO(demo_wavs[clip.external_id])) as wav:
            pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        centroid, onset_rate, chroma = _features(pcm / 32768)
        rows.append(np.r_[centroid, onset_rate, chroma])
    features = np.array(rows)
    z = (features - features.mean(axis=0)) / features.std(axis=0)
    z[:, 2:] /= np.sqrt(12)
    distance = np.linalg.norm(z[:, None, :] - z[None, :, :], axis=2)

    artist = np.array([c.artist_index for c in clips])
    genre = np.array([c.genre_index for c in clips])
    pairs = ~np.eye(len(clips), dtype=bool)
    same_artist = (artist[:, None] == artist[None, :]) & pairs
    same_genre = (genre[:, None] == genre[None, :]) & pairs

    assert distance[same_artist].mean() < 0.9 * distance[pairs & ~same_artist].mean()
    assert distance[same_genre].mean() < 0.9 * distance[pairs & ~same_genre].mean()


@pytest.mark.one_pass("sqlite", why="make run's database; the point is the files or the words")
@pytest.mark.django_db
def test_the_command_prints_what_it_created_then_that_the_demo_was_already_there(media):
    out = io.StringIO()
    call_command("seed_demo", "--no-audio", stdout=out)
    first = out.getvalue()
    assert "Seeded the demo" in first and "48 clips" in first
    assert f"{ORGANISER_USERNAME} / {ORGANISER_PASSWORD}" in first
    assert f"{ASSESSOR_USERNAME} / {ASSESSOR_PASSWORD}" in first

    out = io.StringIO()
    call_command("seed_demo", "--no-audio", stdout=out)
    assert "already there; nothing changed" in out.getvalue()


@pytest.mark.django_db
def test_it_gives_a_password_to_an_organiser_account_made_by_the_mirex_import(media):
    get_user_model().objects.create_user(ORGANISER_USERNAME)  # unusable password
    demo_seed(audio=False)
    assert (
        get_user_model().objects.get(username=ORGANISER_USERNAME).check_password(ORGANISER_PASSWORD)
    )


@pytest.mark.django_db
def test_an_older_demo_campaign_gets_the_second_assessor_and_a_second_slot(media):
    from relevance.services.campaigns import relevance_campaign_create

    demo_seed(audio=False)
    collection = Collection.objects.get(name=COLLECTION_NAME)
    collection.relevance_campaigns.all().delete()
    old = relevance_campaign_create(
        collection=collection,
        name=RELEVANCE_CAMPAIGN_NAME,
        exclude_same_artist=False,
        must_listen_seconds=3,
        assessors=[get_user_model().objects.get(username=ASSESSOR_USERNAME)],
    )

    again = demo_seed(audio=False)

    old.refresh_from_db()
    assert old.assessors_per_query == 2 and old.assessors.count() == 2
    # Both assessors judge the first three queries' pools again, in the new campaign.
    pairs = {(j.query, j.clip) for j in plan_demo().assessor_judgments}
    assert again.created.assessor_judgments == 2 * len(pairs)
    assert RelevanceJudgment.objects.filter(source=old.source).count() == 2 * len(pairs)
    assert not demo_seed(audio=False).created.anything


@pytest.mark.django_db
def test_it_opens_a_lowcost_campaign_on_an_unjudged_copy_sharing_the_audio(media):
    summary = demo_seed()
    demo = Collection.objects.get(pk=summary.collection_id)
    copy = Collection.objects.get(name=LOWCOST_COLLECTION_NAME)
    assert copy.owner == demo.owner and copy.clips.count() == 48
    assert not RelevanceJudgment.objects.filter(query__collection=copy).exists()
    assert RunEntry.objects.filter(system__collection=copy).count() == 4 * 10 * 5
    audio = {c.external_id: c.audio.name for c in demo.clips.all()}
    assert {c.external_id: c.audio.name for c in copy.clips.all()} == audio  # shared files
    assert len(_files(media)) == 48
    campaign = copy.relevance_campaigns.get()
    assert (campaign.name, campaign.mode, campaign.lowcost_measure) == (
        LOWCOST_CAMPAIGN_NAME,
        "lowcost",
        "CG(scale=fine)@5",
    )
    assert sorted(campaign.assessors.values_list("username", flat=True)) == [
        ASSESSOR_USERNAME,
        SECOND_ASSESSOR_USERNAME,
    ]
    assert campaign.assignments.filter(pool_entry__isnull=False).count() == campaign.pool.count()
    assert summary.created.lowcost_campaigns == summary.total.lowcost_campaigns == 1
    assert demo_seed().created.lowcost_campaigns == 0


README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.one_pass("sqlite", why="make run's database; the point is the files or the words")
@pytest.mark.django_db
def test_the_readme_describes_the_demo_that_make_run_seeds(media):
    """Issue 31: the README promised a quiz of 2 from 3 and 7 work traps; the demo had a quiz
    of 1 from 4 and 6. Its description is read here and compared with the demo itself (since
    issue 29 the quiz is made for each worker from the judgments: no quiz pool to count)."""
    from crowd.models import TrapQuestion

    text = " ".join(README.read_text().split())
    words = {"four": 4, "three": 3, "two": 2}
    shown = re.search(
        r"a collection of (\d+) generated clips .*?, (\d+) queries, (\w+) systems of", text
    )
    quiz = re.search(
        r"a (\d+)-question quiz made for each worker from the judgments, (\d+) trap questions",
        text,
    )  # issue 29: every quiz question goes to one worker, made from the judgments
    assert shown and quiz, "the README's demo paragraph changed its wording: read it again"
    summary = demo_seed(audio=False)
    collection = Collection.objects.get(pk=summary.collection_id)
    campaign = collection.preference_campaigns.get()
    traps = TrapQuestion.objects.filter(example__campaign=campaign)
    assert int(shown[1]) == collection.clips.count()
    assert int(shown[2]) == collection.queries.count()
    assert words[shown[3]] == collection.systems.count()
    assert int(quiz[1]) == campaign.quiz_length
    assert int(quiz[2]) == traps.filter(pool=TrapQuestion.WORK).count()
