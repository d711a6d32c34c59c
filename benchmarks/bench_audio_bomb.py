"""Peak memory of measuring a clip: decompression bombs, before and after (issue 28, item 3).

Issue 28: "a 59 KB FLAC of silence (5 channels, 208 s) took the interactive worker to
3.6 GB for 30 s and was accepted; an 81 KB 8-channel one reached 1.5 GB and then failed".
Each case measures one file as the clips import does (``listening.loudness.loudness_measure``
with the default clip limits) in a fresh process, and records the process's peak resident
memory while measuring (Linux ``VmHWM``, reset after the imports with
``/proc/self/clear_refs``), its CPU seconds and how it ended. Files are written into a
temporary folder:

- ``bomb-5ch-208s`` — the issue's file: 208 s of silence, 5 channels, 48 kHz (FLAC);
- ``bomb-8ch-208s`` — the same in 8 channels, the issue's second file's channels;
- ``worst-8ch-600s-192k`` — the worst file within the default limits: 600 s (the longest
  clip), 8 channels (the most), 192 kHz (the highest rate), of silence: 921.6 million
  samples in a FLAC of a few MB;
- ``tone-8ch-600s-192k`` — the same length of a quiet 1 kHz tone (the true peak's
  upsampling cannot skip it as silence);
- ``over-9ch`` — 9 channels (WAV): refused by its header.

``--before REV`` measures the cases with the ``listening/loudness.py`` of the git revision
REV (e.g. ``main``) instead; every child runs under an address-space cap
(``--cap-gb``, default 6) so that the old whole-file decoding fails with MemoryError
instead of exhausting a shared machine.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_audio_bomb.py [--only NAME ...] [--before REV]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parent.parent
GIB = 1 << 30

CASES = {
    "bomb-5ch-208s": dict(channels=5, seconds=208, rate=48_000, kind="silence", fmt="FLAC"),
    "bomb-8ch-208s": dict(channels=8, seconds=208, rate=48_000, kind="silence", fmt="FLAC"),
    "worst-8ch-600s-192k": dict(channels=8, seconds=600, rate=192_000, kind="silence", fmt="FLAC"),
    "tone-8ch-600s-192k": dict(channels=8, seconds=600, rate=192_000, kind="tone", fmt="FLAC"),
    "over-9ch": dict(channels=9, seconds=60, rate=48_000, kind="silence", fmt="WAV"),
}

CHILD = r"""
import json, os, resource, sys, time
cap = int(os.environ["BENCH_CAP_BYTES"])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.path.insert(0, os.environ["BENCH_CODE"])
import numpy, scipy.signal, soundfile, pyloudnorm  # what measuring imports, before the reset
import loudness

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0

baseline = hwm()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak: measure the measuring only
limits = getattr(loudness, "AudioLimits", None)
kwargs = {"limits": limits(600, 8, 192_000)} if limits else {}
cpu = time.process_time()
try:
    measured = loudness.loudness_measure(os.environ["BENCH_FILE"], **kwargs)
    outcome = f"measured: {measured.duration:.0f} s, {measured.lufs} LUFS"
except MemoryError:
    outcome = "MemoryError at the cap"
except Exception as error:
    outcome = f"refused: {error}"[:160]
print(json.dumps({"peak": hwm(), "baseline": baseline, "cpu": time.process_time() - cpu,
                  "outcome": outcome}))
"""


def write_case(path: Path, *, channels: int, seconds: int, rate: int, kind: str, fmt: str):
    with soundfile.SoundFile(path, "w", samplerate=rate, channels=channels, format=fmt,
                             subtype="PCM_16") as out:  # fmt: skip
        t = np.arange(rate) / rate
        second = np.zeros((rate, channels))
        if kind == "tone":
            second[:] = (0.01 * np.sin(2 * np.pi * 1000.0 * t))[:, None]
        for _ in range(seconds):
            out.write(second)


def code_folder(revision: str | None, scratch: Path) -> Path:
    """A folder holding ``listening/loudness.py`` of ``revision`` (the working tree: None),
    importable without Django."""
    folder = scratch / "code"
    folder.mkdir(exist_ok=True)
    if revision is None:
        text = (ROOT / "listening" / "loudness.py").read_text()
    else:
        text = subprocess.run(["git", "show", f"{revision}:listening/loudness.py"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout  # fmt: skip
    (folder / "loudness.py").write_text(text)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(CASES))
    parser.add_argument("--before", help="a git revision whose listening/loudness.py to measure")
    parser.add_argument("--cap-gb", type=float, default=6.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="earshot-bomb-") as scratch:
        scratch = Path(scratch)
        code = code_folder(args.before, scratch)
        head = subprocess.run(["git", "rev-parse", "--short", args.before or "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip()  # fmt: skip
        print(f"listening/loudness.py of: {args.before or 'the working tree'} ({head})")
        print(
            "| case | file | peak MB while measuring | process before it, MB | CPU s | how it ended |"
        )
        print("|---|---:|---:|---:|---:|---|")
        for name in args.only or CASES:
            case = CASES[name]
            path = scratch / f"{name}.{case['fmt'].lower()}"
            write_case(path, **case)
            env = dict(os.environ, BENCH_CODE=str(code), BENCH_FILE=str(path),
                       BENCH_CAP_BYTES=str(int(args.cap_gb * GIB)))  # fmt: skip
            done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                                  text=True, check=False)  # fmt: skip
            try:
                result = json.loads(done.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                print(f"| {name} | – | – | – | – | crashed: {done.stderr[-300:]!r} |")
                continue
            print(f"| {name} | {path.stat().st_size / 1024:,.0f} KB | {result['peak'] / 2**20:,.0f} "
                  f"| {result['baseline'] / 2**20:,.0f} | {result['cpu']:.1f} | {result['outcome']} |",
                  flush=True)  # fmt: skip
            path.unlink()


if __name__ == "__main__":
    main()
