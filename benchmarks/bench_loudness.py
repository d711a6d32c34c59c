"""What equal loudness costs per clip at upload (issue 23): decoding and measuring a clip
(``listening.loudness.loudness_measure``) and writing the copy listeners hear
(``listening_copy_write``: −23 LUFS, −1 dBTP, FLAC), for 30-second CD-quality clips
(44.1 kHz, stereo) of the formats uploads come in. The clips are noise shaped like music
(pink-ish, with a slow envelope), written with libsndfile. Nothing is asserted.

    .venv/bin/python benchmarks/bench_loudness.py [--clips 10] [--seconds 30]

Figures: ``docs/benchmarks.md`` ("Equal loudness at upload").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from listening.loudness import listening_copy_write, loudness_measure

FORMATS = {
    ".wav": ("WAV", "PCM_16"),
    ".flac": ("FLAC", "PCM_16"),
    ".mp3": ("MP3", "MPEG_LAYER_III"),
}


def music_like(seconds: float, rate: int, rng: np.random.Generator) -> np.ndarray:
    white = rng.standard_normal((int(seconds * rate), 2))
    pinkish = np.cumsum(white, axis=0)
    pinkish -= np.convolve(pinkish[:, 0], np.ones(64) / 64, mode="same")[:, None]
    envelope = 0.6 + 0.4 * np.sin(np.linspace(0, 12 * np.pi, len(pinkish)))[:, None]
    signal = pinkish * envelope
    return 0.3 * signal / np.max(np.abs(signal)) * rng.uniform(0.1, 1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(7)
    rate = 44_100
    print(
        f"{args.clips} clips of {args.seconds:.0f} s, 44.1 kHz stereo, per clip (min / median / max):"
    )
    with tempfile.TemporaryDirectory() as folder:
        for suffix, (kind, subtype) in FORMATS.items():
            measure, copy = [], []
            for n in range(args.clips):
                path = Path(folder) / f"clip{n}{suffix}"
                soundfile.write(
                    str(path),
                    music_like(args.seconds, rate, rng),
                    rate,
                    format=kind,
                    subtype=subtype,
                )
                start = time.perf_counter()
                loudness_measure(path)
                measure.append(time.perf_counter() - start)
                start = time.perf_counter()
                listening_copy_write(path, Path(folder) / f"copy{n}.flac")
                copy.append(time.perf_counter() - start)
            for label, values in (("measure", measure), ("copy at -23 LUFS", copy)):
                print(
                    f"  {suffix:5} {label:17} {min(values) * 1000:7.0f} / "
                    f"{statistics.median(values) * 1000:7.0f} / {max(values) * 1000:7.0f} ms"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
