"""What varying a clip's bytes per task would cost the crowd's audio responses (issue 22, item 3).

Today a clip has the same bytes in every task, so throwaway identities can link tasks by
hashing them. Issue 22 makes that link worthless (each trap question is shown to as many
workers as an ordinary example, and being stopped does not follow the trap); varying the
bytes per task would be defence in depth, to build only if cheap. This measures the
server's CPU per audio response for a typical clip (30 s, 22,050 Hz, mono, 16-bit WAV:
1.3 MB), as the task's audio view would have to do it on every response (a Range request
must see the same varied file, so the variation is made from the task's seed each time):

- ``as is``: read the file (what is served now);
- ``re-wrapped``: a ``JUNK`` chunk of a per-task length (0–4 KB) after the header;
- ``silence``: a per-task offset of 0–50 ms of silence before the audio;
- ``gain``: every sample times a per-task factor 0.990–0.999 (−0.01 to −0.09 dB), rounded.

Compressed clips (MP3, Ogg) would need decoding and encoding for the last two, far more
than the WAV figures. Run: ``python benchmarks/bench_audio_variation.py [--repeat 200]``.
"""

from __future__ import annotations

import argparse
import io
import random
import struct
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

RATE = 22_050
SECONDS = 30


def _clip(path: Path) -> None:
    rng = np.random.default_rng(22)
    t = np.arange(RATE * SECONDS) / RATE
    samples = 0.3 * np.sin(2 * np.pi * 330 * t) + 0.05 * rng.standard_normal(t.size)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes((samples * 32767).astype("<i2").tobytes())


def as_is(path: Path, seed: int) -> bytes:
    return path.read_bytes()


def rewrapped(path: Path, seed: int) -> bytes:
    data = path.read_bytes()
    junk = random.Random(seed).randrange(0, 4096, 2)
    chunk = b"JUNK" + struct.pack("<I", junk) + bytes(junk)
    body = data[12:36] + chunk + data[36:]  # fmt and data chunks, a JUNK chunk between
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WAVE" + body


def _pcm(path: Path) -> tuple[wave._wave_params, np.ndarray]:
    with wave.open(str(path), "rb") as src:
        params = src.getparams()
        return params, np.frombuffer(src.readframes(params.nframes), dtype="<i2")


def _wav(params, samples: np.ndarray) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as dst:
        dst.setnchannels(params.nchannels)
        dst.setsampwidth(params.sampwidth)
        dst.setframerate(params.framerate)
        dst.writeframes(samples.astype("<i2").tobytes())
    return out.getvalue()


def silence(path: Path, seed: int) -> bytes:
    params, pcm = _pcm(path)
    pad = random.Random(seed).randrange(0, RATE // 20)
    return _wav(params, np.concatenate([np.zeros(pad, dtype="<i2"), pcm]))


def gain(path: Path, seed: int) -> bytes:
    params, pcm = _pcm(path)
    factor = random.Random(seed).uniform(0.990, 0.999)
    return _wav(params, np.rint(pcm * factor))


VARIANTS = {"as is": as_is, "re-wrapped": rewrapped, "silence": silence, "gain": gain}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "clip.wav"
        _clip(path)
        print(f"clip: {path.stat().st_size:,} bytes; {args.repeat} responses per variant")
        base = None
        for name, make in VARIANTS.items():
            for seed in range(5):  # warm up
                make(path, seed)
            start = time.process_time()
            for seed in range(args.repeat):
                make(path, seed)
            ms = (time.process_time() - start) * 1000 / args.repeat
            base = ms if base is None else base
            # At issue 14's target of 80 answers/s, each answer fetching 3 clips.
            print(f"{name:11s} {ms:7.3f} ms CPU per response, +{ms - base:6.3f} ms over as is, "
                  f"{(ms - base) * 240 / 1000:.3f} s of CPU per second at 240 responses/s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
