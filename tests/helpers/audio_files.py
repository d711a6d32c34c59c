"""Small real audio files for tests: a sine tone as 16-bit mono WAV."""

from __future__ import annotations

import io
import math
import wave

import numpy as np


def sine_wav(seconds: float = 4.0, *, rate: int = 8000, freq: float = 440.0) -> bytes:
    t = np.arange(int(seconds * rate)) / rate
    samples = (0.5 * np.sin(2 * np.pi * freq * t) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return buffer.getvalue()


def tone(
    suffix: str,
    seconds: float = 0.5,
    *,
    rate: int = 8000,
    amplitude: float = 0.5,
    freq: float = 440.0,
    channels: int = 1,
) -> bytes:
    """A real sine tone in the format of ``suffix`` (``.wav``, ``.flac``, ``.ogg``,
    ``.mp3``), written by libsndfile (``soundfile``): files that decode, as uploads must."""
    import soundfile

    t = np.arange(int(seconds * rate)) / rate
    samples = np.repeat((amplitude * np.sin(2 * np.pi * freq * t))[:, None], channels, axis=1)
    formats = {".wav": ("WAV", "PCM_16"), ".flac": ("FLAC", "PCM_16"),
               ".ogg": ("OGG", "VORBIS"), ".mp3": ("MP3", "MPEG_LAYER_III")}  # fmt: skip
    kind, subtype = formats[suffix.lower()]
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, rate, format=kind, subtype=subtype)
    return buffer.getvalue()


def played(client, url: str, **headers):
    """GET an audio URL and read its body to the end, as a browser playing it does (the
    server counts audio as it is delivered: :mod:`listening.audio_delivery`); the bytes are
    the response's ``received``."""
    response = client.get(url, **headers)
    response.received = b"".join(response.streaming_content) if response.streaming else b""
    return response


def lufs_of_a_sine(samples: np.ndarray) -> float:
    """BS.1770's reading of a mono 1 kHz sine, from its RMS alone (the module doc)."""
    return 20 * math.log10(float(np.sqrt(np.mean(np.square(samples)))))
