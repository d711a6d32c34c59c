"""What the demo collection holds, as plain data: clips, queries, runs and judgments.

No Django here: ``plan_demo(seed=...)`` is a pure function, and ``demo.seed``
writes its result to the database.

The similarity structure is known by construction (see ``similarity``): a clip by the
query's artist in the query's genre is very similar, the same artist in another genre
similar, another artist in the same genre somewhat similar, anything else not. The
four systems rank candidates by that similarity plus noise of different sizes, so their
quality is ordered on purpose; the judgments are the similarity plus assessor noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from demo.synth import ARTISTS, GENRES, ClipSpec

DEFAULT_SEED = 2011
TAKES = 2
"""Clips per (artist, genre): 8 artists × 3 genres × 2 takes = 48 clips."""
N_QUERIES = 10
DEPTH = 5
"""Length of each system's ranked list."""
JUDGED_QUERIES = 10
"""The first queries whose pooled top-5 lists are judged: all of them, so that the crowd
study can build examples and trap questions from the judgments."""
JUDGE_NOISE = 8.0
"""Standard deviation of the assessor's noise on the Fine scale."""
ASSESSORS = 2
"""Demo assessors who judged in the relevance campaign before the demo starts."""
ASSESSED_QUERIES = 3
"""The first queries both demo assessors judged in the campaign (overlapping work, so
that agreement between assessors shows at once); the rest is left to judge by ear."""
ASSESSOR_NOISE = 12.0
"""Standard deviation of each demo assessor's own noise on the Fine scale: larger than
the imported judgments', as people hearing generated clips disagree (thesis §7.4)."""

# Streams of randomness, one per decision, so that changing one does not move the others.
_CLIPS, _QUERIES, _RUNS, _JUDGMENTS, _ASSESSOR_WORK = 1, 2, 3, 4, 5

_TITLE_WORDS = (
    ("Amber", "Borrowed", "Copper", "Distant", "Evening", "Folded", "Golden", "Hidden",
     "Idle", "Jade", "Lantern", "Midnight", "Northern", "Paper", "Quiet", "Silver"),
    ("Avenue", "Bridges", "Canal", "Dunes", "Echoes", "Fields", "Garden", "Harbour",
     "Islands", "Letters", "Morning", "Orchard", "Rivers", "Signals", "Tides", "Windows"),
)  # fmt: skip


@dataclass(frozen=True)
class PlannedClip:
    external_id: str
    title: str
    artist_index: int
    genre_index: int
    take: int
    duration: float
    seed: tuple[int, ...]

    @property
    def artist(self) -> str:
        return ARTISTS[self.artist_index].name

    @property
    def genre(self) -> str:
        return GENRES[self.genre_index].name

    @property
    def spec(self) -> ClipSpec:
        return ClipSpec(
            artist=ARTISTS[self.artist_index],
            genre=GENRES[self.genre_index],
            duration=self.duration,
            seed=self.seed,
        )


@dataclass(frozen=True)
class PlannedSystem:
    name: str
    team: str
    noise: float
    """Standard deviation of the noise added to the similarity before ranking."""
    quality: str


@dataclass(frozen=True)
class PlannedRunEntry:
    system: str
    query: str
    rank: int
    clip: str
    score: float


@dataclass(frozen=True)
class PlannedJudgment:
    query: str
    clip: str
    broad: int
    fine: int


@dataclass(frozen=True)
class PlannedAssessorJudgment:
    assessor: int
    """0 for the first demo assessor, 1 for the second."""
    query: str
    clip: str
    broad: int
    fine: int


@dataclass(frozen=True)
class DemoPlan:
    seed: int
    clips: tuple[PlannedClip, ...]
    queries: tuple[str, ...]
    """External ids of the query clips."""
    systems: tuple[PlannedSystem, ...]
    runs: tuple[PlannedRunEntry, ...]
    judgments: tuple[PlannedJudgment, ...]
    assessor_judgments: tuple[PlannedAssessorJudgment, ...]
    """What the demo assessors judged in the relevance campaign (every pooled clip of the
    first :data:`ASSESSED_QUERIES` queries, by each of the :data:`ASSESSORS`)."""


SYSTEMS: tuple[PlannedSystem, ...] = (
    PlannedSystem("GoodEar", "Timbre & Tempo Lab", noise=0.05, quality="good"),
    PlannedSystem("MidFi", "Spectral Averages Group", noise=0.2, quality="medium"),
    PlannedSystem("Hunch", "One-Feature Club", noise=0.45, quality="between medium and poor"),
    PlannedSystem("Shuffle", "Baseline Team", noise=5.0, quality="poor, close to random"),
)


def similarity(a: PlannedClip, b: PlannedClip) -> float:
    """How similar two clips are by construction, 0–1.

    Same artist and genre 0.9, same artist 0.6, same genre 0.4, neither 0.1:
    an artist's timbre and key are easier to hear than a shared groove.
    """
    same_artist = a.artist_index == b.artist_index
    same_genre = a.genre_index == b.genre_index
    return 0.1 + 0.5 * same_artist + 0.3 * same_genre


def fine_to_broad(fine: int) -> int:
    """The Broad category an assessor gives along with a Fine score (NS < 35 ≤ SS < 70 ≤ VS)."""
    return 0 if fine < 35 else 1 if fine < 70 else 2


def plan_demo(*, seed: int = DEFAULT_SEED) -> DemoPlan:
    clips = _plan_clips(seed)
    by_id = {c.external_id: c for c in clips}
    queries = _plan_queries(seed, clips)
    runs = _plan_runs(seed, clips, queries)
    judgments = _plan_judgments(seed, by_id, queries[:JUDGED_QUERIES], runs)
    return DemoPlan(
        seed=seed,
        clips=clips,
        queries=queries,
        systems=SYSTEMS,
        runs=runs,
        judgments=judgments,
        assessor_judgments=_plan_assessor_work(seed, by_id, queries[:ASSESSED_QUERIES], runs),
    )


def _plan_clips(seed: int) -> tuple[PlannedClip, ...]:
    rng = np.random.default_rng([seed, _CLIPS])
    n = len(ARTISTS) * len(GENRES) * TAKES
    first, second = _TITLE_WORDS
    picks = rng.choice(len(first) * len(second), size=n, replace=False)
    # Clip ids say nothing about artist or genre: the order is shuffled.
    cells = [
        (a, g, take)
        for a in range(len(ARTISTS))
        for g in range(len(GENRES))
        for take in range(TAKES)
    ]
    order = rng.permutation(n)
    clips = []
    for number, i in enumerate(order, start=1):
        a, g, take = cells[i]
        w1, w2 = divmod(int(picks[number - 1]), len(second))
        clips.append(
            PlannedClip(
                external_id=f"demo-{number:02d}",
                title=f"{first[w1]} {second[w2]}",
                artist_index=a,
                genre_index=g,
                take=take,
                duration=int(rng.integers(80, 101)) / 10,
                seed=(seed, a, g, take),
            )
        )
    return tuple(clips)


def _plan_queries(seed: int, clips: tuple[PlannedClip, ...]) -> tuple[str, ...]:
    """One query per artist, then more, each in another (artist, genre) cell."""
    rng = np.random.default_rng([seed, _QUERIES])
    queries = []
    for i in range(N_QUERIES):
        a, g = i % len(ARTISTS), i % len(GENRES)
        take = int(rng.integers(0, TAKES))
        clip = next(c for c in clips if (c.artist_index, c.genre_index, c.take) == (a, g, take))
        queries.append(clip.external_id)
    return tuple(queries)


def _plan_runs(
    seed: int, clips: tuple[PlannedClip, ...], queries: tuple[str, ...]
) -> tuple[PlannedRunEntry, ...]:
    rng = np.random.default_rng([seed, _RUNS])
    by_id = {c.external_id: c for c in clips}
    entries = []
    for system in SYSTEMS:
        for query_id in queries:
            query = by_id[query_id]
            candidates = [c for c in clips if c.external_id != query_id]  # never the query
            scores = np.array([similarity(query, c) for c in candidates])
            scores = scores + rng.normal(0.0, system.noise, size=len(scores))
            for rank, i in enumerate(np.argsort(-scores, kind="stable")[:DEPTH], start=1):
                entries.append(
                    PlannedRunEntry(
                        system=system.name,
                        query=query_id,
                        rank=rank,
                        clip=candidates[i].external_id,
                        score=round(float(scores[i]), 4),
                    )
                )
    return tuple(entries)


def _plan_judgments(
    seed: int,
    by_id: dict[str, PlannedClip],
    queries: tuple[str, ...],
    runs: tuple[PlannedRunEntry, ...],
) -> tuple[PlannedJudgment, ...]:
    """Judge the pool of all systems' lists for ``queries``, as MIREX assessors did."""
    rng = np.random.default_rng([seed, _JUDGMENTS])
    judgments = []
    for query_id in queries:
        pool = sorted({e.clip for e in runs if e.query == query_id})
        for clip_id in pool:
            true = 100 * similarity(by_id[query_id], by_id[clip_id])
            fine = int(np.clip(round(true + rng.normal(0.0, JUDGE_NOISE)), 0, 100))
            judgments.append(PlannedJudgment(query_id, clip_id, fine_to_broad(fine), fine))
    return tuple(judgments)


def _plan_assessor_work(
    seed: int,
    by_id: dict[str, PlannedClip],
    queries: tuple[str, ...],
    runs: tuple[PlannedRunEntry, ...],
) -> tuple[PlannedAssessorJudgment, ...]:
    """Each demo assessor judges every pooled clip of ``queries``, with their own noise."""
    rng = np.random.default_rng([seed, _ASSESSOR_WORK])
    judgments = []
    for assessor in range(ASSESSORS):
        for query_id in queries:
            for clip_id in sorted({e.clip for e in runs if e.query == query_id}):
                true = 100 * similarity(by_id[query_id], by_id[clip_id])
                fine = int(np.clip(round(true + rng.normal(0.0, ASSESSOR_NOISE)), 0, 100))
                judgments.append(
                    PlannedAssessorJudgment(assessor, query_id, clip_id, fine_to_broad(fine), fine)
                )
    return tuple(judgments)
