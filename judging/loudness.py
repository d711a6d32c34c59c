"""Loudness of clips and the copies listeners hear (issue 23: clips at equal loudness).

Clips of one study come from many records, mastered at levels 10 LU and more apart; a
listener comparing them hears the louder one as "more similar", or turns the volume up
and down between clips. Broadcast and listening tests normalise by **integrated
loudness** (ITU-R BS.1770-4: K-weighted, gated mean square, in LUFS) with a **true-peak**
ceiling (EBU R128: −23 LUFS, −1 dBTP). Here:

- :func:`loudness_measure` decodes a clip with ``soundfile`` (libsndfile 1.2: WAV in any
  encoding, FLAC, Ogg Vorbis, MP3) and measures it with ``pyloudnorm`` (a BS.1770-4
  meter: K-weighting filters, 400 ms blocks with 75 % overlap, absolute and relative
  gates). Both are small, pure-Python-over-a-C-library packages from PyPI with no
  program to install, unlike ffmpeg. The true peak is the sample peak of the signal
  upsampled 4× (BS.1770-4 Annex 2).
- :func:`listening_copy_write` writes the copy listeners hear: cut to an excerpt if asked,
  gained to the target loudness, the gain lowered when the true peak would pass the
  ceiling (such a copy stays quieter than the target, and says so), as 16-bit FLAC
  (lossless, quick to write, played by every current browser).

No Django here: the importers and the job that remakes copies call these.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TARGET_LUFS = -23.0
"""EBU R128's programme loudness."""
PEAK_CEILING_DBTP = -1.0
"""EBU R128's maximum true peak."""
MIN_MEASURABLE_SECONDS = 0.4
"""BS.1770's gating block: a shorter clip has no integrated loudness."""


class AudioUnreadable(ValueError):
    """The file cannot be decoded as audio (the message says why)."""


@dataclass(frozen=True)
class Loudness:
    lufs: float | None
    """Integrated loudness (LUFS); ``None`` for silence or a clip shorter than 0.4 s."""
    true_peak_db: float | None
    """Upsampled peak (dBTP); ``None`` for digital silence."""
    duration: float
    rate: int
    channels: int


def _decode(path: Path) -> tuple[np.ndarray, int]:
    import soundfile

    try:
        samples, rate = soundfile.read(str(path), dtype="float64", always_2d=True)
    except (soundfile.LibsndfileError, RuntimeError, ValueError, TypeError, EOFError) as error:
        # libsndfile names the file's path first ("Error opening '/tmp/…': …"): not for users.
        reason = str(error).rpartition("': ")[2] or type(error).__name__
        raise AudioUnreadable(f"cannot be decoded as audio ({reason.strip()})") from None
    if samples.size == 0 or rate <= 0:
        raise AudioUnreadable("holds no audio")
    return samples, int(rate)


def _true_peak_db(samples: np.ndarray) -> float | None:
    from scipy.signal import resample_poly

    peak = float(np.max(np.abs(resample_poly(samples, 4, 1, axis=0)))) if len(samples) > 1 else 0.0
    peak = max(peak, float(np.max(np.abs(samples))))
    return 20 * math.log10(peak) if peak > 0 else None


def _measure(samples: np.ndarray, rate: int) -> Loudness:
    import pyloudnorm

    duration = len(samples) / rate
    lufs = None
    if duration >= MIN_MEASURABLE_SECONDS:
        value = pyloudnorm.Meter(rate).integrated_loudness(samples)
        lufs = float(value) if math.isfinite(value) else None
    return Loudness(lufs, _true_peak_db(samples), duration, rate, samples.shape[1])


def loudness_measure(path: Path) -> Loudness:
    """Decode ``path`` and measure it; :class:`AudioUnreadable` if it cannot be decoded."""
    return _measure(*_decode(Path(path)))


def copy_gain_db(measured: Loudness, *, target_lufs: float, ceiling_dbtp: float) -> float:
    """The gain (dB) that brings ``measured`` to ``target_lufs`` without its true peak
    passing ``ceiling_dbtp`` (0 for a clip with no measurable loudness).

    >>> copy_gain_db(Loudness(-13.0, -0.5, 30.0, 44100, 2), target_lufs=-23.0, ceiling_dbtp=-1.0)
    -10.0
    >>> copy_gain_db(Loudness(-33.0, -3.0, 30.0, 44100, 2), target_lufs=-23.0, ceiling_dbtp=-1.0)
    2.0
    """
    if measured.lufs is None:
        return 0.0
    gain = target_lufs - measured.lufs
    if measured.true_peak_db is not None:
        gain = min(gain, ceiling_dbtp - measured.true_peak_db)
    return gain


def listening_copy_write(
    source: Path,
    target: Path,
    *,
    target_lufs: float | None = TARGET_LUFS,
    ceiling_dbtp: float = PEAK_CEILING_DBTP,
    start: float = 0.0,
    length: float | None = None,
) -> Loudness:
    """Write the copy listeners hear of ``source`` to ``target`` (FLAC) and measure it.

    ``start``/``length`` (seconds) cut an excerpt (MIREX AMS played 30 s from 30 s in; a
    clip shorter than ``start + length`` gives what it has, from ``max(0, end - length)``);
    ``target_lufs`` (``None``: keep the level) sets its loudness within the ceiling.
    """
    import soundfile

    samples, rate = _decode(Path(source))
    if length is not None:
        first = int(start * rate)
        if first + int(length * rate) > len(samples):
            first = max(0, len(samples) - int(length * rate))
        samples = samples[first : first + int(length * rate)]
    if target_lufs is not None:
        gain = copy_gain_db(
            _measure(samples, rate), target_lufs=target_lufs, ceiling_dbtp=ceiling_dbtp
        )
        samples = samples * 10 ** (gain / 20)
    samples = np.clip(samples, -1.0, 1.0 - 2**-15)
    target.parent.mkdir(parents=True, exist_ok=True)
    soundfile.write(str(target), samples, rate, format="FLAC", subtype="PCM_16")
    return loudness_measure(target)
