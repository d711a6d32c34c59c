"""Where the project's ``shared/`` folder is (papers and the MIREX 2011 data), for tests.

``$EARSHOT_SHARED`` if set, else the first ``shared`` folder beside the repository or one
of its ancestors (CI clones the repository with ``shared/`` beside it). No Django here:
the core's tests use it too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _shared() -> Path:
    if os.environ.get("EARSHOT_SHARED"):
        return Path(os.environ["EARSHOT_SHARED"])
    for parent in ROOT.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared"
    return ROOT.parent / "shared"


SHARED = _shared()
MIREX2011 = SHARED / "data" / "mirex2011-ams"
THESIS = SHARED / "papers" / "urbano2013-thesis-evaluation-in-audio-music-similarity.txt"


def require(path: Path) -> Path:
    """``path`` if it exists; else skip loudly, or fail under ``CI=true``."""
    if path.exists():
        return path
    message = f"{path} not found: set EARSHOT_SHARED to the project's shared/ folder"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
