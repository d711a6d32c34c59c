"""Headphone screening stimuli: the antiphase test of Woods et al. (2017), made with numpy.

A web listener may be on loudspeakers, where a study of fine differences between clips
is not worth its answers. Woods, Siegel, Traer & McDermott (2017), "Headphone screening
to facilitate web-based auditory experiments", *Attention, Perception, & Psychophysics*
79, 2064–2072, doi:10.3758/s13414-017-1361-2, screen with a three-interval task a
loudspeaker listener cannot pass: three 200 Hz tones, one of them 6 dB quieter (the
**target**, the right answer), one in **antiphase** between the two channels (the foil),
one plain; "which tone was the quietest?". Over headphones each ear hears the antiphase
tone at full level and the target is plainly the quietest. Over loudspeakers the two
channels' antiphase waves meet in the air and cancel (their measurements: more than
20 dB at 200 Hz wherever the head is), so the foil sounds quietest and is chosen. The
paper runs six trials; five right passes.

Here one trial is one stereo WAV holding the three tones one after the other
(:data:`TONE_SECONDS` each with raised-cosine ramps of :data:`RAMP_SECONDS`, :data:`GAP_SECONDS`
apart): which interval is the target and which the foil come from the caller (the
server draws them, and keeps them), the tones' starting phase from ``rng``, so no two
trials' bytes are alike and every trial's file has the same length whatever its answer.
The plain tone is played at the study's loudness (BS.1770-4, measured with
``pyloudnorm`` as :mod:`listening.loudness` does), and so is the calibration noise heard
before the test (:func:`calibration_noise`): the level set there is the level of the test.

No Django here: :mod:`crowd.services.headphones` draws trials and serves these.
"""

from __future__ import annotations

import io
import math
import wave
from functools import lru_cache

import numpy as np

SAMPLE_RATE = 22050
"""Plenty for a 200 Hz tone and a calibration noise; half the bytes of 44.1 kHz."""
TONE_HZ = 200.0
"""Woods et al.'s frequency: the antiphase cancellation holds over a broad region of space."""
TONE_SECONDS = 1.0
RAMP_SECONDS = 0.1
GAP_SECONDS = 0.5
INTERVALS = 3
TARGET_DB = -6.0
"""The target's level relative to the other two tones (Woods et al.)."""
TRIALS = 6
HEADPHONE_PASS_MARK_LABEL = f"Headphone screen: right answers out of {TRIALS} to pass"
"""What every campaign's forms call its pass mark (crowd and relevance alike)."""
"""Trials per screening (Woods et al.); the pass mark is the campaign's (5 by default)."""
CALIBRATION_SECONDS = 3.0
MAX_AMPLITUDE = 0.9
"""A study target so loud that the tones would clip is played at this peak instead."""


def interval_bounds(interval: int, *, rate: int = SAMPLE_RATE) -> tuple[int, int]:
    """The samples ``[start, end)`` of interval 1, 2 or 3 in a trial's file.

    >>> interval_bounds(1), interval_bounds(2), interval_bounds(3)
    ((0, 22050), (33075, 55125), (66150, 88200))
    """
    tone, gap = round(TONE_SECONDS * rate), round(GAP_SECONDS * rate)
    start = (interval - 1) * (tone + gap)
    return start, start + tone


def trial_samples(
    *, target: int, antiphase: int, rng: np.random.Generator, lufs: float, rate: int = SAMPLE_RATE
) -> np.ndarray:
    """One trial: ``(n, 2)`` floats, the three tones with interval ``target`` 6 dB down
    and interval ``antiphase`` with its right channel inverted (both 1, 2 or 3, unequal).

    >>> rng = np.random.default_rng(0)
    >>> s = trial_samples(target=2, antiphase=3, rng=rng, lufs=-23.0)
    >>> s.shape
    (88200, 2)
    >>> a, b = interval_bounds(3)
    >>> bool(np.allclose(s[a:b, 0], -s[a:b, 1]))
    True
    """
    if {target, antiphase} - set(range(1, INTERVALS + 1)) or target == antiphase:
        raise ValueError("target and antiphase are two different intervals of 1, 2, 3")
    tone_n = round(TONE_SECONDS * rate)
    t = np.arange(tone_n) / rate
    envelope = _ramp(tone_n, rate)
    amplitude = reference_amplitude(lufs, rate=rate)
    out = np.zeros((interval_bounds(INTERVALS, rate=rate)[1], 2))
    for interval in range(1, INTERVALS + 1):
        phase = rng.uniform(0, 2 * math.pi)
        tone = envelope * np.sin(2 * math.pi * TONE_HZ * t + phase) * amplitude
        if interval == target:
            tone = tone * 10 ** (TARGET_DB / 20)
        start, end = interval_bounds(interval, rate=rate)
        out[start:end, 0] = tone
        out[start:end, 1] = -tone if interval == antiphase else tone
    return out


def calibration_noise(
    *, rng: np.random.Generator, lufs: float, rate: int = SAMPLE_RATE
) -> np.ndarray:
    """Noise, the same in both channels, at integrated loudness ``lufs`` (BS.1770-4),
    for "set a comfortable level" before the test: ``(n, 2)`` floats."""
    n = round(CALIBRATION_SECONDS * rate)
    noise = rng.standard_normal(n) * _ramp(n, rate)
    stereo = np.column_stack([noise, noise])
    gain = 10 ** ((lufs - _lufs(stereo, rate)) / 20)
    return np.clip(stereo * gain, -MAX_AMPLITUDE, MAX_AMPLITUDE)


def wav_bytes(samples: np.ndarray, *, rate: int = SAMPLE_RATE) -> bytes:
    """16-bit PCM WAV of ``(n, 2)`` floats in [−1, 1]: the length depends on ``n`` only."""
    pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(samples.shape[1])
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(pcm.tobytes())
    return buffer.getvalue()


@lru_cache(maxsize=32)
def reference_amplitude(lufs: float, *, rate: int = SAMPLE_RATE) -> float:
    """The peak of the plain tone (both channels) whose loudness is ``lufs``, at most
    :data:`MAX_AMPLITUDE`. A 200 Hz tone's loudness does not depend on its phase."""
    n = round(TONE_SECONDS * rate)
    unit = np.sin(2 * math.pi * TONE_HZ * np.arange(n) / rate) * _ramp(n, rate)
    measured = _lufs(np.column_stack([unit, unit]), rate)
    return min(10 ** ((lufs - measured) / 20), MAX_AMPLITUDE)


def _ramp(n: int, rate: int) -> np.ndarray:
    """Raised-cosine onset and offset of :data:`RAMP_SECONDS` (no click at the edges)."""
    ramp_n = min(round(RAMP_SECONDS * rate), n // 2)
    envelope = np.ones(n)
    rise = 0.5 - 0.5 * np.cos(np.pi * np.arange(ramp_n) / ramp_n)
    envelope[:ramp_n], envelope[n - ramp_n :] = rise, rise[::-1]
    return envelope


def _lufs(samples: np.ndarray, rate: int) -> float:
    import pyloudnorm

    return float(pyloudnorm.Meter(rate).integrated_loudness(samples))
