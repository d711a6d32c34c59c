"""Run every benchmark script of this folder, one after the other (``make bench``).

    python benchmarks/run_all.py [--only NAME ...] [--list]

Each ``bench_*.py`` runs as its own process from the repository root, with its default
arguments, and prints its own report (figures for ``docs/benchmarks.md``; nothing is
asserted). The exit status is the first non-zero status of a script, so a broken
benchmark is noticed. Names are the scripts' names without ``bench_`` and ``.py``
(``measures``, ``recompute``, ``significance``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def scripts() -> dict[str, Path]:
    return {path.stem.removeprefix("bench_"): path for path in sorted(HERE.glob("bench_*.py"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=sorted(scripts()))
    parser.add_argument("--list", action="store_true", help="print the names and stop")
    args = parser.parse_args(argv)
    chosen = {name: path for name, path in scripts().items() if not args.only or name in args.only}
    if args.list:
        print("\n".join(chosen))
        return 0
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    status = 0
    for name, path in chosen.items():
        print(f"\n===== {name}: {path.relative_to(ROOT)} =====", flush=True)
        started = time.monotonic()
        code = subprocess.call([sys.executable, str(path)], cwd=ROOT, env=env)
        print(
            f"===== {name}: exit {code} after {time.monotonic() - started:.0f} s =====", flush=True
        )
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main())
