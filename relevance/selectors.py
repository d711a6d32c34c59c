"""Reads of relevance campaigns: assessors' work, progress, headphone screens, agreement, qrels."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.shortcuts import get_object_or_404

from catalog import qrels
from catalog.models import Clip, RelevanceJudgment
from catalog.models.collection import BROAD_LABELS, FINE_MAX
from catalog.selectors import first_reachable, organised_by
from common.needs import Need
from common.roles import is_assessor
from evaluation.core import agreement
from listening.models import AssessorScreen, AudioServed, HeadphoneTrial
from listening.selectors import HeadphoneRates, median_or_none, window_covered
from relevance.models import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign


def organiser_relevance_campaigns(*, user, need: Need = "write") -> QuerySet[RelevanceCampaign]:
    """The relevance campaigns of the collections ``user`` reaches for ``need``
    (:func:`catalog.selectors.organised_by`, the one rule)."""
    campaigns = RelevanceCampaign.objects.select_related("collection")
    return organised_by(campaigns, user=user, path="collection", need=need)


def relevance_campaign_for_organiser(
    *, user, campaign_id: int, need: Need = "write"
) -> RelevanceCampaign:
    """The relevance campaign ``campaign_id`` if ``user`` may reach its collection; else 403/404."""
    return first_reachable(
        lambda n: organiser_relevance_campaigns(user=user, need=n),
        pk=campaign_id, need=need, what="relevance campaign",
    )  # fmt: skip


def assessors_of_organised_campaigns(*, user) -> Q:
    """Accounts judging in a relevance campaign of a collection ``user`` may change: people
    ``user`` may see and add to their own campaigns (:func:`people.selectors.organiser_people`,
    registered in :class:`relevance.apps.RelevanceConfig`)."""
    campaigns = organised_by(
        RelevanceCampaign.objects.all(), user=user, path="collection", need="write"
    )
    return Q(relevance_campaigns__in=campaigns.values("pk"))


def relevance_campaigns_for_organiser(*, user, need: Need = "write") -> QuerySet[RelevanceCampaign]:
    """The relevance campaigns ``user`` reaches for ``need``, with their numbers of queries
    and pool size."""
    return organiser_relevance_campaigns(user=user, need=need).annotate(
        query_count=Count("assignments__query", distinct=True),
        pool_size=Count("pool", distinct=True),
    )


def campaign_for_assessor(*, user, campaign_id: int, open_only: bool = False) -> RelevanceCampaign:
    """A campaign ``user`` judges in (an open one with ``open_only``), or 404: the
    assessor's side of the access rule, for every assessor page of a campaign."""
    campaigns = (
        user.relevance_campaigns.filter(is_open=True) if open_only else user.relevance_campaigns
    )
    return get_object_or_404(campaigns, pk=campaign_id)


def assignment_for_assessor(*, user, assignment_id: int) -> Assignment:
    """One of ``user``'s assignments in a campaign they still judge in, or 404 (an
    assessor removed from a campaign no longer reaches their assignments in it): the
    assessor's side of the access rule, for the judging page, its audio and its saves."""
    return get_object_or_404(
        Assignment.objects.select_related("campaign", "query__clip"),
        pk=assignment_id,
        assessor=user,
        campaign__assessors=user,
    )


def relevance_campaigns_for_assessor(*, user) -> list[dict]:
    """Open campaigns the assessor judges in, with their own progress and unfinished work."""
    rows = []
    for campaign in user.relevance_campaigns.filter(is_open=True).order_by("name"):
        mine = campaign.assignments.filter(assessor=user)
        rows.append(
            {
                "campaign": campaign,
                "done": mine.filter(completed_at__isnull=False).count(),
                "assigned": mine.count(),
                "current": mine.filter(completed_at__isnull=True).order_by("assigned_at").first(),
                "finished": list(
                    mine.filter(completed_at__isnull=False)
                    .select_related("query__clip")
                    .order_by("completed_at")
                ),
            }
        )
    return rows


def clip_in_assessor_assignments(*, user, clip: Clip) -> bool:
    """Whether the clip is the query or a candidate of one of the assessor's assignments
    (of a low-cost assignment, its one candidate only)."""
    candidates = PoolEntry.objects.filter(
        campaign=OuterRef("campaign"), query=OuterRef("query"), clip=clip
    )
    return (
        Assignment.objects.filter(assessor=user)
        .filter(
            Q(query__clip=clip)
            | Q(Exists(candidates), pool_entry__isnull=True)
            | Q(pool_entry__clip=clip)
        )
        .exists()
    )


def assessor_may_hear(*, user, clip: Clip) -> bool:
    """An assessor hears the query and candidates of their own assignments through the
    clip-wide URL (:func:`catalog.access.clip_audible_by`; registered in
    :class:`relevance.apps.RelevanceConfig`); their judging page uses per-assignment URLs
    (:func:`relevance.views.assessors.assignment_audio`), which record what was sent."""
    return is_assessor(user) and clip_in_assessor_assignments(user=user, clip=clip)


@dataclass(frozen=True)
class Candidate:
    """A candidate as the judging page shows it: no system, rank or score."""

    number: int
    pool_entry: PoolEntry
    clip: Clip
    broad: int | None
    fine: int | None
    listened_seconds: float
    judging_seconds: float
    plays: int

    @property
    def is_done(self) -> bool:
        return self.broad is not None and self.fine is not None


def assignment_candidates(*, assignment: Assignment) -> list[Candidate]:
    """The assignment's candidates in its own random order, with what is saved so far."""
    pool = list(assignment.candidates().select_related("clip"))
    judgments = {
        judgment.clip_id: judgment
        for judgment in RelevanceJudgment.objects.filter(
            query=assignment.query,
            assessor_id=assignment.assessor_id,
            source=assignment.campaign.source,
        )
    }
    activity = {row.pool_entry_id: row for row in assignment.activity.all()}
    candidates = []
    for number, entry in enumerate(assignment.candidate_order(pool), start=1):
        judgment = judgments.get(entry.clip_id)
        act = activity.get(entry.pk)
        candidates.append(
            Candidate(
                number=number,
                pool_entry=entry,
                clip=entry.clip,
                broad=judgment.broad if judgment else None,
                fine=judgment.fine if judgment else None,
                listened_seconds=act.listened_seconds if act else 0.0,
                judging_seconds=act.judging_seconds if act else 0.0,
                plays=act.plays if act else 0,
            )
        )
    return candidates


def campaign_judgments(*, campaign: RelevanceCampaign) -> QuerySet[RelevanceJudgment]:
    """The campaign's judgments in the order they were made, with their activity."""
    return (
        RelevanceJudgment.objects.filter(source=campaign.source)
        .select_related("query__clip", "clip", "assessor", "activity", "source")
        .order_by("created_at", "pk")
    )


def campaign_progress_by_query(*, campaign: RelevanceCampaign) -> list[dict]:
    pool_sizes = dict(
        campaign.pool.order_by().values("query").annotate(n=Count("pk")).values_list("query", "n")
    )
    assignments = campaign.assignments.select_related("query__clip").order_by(
        "query__clip__external_id", "slot"
    )
    by_query: dict[int, dict] = {}
    for assignment in assignments:
        row = by_query.setdefault(
            assignment.query_id,
            {
                "query": assignment.query,
                "pool_size": pool_sizes.get(assignment.query_id, 0),
                "slots": 0,
                "assigned": 0,
                "done": 0,
            },
        )
        row["slots"] += 1
        row["assigned"] += assignment.assessor_id is not None
        row["done"] += assignment.completed_at is not None
    rows = list(by_query.values())
    judged = (
        campaign_judgments(campaign=campaign)
        .exclude(broad=None)
        .exclude(fine=None)
        .order_by()
        .values("query")
        .annotate(n=Count("pk"))
    )
    counts = {row["query"]: row["n"] for row in judged}
    for row in rows:
        row["judgments"] = counts.get(row["query"].pk, 0)
        # A low-cost campaign has one slot per pair: each pair is judged once.
        row["expected"] = row["pool_size"] * (1 if campaign.is_lowcost else row["slots"])
    return rows


@dataclass(frozen=True)
class PairProgress:
    """How far a low-cost campaign has judged its pool."""

    pool: int
    judged: int
    """Pool pairs with a complete judgment, from this campaign or elsewhere."""
    by_campaign: int
    """Pairs this campaign's assessors finished."""
    in_progress: int
    """Pairs held by an assessor right now."""

    @property
    def share(self) -> float:
        return self.judged / self.pool if self.pool else 0.0


def campaign_pair_progress(*, campaign: RelevanceCampaign) -> PairProgress:
    """Judgments made out of a low-cost campaign's full pool."""
    complete = RelevanceJudgment.objects.filter(
        query_id=OuterRef("query_id"), clip_id=OuterRef("clip_id")
    ).filter(~Q(broad=None), ~Q(fine=None))
    pairs = campaign.assignments.filter(pool_entry__isnull=False)
    return PairProgress(
        pool=campaign.pool.count(),
        judged=campaign.pool.filter(Exists(complete)).count(),
        by_campaign=pairs.filter(completed_at__isnull=False).count(),
        in_progress=pairs.filter(assessor__isnull=False, completed_at__isnull=True).count(),
    )


def headphones_cleared(*, campaign: RelevanceCampaign, assessor) -> bool:
    """True when the campaign does not screen for headphones or the assessor passed."""
    return (
        not campaign.headphone_check
        or AssessorScreen.objects.filter(
            campaign=campaign, assessor=assessor, result=AssessorScreen.PASSED
        ).exists()
    )


def campaign_headphone_screens(
    *, campaign: RelevanceCampaign
) -> tuple[dict[int, AssessorScreen], HeadphoneRates]:
    """Each assessor's headphone screen in the campaign (by assessor id; ``has_trials``:
    a try is drawn) and the pass rate: of the assessors who finished a try, how many
    passed, and how many are taking one (a first try, or again)."""
    screens = {
        screen.assessor_id: screen
        for screen in AssessorScreen.objects.filter(campaign=campaign).annotate(
            has_trials=Exists(HeadphoneTrial.objects.filter(screen=OuterRef("pk")))
        )
    }
    rates = HeadphoneRates(
        taken=sum(s.tries > 0 for s in screens.values()),
        passed=sum(s.result == AssessorScreen.PASSED for s in screens.values()),
        in_progress=sum(s.result == "" and s.has_trials for s in screens.values()),
    )
    return screens, rates


def campaign_progress_by_assessor(*, campaign: RelevanceCampaign) -> list[dict]:
    """Each assessor's work, with the listening the server observed behind their
    judgments (``listening``: :func:`campaign_assessor_listening`,
    None before their first score) and their headphone screen (``screen``: None before
    they start one). The page's listening time and plays are kept bounded by what the
    server observed; ``timing_impossible`` counts the candidates whose page reported more
    (:func:`listening.services.audio_served.listening_claim_bounded`)."""
    listening = campaign_assessor_listening(campaign=campaign)
    screens, _ = campaign_headphone_screens(campaign=campaign)
    rows = []
    for assessor in campaign.assessors.order_by("username"):
        mine = campaign.assignments.filter(assessor=assessor)
        activity = JudgmentActivity.objects.filter(
            assignment__campaign=campaign, assignment__assessor=assessor
        ).aggregate(
            judging=Sum("judging_seconds"),
            listening=Sum("listened_seconds"),
            plays=Sum("plays"),
            impossible=Count("pk", filter=Q(timing_impossible=True)),
        )
        rows.append(
            {
                "assessor": assessor,
                "assigned": mine.count(),
                "done": mine.filter(completed_at__isnull=False).count(),
                "judgments": campaign_judgments(campaign=campaign)
                .filter(assessor=assessor)
                .exclude(broad=None)
                .exclude(fine=None)
                .count(),
                "judging_seconds": activity["judging"] or 0.0,
                "listened_seconds": activity["listening"] or 0.0,
                "plays": activity["plays"] or 0,
                "timing_impossible": activity["impossible"],
                "listening": listening.get(assessor.pk),
                "screen": screens.get(assessor.pk),
            }
        )
    return rows


@dataclass(frozen=True)
class Agreement:
    """Agreement among assessors on the pairs judged by two or more of them."""

    queries: int
    pairs: int
    alpha_fine: float
    alpha_broad: float
    rms_fine: float
    rms_broad: float


def campaign_agreement(*, campaign: RelevanceCampaign) -> Agreement:
    """Krippendorff's α (interval for Fine, ordinal for Broad) and thesis §7.4's RMS."""
    broad: dict[tuple[int, int], list[int]] = {}
    fine: dict[tuple[int, int], list[int]] = {}
    for judgment in RelevanceJudgment.objects.filter(source=campaign.source):
        key = (judgment.query_id, judgment.clip_id)
        if judgment.broad is not None:
            broad.setdefault(key, []).append(judgment.broad)
        if judgment.fine is not None:
            fine.setdefault(key, []).append(judgment.fine)
    shared = [
        key
        for key in set(broad) | set(fine)
        if max(len(broad.get(key, [])), len(fine.get(key, []))) >= 2
    ]
    return Agreement(
        queries=len({query for query, _ in shared}),
        pairs=len(shared),
        alpha_fine=agreement.krippendorff_alpha(fine.values(), level="interval"),
        alpha_broad=agreement.krippendorff_alpha(broad.values(), level="ordinal"),
        rms_fine=agreement.rms_difference(fine.values(), scale_max=FINE_MAX),
        rms_broad=agreement.rms_difference(broad.values(), scale_max=max(BROAD_LABELS)),
    )


def campaign_qrels(*, campaign: RelevanceCampaign, scale: str, policy: str) -> str:
    """The campaign's judgments as TREC qrels on ``scale``, consolidated by ``policy``."""
    if scale not in qrels.SCALES:
        raise ValueError(f"scale must be one of {', '.join(qrels.SCALES)}")
    values = (
        (judgment.query.clip.external_id, judgment.clip.external_id, getattr(judgment, scale))
        for judgment in campaign_judgments(campaign=campaign)
        if getattr(judgment, scale) is not None
    )
    lines = qrels.qrels_lines(values, policy=policy)
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class AssessorListening:
    """The listening behind one assessor's judgments in a relevance campaign.

    ``median_seconds``: for the n-th candidate scored in an assignment, the time from the
    assignment's first audio to that score divided by n — the listening each candidate
    had, one at a time, which the campaign's rule wants at least its must-listen time.
    """

    judged: int
    """Candidates with a score saved."""
    covered: int
    """Of those, how many had enough of the clip sent (the coverage rule)."""
    median_seconds: float | None


def campaign_assessor_listening(*, campaign: RelevanceCampaign) -> dict[int, AssessorListening]:
    """``{assessor id: AssessorListening}`` for the campaign's assessors who scored
    something, in two statements (the scored candidates, the audio sent)."""
    served: dict[tuple[int, int], tuple[int, int]] = {}
    first: dict[int, datetime] = {}
    sent = AudioServed.objects.filter(assignment__campaign=campaign).order_by()
    for assignment_id, clip_id, window, window_sent, sent_at in sent.values_list(
        "assignment_id", "clip_id", "window_bytes", "window_bytes_sent", "first_sent_at"
    ):
        served[(assignment_id, clip_id)] = (window, window_sent)
        first[assignment_id] = min(first.get(assignment_id, sent_at), sent_at)
    scored = (
        JudgmentActivity.objects.filter(assignment__campaign=campaign, judgment__isnull=False)
        .order_by("assignment_id", "judgment__created_at", "pk")
        .values_list(
            "assignment_id", "assignment__assessor_id", "pool_entry__clip_id",
            "judgment__created_at",
        )
    )  # fmt: skip
    judged: dict[int, int] = {}
    covered: dict[int, int] = {}
    seconds: dict[int, list[float]] = {}
    nth: dict[int, int] = {}
    for assignment_id, assessor_id, clip_id, scored_at in scored:
        if assessor_id is None:  # the account was deleted
            continue
        window, window_sent = served.get((assignment_id, clip_id), (0, 0))
        judged[assessor_id] = judged.get(assessor_id, 0) + 1
        covered[assessor_id] = covered.get(assessor_id, 0) + window_covered(
            window_bytes=window, window_bytes_sent=window_sent
        )
        nth[assignment_id] = nth.get(assignment_id, 0) + 1
        started = first.get(assignment_id)
        elapsed = max(0.0, (scored_at - started).total_seconds()) if started else 0.0
        seconds.setdefault(assessor_id, []).append(elapsed / nth[assignment_id])
    return {
        pk: AssessorListening(
            judged=n, covered=covered[pk], median_seconds=median_or_none(seconds[pk])
        )
        for pk, n in judged.items()
    }
