"""A small collection ranked against ordered groups (issue 32): two queries, five clips,
three systems' lists of three, and a groups file whose ADR each system's score is worked
out by hand in :data:`ADR_BY_HAND`."""

from __future__ import annotations

import time
from pathlib import Path

from catalog.models import Collection, RunEntry, System
from ingest.importers.groups import groups_import
from tests.helpers.importing import collection_make

GROUPS_FILE = """\
experts q1 d1 1
experts q1 d2 1
experts q1 d3 2
experts q2 d4 1
experts q2 d5 2
experts q2 d1 2
"""
"""q1: {d1, d2} then {d3}; q2: {d4} then {d5, d1} (group 1 the most similar)."""

RUNS = {
    "A": {"q1": ["d1", "d2", "d3"], "q2": ["d4", "d5", "d1"]},
    "B": {"q1": ["d3", "d1", "d4"], "q2": ["d5", "d4", "d2"]},
    "C": {"q1": ["d4", "d5", "d3"], "q2": ["d2", "d3", "d1"]},
}

# ADR by hand (Typke et al. 2006, §3; thesis eq. 2.17): n = 3 ground-truth items per query;
# at rank i the relevant set is every group up to the one holding the i-th item of the
# ground truth, r_i = |relevant ∩ top i| / i, ADR = mean of r_1..r_3.
#   A: both lists are the groups in order: r = 1, 1, 1 → 1 on both queries → 1.
#   B q1 [d3 d1 d4]: {d1 d2}: 0/1; {d1 d2}: 1/2; {d1 d2 d3}: 2/3 → (0 + 1/2 + 2/3)/3 = 7/18
#   B q2 [d5 d4 d2]: {d4}: 0/1; {d4 d5 d1}: 2/2; {d4 d5 d1}: 2/3 → (0 + 1 + 2/3)/3 = 5/9
#   B: (7/18 + 10/18) / 2 = 17/36
#   C q1 [d4 d5 d3]: 0, 0, 1/3 → 1/9;  C q2 [d2 d3 d1]: 0, 0, 1/3 → 1/9;  C: 1/9
ADR_BY_HAND = {"A": 1.0, "B": 17 / 36, "C": 1 / 9}


def groups_collection(*, owner_name: str = "owner", name: str = "ADR study") -> Collection:
    """The collection of :data:`RUNS` (clips d1–d5, queries q1 and q2), no judgments yet."""
    collection = collection_make(
        name=name, clips="d1 d2 d3 d4 d5", queries="q1 q2", owner_name=owner_name
    )
    clips = dict(collection.clips.values_list("external_id", "pk"))
    queries = dict(collection.queries.values_list("clip__external_id", "pk"))
    for system_name, lists in RUNS.items():
        system = System.objects.create(collection=collection, name=system_name)
        RunEntry.objects.bulk_create(
            RunEntry(system=system, query_id=queries[q], rank=rank, clip_id=clips[doc])
            for q, ranked in lists.items()
            for rank, doc in enumerate(ranked, start=1)
        )
    return collection


def groups_collection_imported(*, owner_name: str, folder: Path) -> Collection:
    """:func:`groups_collection` with :data:`GROUPS_FILE` imported (source ``experts``,
    official; the file written in ``folder`` as ``groups.txt``)."""
    collection = groups_collection(owner_name=owner_name)
    (folder / "groups.txt").write_text(GROUPS_FILE, encoding="utf-8")
    groups_import(collection=collection, path=folder / "groups.txt")
    return collection


ADR_AT_3 = "ADR(scale=groups)@3"
"""The ADR leaderboard of :func:`groups_collection` (lists of three) once it has groups."""


def wait_for_leaderboard(measure: str = ADR_AT_3, seconds: float = 90):
    """The worker's recompute after groups were written (delayed by a few seconds)."""
    from evaluation.models import Leaderboard

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        board = Leaderboard.objects.filter(measure=measure).first()
        if board is not None:
            return board
        time.sleep(0.5)
    raise AssertionError(f"no leaderboard of {measure} after {seconds} s")
