"""A small study cut from MIREX 2011's real data (systems and queries chosen), imported
as the organiser would, for leaderboards compared with the command line's."""

from __future__ import annotations

from pathlib import Path

from evaluation.models import ResultsConfig
from evaluation.services import collection_results_compute
from ingest.importers import mirex_import
from relevance.models import RelevanceCampaign
from tests.helpers.personas import make_user
from tests.helpers.shared_data import MIREX2011, require

MEASURE = "CG(scale=fine)@5"


SYSTEMS = ("0fd93c", "207f1d", "2b08eb")  # two the issue names, and a third


def rows(name: str) -> list[list[str]]:
    text = (MIREX2011 / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line.strip()]


def small_folder(
    tmp_path: Path,
    *,
    drop_judgment_of: str | None = None,
    depth: int | None = None,
    systems: tuple[str, ...] = SYSTEMS,
    n_queries: int = 2,
) -> Path:
    """MIREX 2011 cut to ``systems`` and their first ``n_queries`` queries;
    ``drop_judgment_of``: leave the judgment of that system's first retrieved document out;
    ``depth``: keep only the first ``depth`` documents of each ranked list (MIREX's have 5)."""
    require(MIREX2011)
    runs = [r for r in rows("runs.tsv") if r[0] in systems]
    queries = list(dict.fromkeys(r[1] for r in runs))[:n_queries]
    runs = [r for r in runs if r[1] in queries]
    if depth is not None:  # runs.tsv lists each (system, query)'s documents best first
        ranks: dict[tuple[str, str], int] = {}
        for r in runs:
            ranks[r[0], r[1]] = ranks.get((r[0], r[1]), 0) + 1
            r.append(ranks[r[0], r[1]])
        runs = [r[:3] for r in runs if r[3] <= depth]
    judgments = [r for r in rows("judgments.tsv") if r[0] in queries]
    if drop_judgment_of:
        first = next(r for r in runs if r[0] == drop_judgment_of)
        judgments = [r for r in judgments if (r[0], r[1]) != (first[1], first[2])]
    docs = {r[2] for r in runs} | {r[1] for r in judgments} | set(queries)
    metadata = [r for r in rows("metadata.tsv") if r[0] in docs]
    for name, lines in (
        ("runs.tsv", runs),
        ("judgments.tsv", judgments),
        ("metadata.tsv", metadata),
    ):
        (tmp_path / name).write_text("".join("\t".join(r) + "\n" for r in lines), encoding="utf-8")
    return tmp_path


def small_study(tmp_path, *, pool_filter: str | None = None, **options):
    owner = make_user("small-owner", "organiser")
    summary = mirex_import(owner=owner, folder=small_folder(tmp_path, **options), name="Small")
    collection = owner.collections.get(pk=summary.collection_id)
    if pool_filter:  # a relevance campaign leaving clips by the query's artist out of its pool
        RelevanceCampaign.objects.create(
            collection=collection, name=pool_filter, exclude_same_artist=True
        )
    ResultsConfig.objects.create(
        collection=collection, measures=[MEASURE], test="bootstrap", adjustment="holm", seed=1
    )
    collection_results_compute(target_id=collection.pk)
    return owner, collection


FOUR_SYSTEMS = ("0fd93c", "207f1d", "2b08eb", "3f1baf")


def four_systems_folder(tmp_path, *, queries: int = 12):
    """MIREX 2011 cut to FOUR_SYSTEMS and their first ``queries`` queries (the studies of
    issue 33: choosing a test, score distributions, nested reliability)."""
    return small_folder(tmp_path, systems=FOUR_SYSTEMS, n_queries=queries)
