"""Small real audio files for tests: a sine tone as 16-bit mono WAV."""

from __future__ import annotations

import io
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
