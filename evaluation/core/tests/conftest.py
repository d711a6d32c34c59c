"""Shared fixtures of the core tests: the MIREX 2011 AMS collection, when present."""

import collections
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]


def _shared() -> Path:
    """The project's shared folder (``../shared`` of the main checkout): $EARSHOT_SHARED,
    else the first ``shared`` folder next to the repository or one of its ancestors
    (worktrees live deeper than the main checkout)."""
    if os.environ.get("EARSHOT_SHARED"):
        return Path(os.environ["EARSHOT_SHARED"])
    for parent in ROOT.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared"
    return ROOT.parent / "shared"


SHARED = _shared()
MIREX2011 = SHARED / "data" / "mirex2011-ams"
THESIS = SHARED / "papers" / "urbano2013-thesis-evaluation-in-audio-music-similarity.txt"


def _rows(path: Path):
    # The files keep their CRLF line ends (see the collection's README).
    with open(path, newline="", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line:
                yield line.split("\t")


@pytest.fixture(scope="session")
def mirex2011_cg_l5_fine():
    r"""CG_l@5 with Fine judgments on MIREX 2011: an 18 systems × 100 queries matrix.

    User-oriented CG@k with linear gain g(ℓ) = ℓ on the Fine scale (n_L = 101), thesis
    eq. (3.3):

    .. math::  CG_l@5 = \frac{1}{5}\sum_{i=1}^{5} \frac{g(r_{A_i})}{g(n_L - 1)}
               = \frac{1}{5}\sum_{i=1}^{5} \frac{fine_i}{100}

    computed here directly from the files, independently of the measures module.
    """
    if not MIREX2011.exists():
        pytest.skip(f"MIREX 2011 data not found at {MIREX2011}")
    fine = {(q, d): float(f) for q, d, f in _rows(MIREX2011 / "judgments.tsv")}
    lists = collections.defaultdict(list)
    for system, query, doc in _rows(MIREX2011 / "runs.tsv"):
        lists[(system, query)].append(doc)
    systems = sorted({s for s, _ in lists})
    queries = sorted({q for _, q in lists})
    X = np.array(
        [[sum(fine[(q, d)] / 100 for d in lists[(s, q)][:5]) / 5 for q in queries] for s in systems]
    )
    return systems, queries, X
