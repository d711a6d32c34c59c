"""What a collection still lacks for a leaderboard, in words an organiser acts on (the
results page and its "Recompute now" say it; issue 25)."""

from __future__ import annotations

from catalog.published import Collection, RunEntry
from evaluation.selectors import collection_judgments


def results_missing(*, collection: Collection, min_judged_queries: int) -> list[str]:
    """What the collection still lacks for a leaderboard, in words an organiser acts on
    (empty: nothing; the results are computed or on their way)."""
    systems = RunEntry.objects.filter(system__collection=collection).values("system").distinct()
    judged = (
        collection_judgments(collection=collection)
        .exclude(broad__isnull=True, fine__isnull=True)
        .values("query")
        .distinct()
        .count()
    )
    missing = []
    if not systems.exists():
        missing.append("no system has a ranked list yet: upload the systems' runs")
    if judged < min_judged_queries:
        have = "no query is judged" if not judged else f"{judged} query is judged"
        missing.append(
            f"{have} in an official judgment source, and a leaderboard needs at least "
            f"{min_judged_queries} judged queries: judge more queries (a relevance campaign) or "
            "upload judgments, and check that their source counts"
        )
    return missing
