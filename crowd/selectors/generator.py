"""What the example generator's page shows before it runs: the (measure, bin) coverage.

For each chosen measure and each |Δλ| bin (thesis §3.2.1): how many of the campaign's
examples already fall in it (from the λ stored with generated examples), and whether
it can be filled at all (:func:`evaluation.core.example_generator.reachable_bins`).
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.models import Query, RelevanceJudgment
from crowd.models import PreferenceCampaign
from evaluation.core.example_generator import N_BINS, bin_label, bin_of, reachable_bins
from evaluation.core.names import parse_measure

FILLED, SHORT, UNREACHABLE, NOT_CHOSEN = "filled", "short", "unreachable", "not chosen"


@dataclass(frozen=True)
class Cell:
    bin: int
    label: str
    examples: int
    status: str  # FILLED, SHORT, UNREACHABLE or NOT_CHOSEN


@dataclass(frozen=True)
class MeasureCoverage:
    measure: str
    cells: list[Cell]
    highest_bin: int
    """The highest bin any pair of lists can reach (-1: no query has k judged clips)."""


def generator_judgments(
    *, campaign: PreferenceCampaign
) -> tuple[dict[str, dict[str, float]], dict[int, Query]]:
    """What the generator searches: ``{query id: {clip id: mean Fine}}`` (by primary keys,
    as text), without a query's own clip; and the collection's queries by primary key."""
    collection = campaign.collection
    sums: dict[tuple[int, int], list[float]] = {}
    rows = RelevanceJudgment.objects.filter(query__collection=collection, fine__isnull=False)
    for query_id, clip_id, fine in rows.values_list("query_id", "clip_id", "fine"):
        sums.setdefault((query_id, clip_id), []).append(fine)
    queries = {q.pk: q for q in collection.queries.all()}
    # A query's own clip is never one of its results.
    own = {q.pk: q.clip_id for q in queries.values()}
    judgments: dict[str, dict[str, float]] = {}
    for (query_id, clip_id), values in sums.items():
        if clip_id != own[query_id]:
            judgments.setdefault(str(query_id), {})[str(clip_id)] = sum(values) / len(values)
    return judgments, queries


def generator_coverage(
    *, campaign: PreferenceCampaign, measures: list[str], bins: list[int], per_bin: int
) -> list[MeasureCoverage]:
    """One row per measure, one cell per bin: examples so far and what can still be done."""
    judgments, _ = generator_judgments(campaign=campaign)
    highest = reachable_bins(judgments, measures, k=campaign.list_length)
    labels = {parse_measure(m).label: m for m in measures}
    counts = {m: [0] * N_BINS for m in measures}
    for scores in campaign.examples.exclude(scores={}).values_list("scores", flat=True):
        for name, pair in scores.items():
            measure = labels.get(parse_measure(name).label)
            if measure is not None and pair and len(pair) == 2:
                counts[measure][bin_of(pair[0] - pair[1])] += 1
    rows = []
    for m in measures:
        cells = []
        for b in range(N_BINS):
            n = counts[m][b]
            if b > highest[m]:
                status = UNREACHABLE
            elif b not in bins:
                status = NOT_CHOSEN
            else:
                status = FILLED if n >= per_bin else SHORT
            cells.append(Cell(bin=b, label=bin_label(b), examples=n, status=status))
        rows.append(MeasureCoverage(measure=m, cells=cells, highest_bin=highest[m]))
    return rows
