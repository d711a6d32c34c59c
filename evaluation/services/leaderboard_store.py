"""Store a leaderboard as its pages read it: the whole payload, and the parts each page shows.

A leaderboard's payload (:func:`evaluation.services.leaderboards.leaderboard_payload`)
grows with systems × queries (per-query scores and P(Sat)) and with systems² (pairs):
100 systems × 1,000 queries make about 5 MB of JSON. The exports and the API give it
whole; a page shows a small part of it. So storing a leaderboard also splits it
(:func:`leaderboard_parts`), once per recompute, into

- ``summary``: the payload without its big keys (:data:`BIG_KEYS`), with ``n_systems``
  and ``n_pairs`` — what the leaderboard page shows;
- ``significance``: the ranked systems and the matrix of adjusted p-values of every
  pair — the significance page's heat map;
- one :class:`~evaluation.models.LeaderboardSystem` per system: its row, its per-query
  scores and P(Sat), and their distributions over the 10 bins of [0, 1] of thesis §3.2.1 —
  the system page;
- one :class:`~evaluation.models.LeaderboardPair` per pair, numbered — the significance
  page's table, a page of pairs at a time;
- ``table``: the leaderboard page's table of systems, its numbers formatted once
  (:mod:`evaluation.leaderboard_table`, issue 34);

so that every page reads a bounded amount through indexed lookups, whatever the size of
the collection. Nothing here computes a result: it rearranges and counts stored numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
from django.db import transaction

from catalog.published import Collection
from evaluation.leaderboard_table import table_made
from evaluation.models import Leaderboard, LeaderboardPair, LeaderboardSystem

BIG_KEYS = ("systems", "queries", "scores", "psat", "pairs")
"""Payload keys that grow with the collection and stay out of the summary."""

DISTRIBUTION_BINS = 10


@dataclass(frozen=True)
class LeaderboardParts:
    summary: dict
    significance: dict
    systems: list[dict]  # {system, rank, row, per_query, distributions}
    pairs: list[dict]  # the payload's pairs, in its order


def distribution(values) -> list[list[float | int]]:
    """``[[low, high, count], …]``: how many of ``values`` fall in each of the 10 bins
    [0, 0.1), [0.1, 0.2), …, [0.9, 1] of thesis §3.2.1 (missing values and values outside
    [0, 1] are not counted). A value within 10⁻⁹ of a bin's edge counts as on the edge,
    so that 0.6 is in [0.6, 0.7) although the double nearest 0.6 is below 6/10.

    >>> distribution([0.05, 0.5, 0.6, 0.65, 1.0, None, 1.5])[5:]
    [[0.5, 0.6, 1], [0.6, 0.7, 2], [0.7, 0.8, 0], [0.8, 0.9, 0], [0.9, 1.0, 1]]
    """
    data = np.array([np.nan if v is None else v for v in values], dtype=float)
    data = data[(data >= 0.0) & (data <= 1.0)]
    index = np.floor(np.round(data * DISTRIBUTION_BINS, 9)).astype(int)
    counts = np.bincount(np.minimum(index, DISTRIBUTION_BINS - 1), minlength=DISTRIBUTION_BINS)
    return [
        [k / DISTRIBUTION_BINS, (k + 1) / DISTRIBUTION_BINS, int(n)] for k, n in enumerate(counts)
    ]


def leaderboard_parts(payload: dict) -> LeaderboardParts:
    """Split a leaderboard payload into what each page reads (see the module)."""
    systems = payload["systems"]
    psat = payload.get("psat")
    rows = {row["system"]: row for row in payload["rows"]}
    per_system = []
    for i, system in enumerate(systems):
        scores = payload["scores"][i]
        sat = psat[i] if psat else None
        distributions = {"lambda": distribution(scores)}
        if sat is not None:
            distributions["psat"] = distribution(sat)
        per_system.append(
            {
                "system": system,
                "rank": rows[system]["rank"],
                "row": rows[system],
                "per_query": [
                    [query, scores[j], sat[j] if sat is not None else None]
                    for j, query in enumerate(payload["queries"])
                ],
                "distributions": distributions,
            }
        )
    order = {name: i for i, name in enumerate(systems)}
    matrix: list[list[float | None]] = [[None] * len(systems) for _ in systems]
    for pair in payload["pairs"]:
        i, j = order[pair["a"]], order[pair["b"]]
        matrix[i][j] = matrix[j][i] = pair["p_adjusted"]
    summary = {key: value for key, value in payload.items() if key not in BIG_KEYS}
    summary.update(n_systems=len(systems), n_pairs=len(payload["pairs"]))
    return LeaderboardParts(
        summary=summary,
        significance={"systems": list(systems), "p_adjusted": matrix},
        systems=per_system,
        pairs=list(payload["pairs"]),
    )


def leaderboard_parts_create(
    *, leaderboard, parts: LeaderboardParts, systems=LeaderboardSystem, pairs=LeaderboardPair
) -> None:
    """Create the rows of ``parts`` for ``leaderboard`` (``systems`` and ``pairs`` are the
    model classes: the historical ones in a migration)."""
    systems.objects.bulk_create(
        [systems(leaderboard=leaderboard, **system) for system in parts.systems], batch_size=500
    )
    pairs.objects.bulk_create(
        [
            pairs(leaderboard=leaderboard, position=n, data=pair)
            for n, pair in enumerate(parts.pairs)
        ],
        batch_size=1000,
    )


def leaderboard_store(
    *, collection: Collection, measure: str, payload: dict, computed_at: datetime
) -> Leaderboard:
    """Store (overwriting) the leaderboard of ``measure`` and the parts its pages read,
    with the leaderboard page's table of systems (:mod:`evaluation.leaderboard_table`)."""
    parts = leaderboard_parts(payload)
    with transaction.atomic():
        table, table_key = table_made(
            collection, measure=measure, summary=parts.summary, computed_at=computed_at
        )
        board, _ = Leaderboard.objects.update_or_create(
            collection=collection,
            measure=measure,
            defaults={
                "payload": payload,
                "summary": parts.summary,
                "significance": parts.significance,
                "computed_at": computed_at,
                "table": table,
                "table_key": table_key,
            },
        )
        board.systems.all().delete()
        board.pairs.all().delete()
        leaderboard_parts_create(leaderboard=board, parts=parts)
    return board
