"""Reads of the evaluation layer: judging's data as plain Python records for the core.

The numerical core (:mod:`evaluation.core`) never sees a model: these functions turn a
collection's judgments and runs into tuples and dicts keyed by external ids, the input
``evaluation.core.evaluate`` takes (``Qrels.from_records``, ``Run.from_ranked_lists``).

Consolidation policy
--------------------
A (query, clip) pair may have several judgments (one per assessor, or per imported
source). :func:`collection_qrels_records` consolidates them into one record per pair,
each scale separately, with :func:`evaluation.core.consolidation.consolidate` — the
function the qrels download uses too: ``"mean"`` (the default: the mean rounded to the
nearest level, halves up, so Broad 1 and 2 give 2 and Fine 40 and 61 give 51),
``"median"``, ``"first"`` or ``"latest"``, over the judgments ordered by last update
(a judgment with no Fine score does not erase an older Fine score).

Judgments that leave a scale empty are ignored on that scale; a pair with no value on
a scale gets ``None`` there, and the adapter to the core decides (unjudged on that scale).

Which judgments count
---------------------
Only the judgments of the collection's **official** judgment sources
(:class:`catalog.models.JudgmentSource`) are read: a pilot campaign's or a pilot
import's judgments are filtered out here, *before* consolidating, so they never enter a
consolidated level. :func:`collection_judgment_sources` says which sources were used and
which were left out; results store it beside the numbers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import CharField, F, Prefetch, QuerySet, Value
from django.http import Http404
from django.shortcuts import get_object_or_404

from catalog.published import Collection, JudgmentSource, RelevanceJudgment, RunEntry
from crowd.published import ExampleItem, PreferenceCampaign
from evaluation.core.consolidation import POLICIES as CONSOLIDATION_POLICIES
from evaluation.core.consolidation import consolidate
from evaluation.json_parts import JSONArrayLength, JSONArraySlice, JSONWithout, ordered_items

CONSOLIDATION_POLICY = "mean"
"""The policy leaderboards and mappings consolidate with (:func:`collection_qrels_records`)."""


class QrelsRecord(NamedTuple):
    """One consolidated judgment: ``(query, clip, broad, fine)`` by external id."""

    query: str
    clip: str
    broad: int | None
    fine: int | None


@dataclass(frozen=True)
class CollectionRuns:
    """Every system's ranked list for every query it answered, best clip first.

    ``rankings[system][query]`` is a list of clip external ids in rank order.
    ``systems`` keeps every system of the collection, in name order, including
    systems without any entry (their ``rankings`` entry is empty).
    """

    systems: tuple[str, ...]
    queries: tuple[str, ...]
    rankings: dict[str, dict[str, list[str]]]

    def depth(self) -> int:
        return max(
            (len(ranked) for by_query in self.rankings.values() for ranked in by_query.values()),
            default=0,
        )


def consolidate_judgments(
    judgments: Iterable[tuple[str, str, int | None, int | None]],
    *,
    policy: str = CONSOLIDATION_POLICY,
) -> list[QrelsRecord]:
    """Consolidate ``(query, clip, broad, fine)`` rows, oldest first, into one per pair.

    >>> consolidate_judgments([("q", "c", 1, 40), ("q", "c", 2, 61)])
    [QrelsRecord(query='q', clip='c', broad=2, fine=51)]
    >>> consolidate_judgments([("q", "c", 1, 40), ("q", "c", None, 61)], policy="latest")
    [QrelsRecord(query='q', clip='c', broad=1, fine=61)]
    """
    if policy not in CONSOLIDATION_POLICIES:
        raise ValueError(
            f"unknown consolidation policy {policy!r}; use one of {CONSOLIDATION_POLICIES}"
        )
    broads: dict[tuple[str, str], list[int]] = defaultdict(list)
    fines: dict[tuple[str, str], list[int]] = defaultdict(list)
    order: dict[tuple[str, str], None] = {}
    for query, clip, broad, fine in judgments:
        key = (query, clip)
        order.setdefault(key)
        if broad is not None:
            broads[key].append(int(broad))
        if fine is not None:
            fines[key].append(fine)
    records = []
    for key in order:
        b, f = broads.get(key), fines.get(key)
        broad = consolidate(b, policy=policy) if b else None
        fine = consolidate(f, policy=policy) if f else None
        records.append(QrelsRecord(key[0], key[1], broad, fine))
    return records


def collection_judgments(*, collection: Collection) -> QuerySet[RelevanceJudgment]:
    """The judgments that count: those of the collection's official sources."""
    return RelevanceJudgment.objects.filter(
        query__collection=collection, source__status=JudgmentSource.OFFICIAL
    )


def collection_judgment_sources(*, collection: Collection) -> dict:
    """Which judgment sources results use and which they leave out, by name, and the
    consolidation policy applied to the judgments used (stored with each result)."""
    used, left_out = [], []
    for name, status in collection.judgment_sources.order_by("name").values_list("name", "status"):
        (used if status == JudgmentSource.OFFICIAL else left_out).append(name)
    return {"used": used, "left_out": left_out, "consolidation": CONSOLIDATION_POLICY}


def collection_pool_filters(*, collection: Collection) -> list[str]:
    """Names of the collection's relevance campaigns whose pool leaves out clips by the
    query's artist: those clips stay unjudged, and results say so. None when no query's
    clip has an artist: the rule then leaves nothing out."""
    if not collection.queries.exclude(clip__artist="").exists():
        return []
    campaigns = collection.relevance_campaigns.filter(exclude_same_artist=True)
    return list(campaigns.order_by("name").values_list("name", flat=True))


def collection_qrels_records(
    *, collection: Collection, policy: str = CONSOLIDATION_POLICY
) -> list[QrelsRecord]:
    """The collection's counting judgments, one record per judged (query, clip), sorted by
    ids: judgments of pilot sources are left out before consolidating."""
    rows = (
        collection_judgments(collection=collection)
        .order_by("updated_at", "pk")
        .values_list("query__clip__external_id", "clip__external_id", "broad", "fine")
    )
    records = consolidate_judgments(rows.iterator(chunk_size=5000), policy=policy)
    return sorted(records, key=lambda r: (r.query, r.clip))


def collection_runs(*, collection: Collection) -> CollectionRuns:
    """Every system's ranked lists, from :class:`~catalog.models.RunEntry` rows by rank."""
    systems = tuple(collection.systems.order_by("name").values_list("name", flat=True))
    queries = tuple(
        collection.queries.order_by("clip__external_id").values_list("clip__external_id", flat=True)
    )
    rankings: dict[str, dict[str, list[str]]] = {name: {} for name in systems}
    rows = (
        RunEntry.objects.filter(system__collection=collection)
        .order_by("system__name", "query__clip__external_id", "rank")
        .values_list("system__name", "query__clip__external_id", "clip__external_id")
    )
    for system, query, clip in rows.iterator(chunk_size=5000):
        rankings[system].setdefault(query, []).append(clip)
    return CollectionRuns(systems=systems, queries=queries, rankings=rankings)


def collection_clip_metadata(*, collection: Collection) -> list[tuple[str, str, str]]:
    """``(clip, artist, genre)`` of every clip (queries are clips too), for the relevance
    models' features (thesis §7.2.3)."""
    return list(
        collection.clips.order_by("external_id").values_list("external_id", "artist", "genre")
    )


def collection_teams(*, collection: Collection) -> dict[str, str]:
    """``{system: team}`` of the systems whose team is known (fTEAM, thesis §7.2.3)."""
    return dict(collection.systems.exclude(team="").values_list("name", "team"))


def campaign_pool_pairs(*, campaign) -> list[tuple[int, str, str]]:
    """``(pool entry id, query, clip)`` by external ids of a relevance campaign's pool."""
    return list(
        campaign.pool.order_by("pk").values_list(
            "pk", "query__clip__external_id", "clip__external_id"
        )
    )


# --- Stored results -------------------------------------------------------------------
# The collection or campaign given has passed the access rule already
# (catalog.selectors.access); a missing result is a 404. Pages read only what they show,
# through the unique (collection, measure) and (leaderboard, …) indexes, so each page
# makes the same number of queries and reads a bounded amount whatever the collection's
# size; the whole payloads are for the exports and the API.


def leaderboard_for(*, collection: Collection, measure: str):
    """The collection's stored leaderboard of ``measure``, whole payload included; else 404."""
    return get_object_or_404(collection.leaderboards, measure=measure)


def leaderboard_summary_for(
    *, collection: Collection, measure: str, significance: bool = False, table: bool = False
):
    """The leaderboard of ``measure`` without its payload: ``summary`` (and ``significance``,
    or the stored table of systems, if asked) as :mod:`evaluation.services.leaderboard_store`
    split them; else 404."""
    fields = ["id", "collection_id", "measure", "computed_at", "summary"]
    if significance:
        fields.append("significance")
    if table:
        fields += ["table", "table_key"]
    return get_object_or_404(collection.leaderboards.only(*fields), measure=measure)


def leaderboard_system_for(*, collection: Collection, measure: str, system: str):
    """One system of the leaderboard of ``measure`` (its row, per-query scores,
    distributions), with the leaderboard's measure and time; else 404."""
    from evaluation.models import LeaderboardSystem

    rows = LeaderboardSystem.objects.select_related("leaderboard").only(
        "system", "rank", "row", "per_query", "distributions",
        "leaderboard__id", "leaderboard__collection_id", "leaderboard__measure",
        "leaderboard__computed_at",
    )  # fmt: skip
    return get_object_or_404(
        rows, leaderboard__collection=collection, leaderboard__measure=measure, system=system
    )


def leaderboard_pairs(*, leaderboard) -> QuerySet:
    """The pairs of a leaderboard in the payload's order, as their stored dicts (to page)."""
    return leaderboard.pairs.order_by("position").values_list("data", flat=True)


def reliability_study_for(*, collection: Collection, measure: str):
    """The collection's stored G-study and D-study of ``measure``; 404 if there is none."""
    return get_object_or_404(collection.reliability_studies, measure=measure)


def collection_results_overview(*, collection: Collection) -> dict:
    """What the overview lists: each leaderboard, estimated leaderboard, study and campaign
    mapping by name, with the few numbers it shows read out of the payloads by the database."""
    from evaluation.models import ReliabilityStudy, SatisfactionMapping

    mappings = (
        SatisfactionMapping.objects.order_by("measure")
        .only("id", "campaign_id", "measure")
        .annotate(n_answers=F("payload__n_answers"))
    )
    lists = collection.preference_campaigns.filter(kind=PreferenceCampaign.LISTS)
    campaigns = lists.order_by("name").prefetch_related(
        Prefetch("satisfaction_mappings", queryset=mappings)
    )
    studies = (
        ReliabilityStudy.objects.filter(collection=collection)
        .order_by("measure")
        .values("measure", "computed_at")
        .annotate(
            erho2=F("payload__erho2"), phi=F("payload__phi"), n_queries=F("payload__n_queries")
        )
    )
    return {
        "leaderboards": list(
            collection.leaderboards.order_by("measure").values("measure", "computed_at")
        ),
        "estimated": list(
            collection.estimated_leaderboards.order_by("measure").values_list("measure", flat=True)
        ),
        "studies": list(studies),
        "campaigns": campaigns,
    }


def estimated_leaderboard_for(*, collection: Collection, measure: str):
    """The collection's stored estimated leaderboard of ``measure``; 404 if there is none.

    Read without its pairs of systems, which grow with the square of the systems: the
    row's ``payload`` is not loaded, ``head`` is the payload without ``differences`` and
    ``n_pairs`` counts them; :class:`EstimatedPairs` reads a page of them.
    """
    boards = collection.estimated_leaderboards.defer("payload").annotate(
        head=JSONWithout("payload", "differences"),
        n_pairs=JSONArrayLength("payload", "differences"),
    )
    return get_object_or_404(boards, measure=measure)


class EstimatedPairs:
    """An estimated leaderboard's pairs of systems (``payload["differences"]``, most
    confident first) as a sequence a :class:`~django.core.paginator.Paginator` pages:
    its length is the stored count, and a slice is one query reading only that slice."""

    def __init__(self, board) -> None:
        self.board_id, self.total = board.pk, board.n_pairs or 0

    def count(self) -> int:
        return self.total

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, index: slice) -> list[dict]:
        start, stop, _ = index.indices(self.total)
        if stop <= start:
            return []
        from evaluation.models import EstimatedLeaderboard

        part = (
            EstimatedLeaderboard.objects.filter(pk=self.board_id)
            .annotate(part=JSONArraySlice("payload", "differences", start, stop))
            .values_list("part", flat=True)
            .first()
        )
        return ordered_items(part)


def campaign_estimate_for(*, campaign):
    """A low-cost relevance campaign's stored estimates, or ``None`` before the first."""
    from evaluation.models import CampaignEstimate

    return CampaignEstimate.objects.filter(campaign=campaign).first()


def lowcost_recompute(*, campaign) -> dict:
    """A low-cost campaign's estimates recompute state (idle if none was ever requested)."""
    from evaluation.models import Recompute

    row = Recompute.objects.filter(kind="lowcost", target_id=campaign.pk).first()
    return (row or Recompute(kind="lowcost", target_id=campaign.pk)).to_dict()


def campaign_of_collection(*, collection: Collection, campaign_id: int):
    """A preference campaign of the collection; 404 for another collection's."""
    return get_object_or_404(collection.preference_campaigns, pk=campaign_id)


def campaign_mapping(*, campaign, measure: str | None):
    """The campaign's stored mapping of ``measure`` (its first by measure when ``None``); else 404."""
    mappings = campaign.satisfaction_mappings.select_related("campaign")
    if measure is not None:
        return get_object_or_404(mappings, measure=measure)
    first = mappings.order_by("measure").first()
    if first is None:
        raise Http404("This campaign has no mapping yet.")
    return first


def collection_recompute(*, collection: Collection) -> dict:
    """The collection's recompute state (an idle one if none was ever requested)."""
    from evaluation.models import Recompute

    row = Recompute.objects.filter(kind="collection", target_id=collection.pk).first()
    return (row or Recompute(kind="collection", target_id=collection.pk)).to_dict()


def collection_results_status(*, collection: Collection) -> dict:
    """What a results page polls: the recompute and when each result was computed (the
    leaderboards' and the reliability studies' times in one statement: every open
    results tab asks every few seconds, issue 14)."""
    times = (
        collection.leaderboards.order_by()
        .values_list(Value("leaderboards", output_field=CharField()), "measure", "computed_at")
        .union(
            collection.reliability_studies.order_by().values_list(
                Value("reliability", output_field=CharField()), "measure", "computed_at"
            ),
            all=True,
        )
    )
    status: dict = {"recompute": collection_recompute(collection=collection)}
    status["leaderboards"], status["reliability"] = [], []
    for part, measure, computed_at in sorted(times, key=lambda row: row[:2]):
        status[part].append({"measure": measure, "computed_at": computed_at.isoformat()})
    return status


# --- Preference campaigns and their mappings -------------------------------------------


def example_lists(*, example_ids: Iterable[int]) -> dict[int, dict[str, list[str]]]:
    """``{example id: {"a": [clip id, ...], "b": [...]}}`` in rank order, by external ids."""
    lists: dict[int, dict[str, list[str]]] = {pk: {"a": [], "b": []} for pk in example_ids}
    rows = (
        ExampleItem.objects.filter(example_id__in=list(lists))
        .order_by("example_id", "side", "rank")
        .values_list("example_id", "side", "clip__external_id")
    )
    for example_id, side, clip in rows.iterator(chunk_size=5000):
        lists[example_id][side].append(clip)
    return lists


def campaign_recompute(*, campaign) -> dict:
    """The campaign's (mapping) recompute state, idle if none was ever requested."""
    from evaluation.models import Recompute

    row = Recompute.objects.filter(kind="campaign", target_id=campaign.pk).first()
    return (row or Recompute(kind="campaign", target_id=campaign.pk)).to_dict()


def collection_campaign_mappings(*, collection: Collection) -> dict[str, dict]:
    """The mapping leaderboards use per measure: a campaign's own fitted mapping.

    When several campaigns of the collection have a fitted mapping for a measure, the
    one with the most lists labelled satisfactory or not wins (ties: the latest).
    Measures without one fall back to the published Table 4.3 mapping (see
    :func:`evaluation.services.leaderboards.collection_results_store`).
    """
    from evaluation.models import SatisfactionMapping

    chosen: dict[str, tuple[int, dict]] = {}
    rows = (
        SatisfactionMapping.objects.filter(campaign__collection=collection)
        .select_related("campaign")
        .order_by("computed_at", "pk")
    )
    for row in rows:
        fit = row.payload.get("fit")
        if not fit:
            continue
        n = int(row.payload.get("n_lists") or 0)
        if row.measure in chosen and chosen[row.measure][0] > n:
            continue
        chosen[row.measure] = (
            n,
            {
                "source": "campaign",
                "label": (
                    f"the campaign's own mapping, measured by “{row.campaign.name}” "
                    f"({n} lists judged satisfactory or not, R² = {fit['r_squared']:.3f})"
                    if fit.get("r_squared") is not None
                    else f"the campaign's own mapping, measured by “{row.campaign.name}” "
                    f"({n} lists judged satisfactory or not)"
                ),
                "coefficients": fit["coefficients"],
                "campaign_id": row.campaign_id,
                "computed_at": row.computed_at.isoformat(),
            },
        )
    return {measure: mapping for measure, (_, mapping) in chosen.items()}
