"""Shared fixtures of the core tests: the MIREX 2011 AMS collection, when present."""

import collections
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.shared_data import MIREX2011, require


def _rows(path: Path):
    # The files keep their CRLF line ends (see the collection's README).
    with open(path, newline="", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line:
                yield line.split("\t")


@pytest.fixture(scope="session")
def mirex2011_files():
    """MIREX 2011 as read straight from the files: ``fine[(query, doc)]`` (ints) and
    ``lists[(system, query)]`` (documents in rank order)."""
    require(MIREX2011)
    fine = {(q, d): int(f) for q, d, f in _rows(MIREX2011 / "judgments.tsv")}
    lists = collections.defaultdict(list)
    for system, query, doc in _rows(MIREX2011 / "runs.tsv"):
        lists[(system, query)].append(doc)
    return fine, dict(lists)


@pytest.fixture(scope="session")
def mirex2011_core(mirex2011_files):
    """MIREX 2011 as the core's ``Qrels`` (Fine column) and ``{system: Run}``."""
    from evaluation.core.trec import Qrels, Run

    fine, lists = mirex2011_files
    qrels = Qrels.from_records(
        [(q, d, float(f)) for (q, d), f in fine.items()], columns=("fine",), default="fine"
    )
    by_system = collections.defaultdict(dict)
    for (system, query), docs in lists.items():
        by_system[system][query] = docs
    runs = {s: Run.from_ranked_lists(v, name=s) for s, v in sorted(by_system.items())}
    return qrels, runs


@pytest.fixture(scope="session")
def mirex2011_cg_l5_fine(mirex2011_files):
    r"""CG_l@5 with Fine judgments on MIREX 2011: an 18 systems × 100 queries matrix.

    User-oriented CG@k with linear gain g(ℓ) = ℓ on the Fine scale (n_L = 101), thesis
    eq. (3.3):

    .. math::  CG_l@5 = \frac{1}{5}\sum_{i=1}^{5} \frac{g(r_{A_i})}{g(n_L - 1)}
               = \frac{1}{5}\sum_{i=1}^{5} \frac{fine_i}{100}

    computed here directly from the files, independently of the measures module.
    """
    fine, lists = mirex2011_files
    systems = sorted({s for s, _ in lists})
    queries = sorted({q for _, q in lists})
    X = np.array(
        [[sum(fine[(q, d)] / 100 for d in lists[(s, q)][:5]) / 5 for q in queries] for s in systems]
    )
    return systems, queries, X
