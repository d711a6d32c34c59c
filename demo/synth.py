"""Deterministic music-like audio for the demo collection, made with numpy.

A clip is a melody, a bass line and a drum kit mixed into mono 22,050 Hz 16-bit PCM.
What a listener can tell apart is decided by two things:

- the **artist** fixes the timbre (the partials of the instrument and how fast the
  upper ones die away), the envelope (attack, decay, sustain, release), the register
  (the tonic's MIDI note) and the scale, so one artist's clips share an instrument
  and a key;
- the **genre** fixes the tempo range, the metre, the drum pattern, where melody and
  bass notes may start and how long they last, and the room (an echo for ambient),
  so clips of one genre share a groove.

Everything random comes from ``np.random.default_rng(spec.seed)``: the same spec
gives the same samples and the same WAV bytes on every run.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass

import numpy as np

SAMPLE_RATE = 22_050
SAMPLE_WIDTH = 2  # bytes: 16-bit PCM
PEAK_DBFS = -3.0
FADE_IN = 0.01  # seconds
FADE_OUT = 0.25  # seconds: the clip is an excerpt, so it fades out like one

SCALES: dict[str, tuple[int, ...]] = {
    "major": (0, 2, 4, 5, 7, 9, 11),
    "natural minor": (0, 2, 3, 5, 7, 8, 10),
    "dorian": (0, 2, 3, 5, 7, 9, 10),
    "phrygian": (0, 1, 3, 5, 7, 8, 10),
    "lydian": (0, 2, 4, 6, 7, 9, 11),
    "mixolydian": (0, 2, 4, 5, 7, 9, 10),
    "harmonic minor": (0, 2, 3, 5, 7, 8, 11),
    "major pentatonic": (0, 2, 4, 7, 9),
}


@dataclass(frozen=True)
class Artist:
    """An artist's sound: instrument, envelope, register and scale."""

    name: str
    instrument: str
    partials: tuple[tuple[float, float], ...]
    """(frequency ratio to the note, amplitude) of each partial."""
    attack: float
    """Seconds from silence to full level."""
    decay: float
    """Time constant (s) of the fall from full level to ``sustain``."""
    sustain: float
    """Level held while the note is on, 0–1 (0 for plucked and struck sounds)."""
    release: float
    """Seconds of fade after the note ends."""
    tonic: int
    """MIDI note of the scale's tonic; the melody moves from it to 1.5 octaves above."""
    scale: str
    """A key of ``SCALES``."""
    damping: float = 0.0
    """Extra decay rate (1/s) per unit of partial ratio above 1: bright attack, mellow tail."""
    vibrato: float = 0.0
    """Depth of a 5 Hz vibrato, as a fraction of the frequency."""


@dataclass(frozen=True)
class Genre:
    """A genre's groove: tempo, metre, patterns (one bar, ``x`` = hit) and room."""

    name: str
    tempo: tuple[float, float]
    """Range of beats per minute."""
    beats_per_bar: int
    steps_per_beat: int
    kick: str
    snare: str
    hat: str
    melody: str
    """Steps where a melody note may start."""
    note_steps: tuple[int, ...]
    """Lengths (in steps) a melody note is drawn from."""
    note_probability: float
    bass: str
    drum_gain: float
    echo: tuple[tuple[float, float], ...] = ()
    """(delay in seconds, gain) taps of a simple echo on the whole mix."""


@dataclass(frozen=True)
class ClipSpec:
    """Everything that decides a clip's samples."""

    artist: Artist
    genre: Genre
    duration: float
    """Seconds; a multiple of 0.1 s gives a whole number of samples."""
    seed: tuple[int, ...]


ARTISTS: tuple[Artist, ...] = (
    Artist(
        name="Aurora Lane",
        instrument="flute",
        partials=((1, 1.0), (2, 0.25), (3, 0.08), (4, 0.03)),
        attack=0.06,
        decay=0.6,
        sustain=0.8,
        release=0.08,
        tonic=74,  # D5
        scale="major",
        vibrato=0.006,
    ),
    Artist(
        name="The Copper Reeds",
        instrument="clarinet",
        partials=((1, 1.0), (3, 0.55), (5, 0.32), (7, 0.18), (9, 0.1)),
        attack=0.03,
        decay=0.4,
        sustain=0.7,
        release=0.06,
        tonic=57,  # A3
        scale="dorian",
    ),
    Artist(
        name="Basalt",
        instrument="brass",
        partials=tuple((k, 1.0 / k) for k in range(1, 13)),
        attack=0.07,
        decay=0.5,
        sustain=0.75,
        release=0.07,
        tonic=52,  # E3
        scale="natural minor",
    ),
    Artist(
        name="Glass Harbour",
        instrument="bell",
        partials=((1, 1.0), (2.76, 0.6), (5.40, 0.4), (8.93, 0.25)),
        attack=0.002,
        decay=0.9,
        sustain=0.0,
        release=0.6,
        tonic=84,  # C6
        scale="major pentatonic",
        damping=0.8,
    ),
    Artist(
        name="Mira Okafor",
        instrument="plucked string",
        partials=tuple((k, 1.0 / k**1.1) for k in range(1, 15)),
        attack=0.003,
        decay=0.35,
        sustain=0.0,
        release=0.2,
        tonic=67,  # G4
        scale="harmonic minor",
        damping=2.5,
    ),
    Artist(
        name="Low Tide Orchestra",
        instrument="string pad",
        partials=((1, 1.0), (1.005, 0.8), (2, 0.3), (2.01, 0.2), (3, 0.08)),
        attack=0.3,
        decay=1.5,
        sustain=0.9,
        release=0.3,
        tonic=53,  # F3
        scale="lydian",
    ),
    Artist(
        name="Neon Static",
        instrument="square lead",
        partials=tuple((k, 1.0 / k) for k in range(1, 16, 2)),
        attack=0.005,
        decay=0.15,
        sustain=0.5,
        release=0.03,
        tonic=71,  # B4
        scale="phrygian",
    ),
    Artist(
        name="Hollow Pines",
        instrument="organ",
        partials=((0.5, 0.5), (1, 1.0), (2, 0.7), (3, 0.4), (4, 0.3), (6, 0.15)),
        attack=0.015,
        decay=5.0,
        sustain=1.0,
        release=0.05,
        tonic=58,  # B♭3
        scale="mixolydian",
    ),
)

GENRES: tuple[Genre, ...] = (
    Genre(
        name="Electro",
        tempo=(120, 128),
        beats_per_bar=4,
        steps_per_beat=4,
        kick="x...x...x...x...",
        snare="....x.......x...",
        hat="..x...x...x...x.",
        melody="x.x.x.x.x.x.x.x.",
        note_steps=(2, 2, 2, 4),
        note_probability=0.85,
        bass="x.x.x.x.x.x.x.x.",
        drum_gain=0.9,
    ),
    Genre(
        name="Waltz",
        tempo=(84, 96),
        beats_per_bar=3,
        steps_per_beat=2,
        kick="x.....",
        snare="..x.x.",
        hat="......",
        melody="x.x.x.",
        note_steps=(2, 2, 4, 6),
        note_probability=0.8,
        bass="x.....",
        drum_gain=0.45,
        echo=((0.12, 0.15),),
    ),
    Genre(
        name="Ambient",
        tempo=(64, 72),
        beats_per_bar=4,
        steps_per_beat=2,
        kick="x.......",
        snare="........",
        hat="......x.",
        melody="x...x...",
        note_steps=(4, 8, 8),
        note_probability=0.75,
        bass="x.......",
        drum_gain=0.25,
        echo=((0.19, 0.35), (0.41, 0.22), (0.67, 0.12)),
    ),
)


def midi_to_hz(note: float) -> float:
    return 440.0 * 2.0 ** ((note - 69) / 12)


def render(spec: ClipSpec) -> np.ndarray:
    """The clip's samples: float64 in [-1, 1], peak at ``PEAK_DBFS``, faded in and out."""
    rng = np.random.default_rng(spec.seed)
    genre, artist = spec.genre, spec.artist
    n = round(spec.duration * SAMPLE_RATE)
    step = 60.0 / rng.uniform(*genre.tempo) / genre.steps_per_beat
    steps_per_bar = genre.beats_per_bar * genre.steps_per_beat
    n_steps = int(np.ceil(spec.duration / step))
    tail = round(2.0 * SAMPLE_RATE)  # room for the last notes' release
    melody = np.zeros(n + tail)
    bass = np.zeros(n + tail)
    drums = np.zeros(n + tail)

    _add_melody(melody, rng, artist, genre, step, n_steps, steps_per_bar)
    _add_bass(bass, rng, artist, genre, step, n_steps, steps_per_bar)
    _add_drums(drums, rng, genre, step, n_steps, steps_per_bar)

    mix = (
        melody / _peak(melody) + 0.45 * bass / _peak(bass) + genre.drum_gain * drums / _peak(drums)
    )
    mix = _echo(mix, genre.echo)[:n]
    mix *= 10 ** (PEAK_DBFS / 20) / _peak(mix)
    return _fade(mix)


def wav_bytes(samples: np.ndarray) -> bytes:
    """Mono 16-bit PCM WAV at ``SAMPLE_RATE`` of float samples in [-1, 1]."""
    pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(SAMPLE_WIDTH)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(pcm.tobytes())
    return buffer.getvalue()


def _peak(x: np.ndarray) -> float:
    return float(np.max(np.abs(x))) or 1.0


def _pattern_hits(pattern: str, n_steps: int, steps_per_bar: int) -> list[int]:
    return [s for s in range(n_steps) if pattern and pattern[s % steps_per_bar] == "x"]


def _add(buffer: np.ndarray, start: int, sound: np.ndarray) -> None:
    end = min(len(buffer), start + len(sound))
    if end > start:
        buffer[start:end] += sound[: end - start]


def _add_melody(buffer, rng, artist, genre, step, n_steps, steps_per_bar) -> None:
    scale = SCALES[artist.scale]
    top = len(scale) + len(scale) // 2  # 1.5 octaves above the tonic
    degree = int(rng.integers(0, len(scale)))
    moves = np.array([-2, -1, 0, 1, 2, 3, -3])
    move_p = np.array([0.2, 0.25, 0.05, 0.25, 0.15, 0.05, 0.05])
    s = 0
    while s < n_steps:
        starts_here = genre.melody[s % steps_per_bar] == "x"
        if not starts_here or rng.random() > genre.note_probability:
            s += 1
            continue
        length = int(rng.choice(genre.note_steps))
        accent = 1.0 if s % steps_per_bar == 0 else 0.8
        velocity = accent * rng.uniform(0.75, 1.0)
        octave, index = divmod(degree, len(scale))
        note = artist.tonic + 12 * octave + scale[index]
        sound = _note(artist, midi_to_hz(note), length * step)
        _add(buffer, round(s * step * SAMPLE_RATE), velocity * sound)
        degree = int(np.clip(degree + rng.choice(moves, p=move_p), 0, top))
        s += length


def _note(artist: Artist, frequency: float, gate: float) -> np.ndarray:
    """One note of the artist's instrument held for ``gate`` seconds, then released."""
    n_gate = round(gate * SAMPLE_RATE)
    n = n_gate + round(artist.release * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    envelope = np.where(
        t < artist.attack,
        t / artist.attack,
        artist.sustain + (1 - artist.sustain) * np.exp(-(t - artist.attack) / artist.decay),
    )
    envelope[n_gate:] *= np.linspace(1.0, 0.0, n - n_gate)
    if artist.vibrato:
        warp = t + artist.vibrato * np.sin(2 * np.pi * 5.0 * t) / (2 * np.pi * 5.0)
    else:
        warp = t
    tone = np.zeros(n)
    for ratio, amplitude in artist.partials:
        f = frequency * ratio
        if f >= 0.45 * SAMPLE_RATE:
            continue
        partial = amplitude * np.sin(2 * np.pi * f * warp)
        if artist.damping:
            partial *= np.exp(-artist.damping * (ratio - 1) * t)
        tone += partial
    return envelope * tone


def _add_bass(buffer, rng, artist, genre, step, n_steps, steps_per_bar) -> None:
    """Root notes of I, IV, V or vi of the artist's scale, one chord per bar."""
    scale = SCALES[artist.scale]
    root = artist.tonic - 12
    while root > 50:  # keep the bass under D3
        root -= 12
    hits = _pattern_hits(genre.bass, n_steps, steps_per_bar)
    degrees = [0, 3, 4, 5] if len(scale) == 7 else [0, 2, 3, 4]
    bar_degree: dict[int, int] = {}
    for i, s in enumerate(hits):
        bar = s // steps_per_bar
        if bar not in bar_degree:
            bar_degree[bar] = 0 if bar == 0 else int(rng.choice(degrees))
        note = root + scale[bar_degree[bar]]
        following = hits[i + 1] if i + 1 < len(hits) else n_steps
        gate = 0.9 * (following - s) * step
        f = midi_to_hz(note)
        n_gate = round(gate * SAMPLE_RATE)
        n_tail = round(0.05 * SAMPLE_RATE)
        t = np.arange(n_gate + n_tail) / SAMPLE_RATE
        envelope = np.minimum(t / 0.01, 1.0) * np.exp(-t / 1.2)
        envelope[n_gate:] *= np.linspace(1.0, 0.0, n_tail)
        tone = np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t)
        _add(buffer, round(s * step * SAMPLE_RATE), envelope * tone)


def _add_drums(buffer, rng, genre, step, n_steps, steps_per_bar) -> None:
    kick = _kick()
    snare = _snare(rng)
    hat = _hat(rng)
    for pattern, sound, gain in (
        (genre.kick, kick, 1.0),
        (genre.snare, snare, 0.6),
        (genre.hat, hat, 0.35),
    ):
        for s in _pattern_hits(pattern, n_steps, steps_per_bar):
            _add(buffer, round(s * step * SAMPLE_RATE), gain * rng.uniform(0.85, 1.0) * sound)


def _kick() -> np.ndarray:
    t = np.arange(round(0.3 * SAMPLE_RATE)) / SAMPLE_RATE
    frequency = 45.0 + 90.0 * np.exp(-t / 0.04)
    phase = 2 * np.pi * np.cumsum(frequency) / SAMPLE_RATE
    return np.sin(phase) * np.exp(-t / 0.12) * np.minimum(t / 0.002, 1.0)


def _snare(rng: np.random.Generator) -> np.ndarray:
    t = np.arange(round(0.2 * SAMPLE_RATE)) / SAMPLE_RATE
    noise = _band_noise(rng, len(t), 1000.0, 5000.0)
    body = 0.5 * np.sin(2 * np.pi * 185.0 * t)
    return (noise / _peak(noise) + body) * np.exp(-t / 0.06) * np.minimum(t / 0.002, 1.0)


def _hat(rng: np.random.Generator) -> np.ndarray:
    t = np.arange(round(0.06 * SAMPLE_RATE)) / SAMPLE_RATE
    noise = _band_noise(rng, len(t), 7000.0, SAMPLE_RATE / 2)
    return noise / _peak(noise) * np.exp(-t / 0.015) * np.minimum(t / 0.001, 1.0)


def _band_noise(rng: np.random.Generator, n: int, low: float, high: float) -> np.ndarray:
    """White noise with everything outside ``low``–``high`` Hz removed (in the FFT domain)."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    frequencies = np.fft.rfftfreq(n, 1 / SAMPLE_RATE)
    spectrum[(frequencies < low) | (frequencies > high)] = 0
    return np.fft.irfft(spectrum, n)


def _echo(x: np.ndarray, taps: tuple[tuple[float, float], ...]) -> np.ndarray:
    y = x.copy()
    for delay, gain in taps:
        d = round(delay * SAMPLE_RATE)
        y[d:] += gain * x[:-d]
    return y


def _fade(x: np.ndarray) -> np.ndarray:
    """Raised-cosine fades so that the clip starts and ends at silence, without clicks."""
    y = x.copy()
    n_in = round(FADE_IN * SAMPLE_RATE)
    n_out = round(FADE_OUT * SAMPLE_RATE)
    y[:n_in] *= 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, n_in))
    y[-n_out:] *= 0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, n_out))
    return y
