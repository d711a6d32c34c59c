"""The headphone screen's audio read back as a listener would hear it: over headphones,
over loudspeakers (the two channels summed), and a screen taken at a chosen score."""

from __future__ import annotations

import io
import re
import wave

import numpy as np

from listening.headphones import INTERVALS, TRIALS, interval_bounds


def over_headphones(samples: np.ndarray) -> int:
    """The interval a headphone listener hears as quietest: the left channel alone."""
    return min(range(1, INTERVALS + 1), key=lambda i: rms(samples[slice(*interval_bounds(i)), 0]))


def over_loudspeakers(samples: np.ndarray) -> int:
    """The interval a loudspeaker listener hears as quietest: both channels summed."""
    return min(
        range(1, INTERVALS + 1), key=lambda i: rms(samples[slice(*interval_bounds(i))].sum(axis=1))
    )


def screen_at(http, base: str, listener, *, wrong_on: frozenset = frozenset()):
    """:func:`screen` for any owner's screen at ``base`` (a worker's task link or an
    assessor's campaign), through ``http``'s ``get`` and ``post``."""
    calibration = http.get(f"{base}/")
    assert calibration.status_code == 200
    noise = re.search(r'src="([^"]+/calibration)"', calibration.content.decode()).group(1)
    assert http.get(noise).status_code == 200
    response = None
    for position in range(1, TRIALS + 1):
        page = http.get(f"{base}/trial/")
        text = page.content.decode()
        assert page.status_code == 200 and f"Question {position} of {TRIALS}" in text
        samples = channels(http.get(SCREEN_AUDIO.search(text).group(1)))
        heard = over_loudspeakers(samples) if position in wrong_on else listener(samples)
        key = KEY.search(text).group(1)
        response = http.post(f"{base}/trial/", {"key": key, "interval": str(heard)})
        assert response.status_code == 302
    return response


KEY = re.compile(r'name="key" value="([^"]+)"')


def channels(response) -> np.ndarray:
    """A WAV response's samples as ``(n, 2)`` floats."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    with wave.open(io.BytesIO(body)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (2, 2)
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return pcm.reshape(-1, 2).astype(float) / 32767


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x**2)))


SCREEN_AUDIO = re.compile(r'<audio[^>]* src="([^"]+/headphones/audio/[^"]+)"')
