"""Loudness of clips and the copies listeners hear (issue 23: clips at equal loudness).

Clips of one study come from many records, mastered at levels 10 LU and more apart; a
listener comparing them hears the louder one as "more similar", or turns the volume up
and down between clips. Broadcast and listening tests normalise by **integrated
loudness** (ITU-R BS.1770-4: K-weighted, gated mean square, in LUFS) with a **true-peak**
ceiling (EBU R128: −23 LUFS, −1 dBTP). Here:

- :func:`audio_header_check` reads a file's header (``soundfile.info``: channels, sample
  rate, frames) **before anything is decoded** and refuses, naming the figure and the
  limit, a file beyond the clip limits (:class:`AudioLimits`: length, channels, sample
  rate). A compressed file says little about its decoded size: a 59 KB FLAC of silence
  (5 channels, 208 s) once took the worker to 3.6 GB (issue 28, item 3).
- :func:`loudness_measure` then decodes the clip with ``soundfile`` (libsndfile 1.2: WAV
  in any encoding, FLAC, Ogg Vorbis, MP3) **block by block** (:data:`BLOCK_FRAMES`
  frames at a time) and measures it as it goes (:class:`_Meter`): BS.1770-4's K-weighting
  filters carried from block to block, the mean square of every 400 ms gating block (75 %
  overlap) summed from the blocks' parts, the absolute and relative gates at the end;
  the true peak is the sample peak of the signal upsampled 4× (BS.1770-4 Annex 2), each
  block with enough of its neighbours that the result is the whole signal's. The same
  figures as ``pyloudnorm`` (a BS.1770-4 meter) on the whole signal, which the tests
  check, in memory that does not grow with the file: about :data:`MEMORY_BUDGET_MB` MB of
  samples at most (8 channels), measured in ``benchmarks/bench_audio_bomb.py``. A file
  that decodes to more frames than its header said stops at the limit.
- More than five channels: BS.1770-4 weights the five channels of its layout (left,
  right, centre 1, surrounds 1.41); a file with more channels, whose layout its header
  does not say, is measured with every channel weighted 1, as a front channel (never
  "Audio must have five channels or less", ``pyloudnorm``'s refusal). Beyond
  ``max_channels`` (8 by default, what FLAC holds) a file is refused by its header.
- :func:`listening_copy_write` writes the copy listeners hear, block by block too: cut to
  an excerpt if asked, gained to the target loudness, the gain lowered when the true peak
  would pass the ceiling (such a copy stays quieter than the target, and says so), as
  16-bit FLAC (lossless, quick to write, played by every current browser).

No Django here: the importers and the job that remakes copies call these.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TARGET_LUFS = -23.0
"""EBU R128's programme loudness."""
PEAK_CEILING_DBTP = -1.0
"""EBU R128's maximum true peak."""
MIN_MEASURABLE_SECONDS = 0.4
"""BS.1770's gating block: a shorter clip has no integrated loudness."""
BLOCK_FRAMES = 1 << 15
"""Frames decoded and measured at a time."""
MEMORY_BUDGET_MB = 40
"""The samples held at once while measuring, at most (8 channels of ``float64``: the
decoded block, its K-weighted copy and their squares, and the block upsampled 4×
with its margins, about 16 blocks' worth; ``benchmarks/bench_audio_bomb.py`` measures
the process)."""
_TRUE_PEAK_UP = 4
_MARGIN = 32
"""Input samples on each side of a block for its 4× upsampling to equal the whole
signal's (``resample_poly``'s filter reaches 10 input samples each way)."""
_CHANNEL_WEIGHTS = (1.0, 1.0, 1.0, 1.41, 1.41)
"""BS.1770-4's weights of left, right, centre, left and right surround."""


class AudioUnreadable(ValueError):
    """The file cannot be decoded as audio (the message says why)."""


class AudioTooLarge(AudioUnreadable):
    """The file is beyond a clip limit (the message names the figure and the limit)."""


@dataclass(frozen=True)
class AudioLimits:
    """What a clip may be, checked from its header before it is decoded."""

    max_seconds: float = 600.0
    max_channels: int = 8
    max_rate: int = 192_000


@dataclass(frozen=True)
class AudioHeader:
    channels: int
    rate: int
    frames: int
    format: str

    @property
    def seconds(self) -> float:
        return self.frames / self.rate


@dataclass(frozen=True)
class Loudness:
    lufs: float | None
    """Integrated loudness (LUFS); ``None`` for silence or a clip shorter than 0.4 s."""
    true_peak_db: float | None
    """Upsampled peak (dBTP); ``None`` for digital silence."""
    duration: float
    rate: int
    channels: int


def _reason(error: Exception) -> str:
    # libsndfile names the file's path first ("Error opening '/tmp/…': …"): not for users.
    return str(error).rpartition("': ")[2].strip() or type(error).__name__


_SOUNDFILE_ERRORS = (RuntimeError, ValueError, TypeError, EOFError, OSError)
"""What ``soundfile`` raises on a file it cannot read (``LibsndfileError`` is a
``RuntimeError``)."""


def audio_header_check(path: Path, limits: AudioLimits | None = None) -> AudioHeader:
    """The header of the audio file ``path``, refused beyond ``limits`` before any decoding.

    Raises :class:`AudioUnreadable` for a file that is no audio, :class:`AudioTooLarge`
    for one with more channels, a higher sample rate or more seconds than ``limits``.
    """
    import soundfile

    try:
        info = soundfile.info(str(path))
    except _SOUNDFILE_ERRORS as error:
        raise AudioUnreadable(f"cannot be decoded as audio ({_reason(error)})") from None
    header = AudioHeader(int(info.channels), int(info.samplerate), int(info.frames), info.format)
    if header.channels < 1 or header.rate <= 0:
        raise AudioUnreadable("holds no audio (its header says no channels or no sample rate)")
    if limits is not None:
        if header.channels > limits.max_channels:
            raise AudioTooLarge(
                f"{header.channels} channels: a clip may have at most {limits.max_channels}"
            )
        if header.rate > limits.max_rate:
            raise AudioTooLarge(
                f"{header.rate:,} samples a second: a clip may have at most {limits.max_rate:,}"
            )
        if header.seconds > limits.max_seconds:
            raise AudioTooLarge(
                f"{header.seconds:,.0f} s long: a clip may last at most {limits.max_seconds:,.0f} s"
            )
    return header


def _blocks(
    path: Path, header: AudioHeader, *, limits: AudioLimits | None, start: int = 0,
    frames: int | None = None,
) -> Iterator[np.ndarray]:  # fmt: skip
    """The samples of ``path`` (``float64``, frames × channels), :data:`BLOCK_FRAMES` at a time,
    from frame ``start``, ``frames`` of them (all to the end: ``None``); a file that
    decodes to more than ``limits`` allows stops there (its header lied)."""
    import soundfile

    most = None if limits is None else int(limits.max_seconds * header.rate) + header.rate
    read = 0
    try:
        with soundfile.SoundFile(str(path)) as audio:
            if start:
                audio.seek(start)
            while frames is None or read < frames:
                want = BLOCK_FRAMES if frames is None else min(BLOCK_FRAMES, frames - read)
                block = audio.read(want, dtype="float64", always_2d=True)
                if not len(block):
                    return
                read += len(block)
                if most is not None and start + read > most:
                    raise AudioTooLarge(
                        f"decodes to more than its header says: longer than "
                        f"{limits.max_seconds:,.0f} s, the most a clip may last"
                    )
                yield block
    except _SOUNDFILE_ERRORS as error:
        if isinstance(error, AudioUnreadable):
            raise
        raise AudioUnreadable(f"cannot be decoded as audio ({_reason(error)})") from None


def _biquad(kind: str, gain_db: float, q: float, fc: float, rate: int):
    """BS.1770-4's K-weighting stages as ``pyloudnorm`` designs them for any sample rate
    (RBJ's cookbook biquads): the high shelf (+4 dB above ~1.5 kHz, the head) and the
    high pass (38 Hz, RLB weighting)."""
    a_ = 10 ** (gain_db / 40.0)
    w0 = 2.0 * np.pi * (fc / rate)
    alpha, cos = np.sin(w0) / (2.0 * q), np.cos(w0)
    if kind == "high_shelf":
        root = 2 * np.sqrt(a_) * alpha
        b = [a_ * ((a_ + 1) + (a_ - 1) * cos + root), -2 * a_ * ((a_ - 1) + (a_ + 1) * cos),
             a_ * ((a_ + 1) + (a_ - 1) * cos - root)]  # fmt: skip
        a = [(a_ + 1) - (a_ - 1) * cos + root, 2 * ((a_ - 1) - (a_ + 1) * cos),
             (a_ + 1) - (a_ - 1) * cos - root]  # fmt: skip
    else:  # high pass
        b = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2]
        a = [1 + alpha, -2 * cos, 1 - alpha]
    return np.array(b) / a[0], np.array(a) / a[0]


class _Meter:
    """BS.1770-4's integrated loudness and the true peak of a signal given block by block.

    The gating blocks are those of ``pyloudnorm``'s meter (400 ms, 75 % overlap, bounds
    ``int(0.4 · 0.25 · j · rate)`` and ``int(0.4 · (0.25 · j + 1) · rate)``), so the result
    is the same; their mean squares are summed from the segments between consecutive
    bounds, which each block adds to as it passes (eq. (1)-(7) of BS.1770-4)."""

    T_G, STEP = 0.4, 0.25

    def __init__(self, rate: int, channels: int):
        self.rate, self.channels = rate, channels
        self.stages = [_biquad("high_shelf", 4.0, 1 / np.sqrt(2), 1500.0, rate),
                       _biquad("high_pass", 0.0, 0.5, 38.0, rate)]  # fmt: skip
        self.states = [np.zeros((2, channels)) for _ in self.stages]  # the signal starts at rest
        self.frames = 0
        self.segments: list[np.ndarray] = []  # sums of squares between consecutive bounds
        self.open = np.zeros(channels)  # the segment the last block ended in
        self.peak = 0.0
        self.tail = np.zeros((0, channels))  # the true peak's last samples (see _true_peak)
        self.pending = 0  # of which the last ``pending`` are still to be upsampled

    def _bounds(self, upto: int, *, since: int = 0) -> np.ndarray:
        """Every gating block's bounds from ``since`` (and a few before) to ``upto`` (and a
        few beyond), sorted, unique: a block's bounds, not the whole signal's."""
        hop = self.T_G * self.STEP * self.rate
        j = np.arange(max(0, int(since / hop) - 8), int(upto / hop) + 8, dtype=np.float64)
        lower = (self.T_G * (j * self.STEP) * self.rate).astype(np.int64)
        upper = (self.T_G * (j * self.STEP + 1) * self.rate).astype(np.int64)
        return np.unique(np.concatenate([lower, upper]))

    def add(self, block: np.ndarray) -> None:
        from scipy.signal import lfilter

        self._true_peak(block, last=False)
        weighted = block
        for n, (b, a) in enumerate(self.stages):
            weighted, self.states[n] = lfilter(b, a, weighted, axis=0, zi=self.states[n])
        squares = np.cumsum(np.square(weighted), axis=0)
        squares = np.concatenate([np.zeros((1, self.channels)), squares])
        start, end = self.frames, self.frames + len(block)
        bounds = self._bounds(end, since=start)
        inside = bounds[(bounds > start) & (bounds <= end)] - start
        previous = 0
        for cut in inside:
            self.segments.append(self.open + squares[cut] - squares[previous])
            self.open, previous = np.zeros(self.channels), cut
        self.open = self.open + squares[len(block)] - squares[previous]
        self.frames = end

    def _true_peak(self, block: np.ndarray, *, last: bool) -> None:
        """The peak of the 4×-upsampled signal over the samples whose neighbours are known:
        those left pending by the previous block and those of ``block`` but its last
        :data:`_MARGIN`, which wait for the next block; at the end (``last``) every sample
        left, the signal's end being its end. Up to :data:`_MARGIN` samples already done
        go before them, as their left neighbours."""
        from scipy.signal import resample_poly

        if len(block):
            self.peak = max(self.peak, float(np.max(np.abs(block))))
        extended = np.concatenate([self.tail, block])
        first = len(self.tail) - self.pending
        stop = max(len(extended) if last else len(extended) - _MARGIN, first)
        if stop > first and len(extended) > 1 and extended.any():  # silence upsamples to 0
            up = resample_poly(extended, _TRUE_PEAK_UP, 1, axis=0)
            self.peak = max(
                self.peak,
                float(np.max(np.abs(up[first * _TRUE_PEAK_UP : stop * _TRUE_PEAK_UP]))),
            )
        self.tail = extended[max(stop - _MARGIN, 0) :]
        self.pending = len(extended) - stop

    def result(self) -> Loudness:
        self._true_peak(np.zeros((0, self.channels)), last=True)
        duration = self.frames / self.rate
        true_peak = 20 * math.log10(self.peak) if self.peak > 0 else None
        lufs = self._integrated() if duration >= MIN_MEASURABLE_SECONDS else None
        return Loudness(lufs, true_peak, duration, self.rate, self.channels)

    def _integrated(self) -> float | None:
        n, rate, t_g, step = self.frames, self.rate, self.T_G, self.STEP
        edges = self._bounds(n)
        edges = np.concatenate([edges[edges < n], [n]])
        sums = np.array([*self.segments, self.open])[: len(edges) - 1]
        cumulative = np.concatenate([np.zeros((1, self.channels)), np.cumsum(sums, axis=0)])
        blocks = int(np.round((n / rate - t_g) / (t_g * step))) + 1
        j = np.arange(blocks, dtype=np.float64)
        lower = (t_g * (j * step) * rate).astype(np.int64)
        upper = np.minimum((t_g * (j * step + 1) * rate).astype(np.int64), n)
        z = cumulative[np.searchsorted(edges, upper)] - cumulative[np.searchsorted(edges, lower)]
        z = z / (t_g * rate)  # (blocks, channels): each gating block's mean square, eq. (1)
        weights = np.array(
            _CHANNEL_WEIGHTS[: self.channels] if self.channels <= 5 else [1.0] * self.channels
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            block_loudness = -0.691 + 10 * np.log10(z @ weights)  # eq. (4)
            gated = z[block_loudness >= -70.0]  # the absolute gate, −70 LKFS
            if not len(gated):
                return None
            relative = -0.691 + 10 * np.log10(gated.mean(axis=0) @ weights) - 10.0  # eq. (6)
            kept = z[(block_loudness > relative) & (block_loudness > -70.0)]
            if not len(kept):
                return None
            value = -0.691 + 10 * np.log10(kept.mean(axis=0) @ weights)  # eq. (7)
        return float(value) if math.isfinite(value) else None


def _measure_blocks(blocks, header: AudioHeader) -> Loudness:
    meter = _Meter(header.rate, header.channels)
    for block in blocks:
        meter.add(block)
    if meter.frames == 0:
        raise AudioUnreadable("holds no audio")
    return meter.result()


def loudness_measure(path: Path, *, limits: AudioLimits | None = None) -> Loudness:
    """Check the header of ``path`` against ``limits`` (:func:`audio_header_check`), then
    decode and measure it block by block; :class:`AudioUnreadable` (or
    :class:`AudioTooLarge`) with the reason if it cannot be used."""
    path = Path(path)
    header = audio_header_check(path, limits)
    return _measure_blocks(_blocks(path, header, limits=limits), header)


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
    limits: AudioLimits | None = None,
) -> Loudness:
    """Write the copy listeners hear of ``source`` to ``target`` (FLAC) and measure it.

    ``start``/``length`` (seconds) cut an excerpt (MIREX AMS played 30 s from 30 s in; a
    clip shorter than ``start + length`` gives what it has, from ``max(0, end - length)``);
    ``target_lufs`` (``None``: keep the level) sets its loudness within the ceiling. Block
    by block: the excerpt is measured in one pass and written in another.
    """
    import soundfile

    source = Path(source)
    header = audio_header_check(source, limits)
    first, count = 0, None
    if length is not None:
        frames = sum(len(b) for b in _blocks(source, header, limits=limits))  # what decodes
        count = int(length * header.rate)
        first = int(start * header.rate)
        if first + count > frames:
            first = max(0, frames - count)
    gain = 1.0
    if target_lufs is not None:
        measured = _measure_blocks(
            _blocks(source, header, limits=limits, start=first, frames=count), header
        )
        gain = 10 ** (
            copy_gain_db(measured, target_lufs=target_lufs, ceiling_dbtp=ceiling_dbtp) / 20
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    with soundfile.SoundFile(
        str(target), "w", samplerate=header.rate, channels=header.channels, format="FLAC",
        subtype="PCM_16",
    ) as out:  # fmt: skip
        for block in _blocks(source, header, limits=limits, start=first, frames=count):
            out.write(np.clip(block * gain, -1.0, 1.0 - 2**-15))
    return loudness_measure(target)
