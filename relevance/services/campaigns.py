"""Relevance campaigns: creating them, handing out queries, taking them back, saving judgments.

Claims are conditional ``UPDATE``s checked by their row count (healthchecks'
``sendalerts`` habit), so two assessors asking at the same instant can never hold the
same slot, and the database's unique constraint refuses a second slot of one query to
one assessor. Nothing here trusts the caller about who may do what beyond the
``assessor`` argument: views check roles, services check ownership of the work.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from catalog.models import Collection, JudgmentSource, RelevanceJudgment, RunEntry
from catalog.models.collection import BROAD_LABELS, FINE_MAX
from catalog.services.sources import judgment_source_for_campaign
from evaluation.core.ordered_groups.rankings import DEFAULT_ALPHA
from listening.services.audio_served import (
    assignment_listening_problem,
    listening_claim_bounded,
    seconds_heard,
)
from listening.services.headphones import headphone_settings_errors
from relevance.models import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign
from relevance.selectors import headphones_cleared
from relevance.services.headphones import HeadphonesFirst
from relevance.services.lowcost import lowcost_default_measure, lowcost_settings_check
from relevance.services.ranking_groups import ranking_pool_check, ranking_source_create
from work import handoff

LISTEN_TOLERANCE = 0.25
"""Seconds of slack on the must-listen rule, for the browser's timer and the network."""


class AssignmentTakenBack(Exception):
    """The assignment is no longer the assessor's (taken back or never theirs)."""


class MustListenFirst(ValidationError):
    """A score came before the server had sent the campaign's must-listen time of audio."""


def relevance_campaign_create(
    *,
    collection: Collection,
    name: str,
    cutoff: int = 5,
    exclude_same_artist: bool = True,
    assessors_per_query: int = 1,
    queries_per_assessor: int | None = None,
    must_listen_seconds: int = 5,
    take_back_minutes: int = 60,
    headphone_check: bool = False,
    headphone_pass_mark: int = 5,
    assessors=(),
    mode: str = RelevanceCampaign.POOLED,
    lowcost_measure: str = "",
    lowcost_target: str = RelevanceCampaign.RELATIVE,
    lowcost_stop_at: float = 0.95,
    queries=None,
    grouping_rule: str = "all",
    grouping_alpha: float = DEFAULT_ALPHA,
    groups_source: str = "",
    groups_status: str = JudgmentSource.PILOT,
) -> RelevanceCampaign:
    """Create a campaign with its pool and one free assignment per query and slot.

    The pool of a query is the union of every system's top ``cutoff`` clips for it
    (MIREX's pooling, thesis §1.4), without the query clip itself and, when
    ``exclude_same_artist``, without clips by the query's artist (clips with no artist
    are never treated as the same artist). Queries with an empty pool get no slots.

    A low-cost campaign (``mode="lowcost"``) gets one free assignment per pool entry
    instead, and asks evaluation for its first estimates (which order the pairs); its
    measure, unless given, is :func:`~relevance.services.lowcost.lowcost_default_measure`
    (Broad for a collection judged on the Broad scale only).

    An expert-ranking campaign (``mode="ranking"``, issue 32) hands out whole queries
    like a pooled one; its assessors order the candidates, and the groups that follow by
    ``grouping_rule`` and ``grouping_alpha`` go into a new source of ordered groups,
    ``groups_source`` (default: the campaign's name), a pilot unless ``groups_status``
    says official (:func:`~relevance.services.ranking_groups.ranking_source_create`).

    ``queries`` (query ids of the collection), when given, limits the campaign to them.

    The demo seeding calls this too: ``relevance_campaign_create(collection=c,
    name="Demo judging", assessors=[assessor])``.
    """
    if mode not in dict(RelevanceCampaign.MODES):
        raise ValidationError({"mode": f"Unknown mode {mode!r}."})
    problems = headphone_settings_errors({"headphone_pass_mark": headphone_pass_mark})
    if problems:
        raise ValidationError(problems)
    lowcost = mode == RelevanceCampaign.LOWCOST
    if grouping_rule not in dict(RelevanceCampaign.GROUPING_RULES):
        raise ValidationError({"grouping_rule": f"Unknown rule {grouping_rule!r}."})
    if not 0.001 <= grouping_alpha <= 0.5:
        raise ValidationError({"grouping_alpha": "α is between 0.001 and 0.5."})
    lowcost_measure = lowcost_measure or lowcost_default_measure(
        collection=collection, cutoff=cutoff
    )
    if lowcost:
        lowcost_measure = lowcost_settings_check(
            cutoff=cutoff,
            assessors_per_query=assessors_per_query,
            queries_per_assessor=queries_per_assessor,
            measure=lowcost_measure,
            target=lowcost_target,
            stop_at=lowcost_stop_at,
        )
    with transaction.atomic():
        campaign = RelevanceCampaign.objects.create(
            collection=collection,
            name=name,
            cutoff=cutoff,
            exclude_same_artist=exclude_same_artist,
            assessors_per_query=assessors_per_query,
            queries_per_assessor=queries_per_assessor,
            must_listen_seconds=must_listen_seconds,
            take_back_minutes=take_back_minutes,
            headphone_check=headphone_check,
            headphone_pass_mark=headphone_pass_mark,
            mode=mode,
            lowcost_measure=lowcost_measure,
            lowcost_target=lowcost_target,
            lowcost_stop_at=lowcost_stop_at,
            grouping_rule=grouping_rule,
            grouping_alpha=grouping_alpha,
        )
        campaign.assessors.set(assessors)
        if campaign.is_ranking:
            ranking_source_create(campaign=campaign, name=groups_source, status=groups_status)
        else:
            judgment_source_for_campaign(campaign=campaign)
        entries = RunEntry.objects.filter(query__collection=collection, rank__lte=cutoff)
        if queries is not None:
            entries = entries.filter(query__in=queries)
        entries = entries.exclude(clip=F("query__clip")).select_related("clip", "query__clip")
        pool: dict[int, set[int]] = {}
        for entry in entries:
            query_artist = entry.query.clip.artist.strip().casefold()
            clip_artist = entry.clip.artist.strip().casefold()
            if exclude_same_artist and query_artist and query_artist == clip_artist:
                continue
            pool.setdefault(entry.query_id, set()).add(entry.clip_id)
        if campaign.is_ranking:
            ranking_pool_check(pool)
        PoolEntry.objects.bulk_create(
            PoolEntry(campaign=campaign, query_id=query_id, clip_id=clip_id)
            for query_id, clip_ids in sorted(pool.items())
            for clip_id in sorted(clip_ids)
        )
        if lowcost:
            Assignment.objects.bulk_create(
                Assignment(campaign=campaign, query_id=entry.query_id, pool_entry=entry, slot=0)
                for entry in campaign.pool.order_by("pk")
            )
            handoff.relevance_campaign_changed(campaign_id=campaign.pk)
        else:
            Assignment.objects.bulk_create(
                Assignment(campaign=campaign, query_id=query_id, slot=slot)
                for query_id in sorted(pool)
                for slot in range(assessors_per_query)
            )
    return campaign


def assignments_take_back(*, campaign: RelevanceCampaign, now=None) -> int:
    """Free the assignments nobody has touched for the campaign's take-back time.

    Untouched means no save at all (no score, no recorded listening). The conditional
    update races safely with the assessor's first save: whichever commits first wins,
    and a save that loses finds the assignment gone (:class:`AssignmentTakenBack`).
    Returns how many were taken back.
    """
    now = now or timezone.now()
    return Assignment.objects.filter(
        campaign=campaign,
        assessor__isnull=False,
        touched_at__isnull=True,
        completed_at__isnull=True,
        assigned_at__lt=now - campaign.take_back_after,
    ).update(assessor=None, assigned_at=None)


def assignment_claim(*, assignment_id: int, assessor, now=None) -> bool:
    """Take a free slot for ``assessor``; False when someone else (or the rule) got there first."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            claimed = Assignment.objects.filter(pk=assignment_id, assessor__isnull=True).update(
                assessor=assessor, assigned_at=now, touched_at=None, completed_at=None
            )
    except IntegrityError:
        return False  # this assessor already holds another slot of the same query
    return claimed == 1


def assignment_next(*, campaign: RelevanceCampaign, assessor, now=None) -> Assignment | None:
    """The assessor's work: their unfinished query, else a newly claimed one, else None.

    A query is offered only while it has a free slot (it is judged fewer times than the
    campaign's ``assessors_per_query``), never twice to one assessor, and not beyond
    the campaign's cap of queries per assessor. Queries with fewer assessors come first.
    A low-cost campaign hands out single pairs instead (:func:`_pair_next`).
    """
    if not campaign.is_open or not campaign.assessors.filter(pk=assessor.pk).exists():
        raise PermissionDenied("You are not an assessor of this campaign.")
    now = now or timezone.now()
    if campaign.is_lowcost:
        return _pair_next(campaign=campaign, assessor=assessor, now=now)
    mine = Assignment.objects.filter(campaign=campaign, assessor=assessor)
    unfinished = mine.filter(completed_at__isnull=True).order_by("assigned_at", "pk").first()
    if unfinished is not None:
        return unfinished
    if campaign.queries_per_assessor is not None and mine.count() >= campaign.queries_per_assessor:
        return None
    assignments_take_back(campaign=campaign, now=now)
    while True:
        free = list(
            Assignment.objects.filter(campaign=campaign, assessor__isnull=True)
            .exclude(query__in=mine.values("query"))
            .order_by("slot", "pk")
            .values_list("pk", flat=True)[:20]
        )
        if not free:
            return None
        for assignment_id in free:
            if assignment_claim(assignment_id=assignment_id, assessor=assessor, now=now):
                return Assignment.objects.get(pk=assignment_id)


def _pair_next(*, campaign: RelevanceCampaign, assessor, now) -> Assignment | None:
    """Low-cost "Get next": the assessor's unfinished pair, else the free pair to judge first.

    The order is the one the evaluation layer stored on the pool entries (``priority``,
    1 first: thesis §8.3 for the ranking, §8.4 for the scores), so this is a database
    read, not a model fit. Pairs are claimed like query slots, by a conditional
    ``UPDATE … WHERE assessor IS NULL`` checked by its row count: while one assessor
    holds a pair (its lease, until the campaign's take-back time passes with nothing
    saved) nobody else gets it.

    **When the stored order is stale** (judgments made since it was computed: the
    recompute is coalesced and runs a moment later, or the broker is down), the
    next-best free pair of that order is served. Judged pairs are never free, and a pair
    with a complete judgment from elsewhere (an import, another campaign) is skipped, so
    staleness only means the remaining pairs are not yet re-ranked with the newest
    judgments — the thesis itself re-estimates only every 20 judgments (§8.3). Before
    the first order exists, pairs go in pool order (query by query).
    """
    mine = Assignment.objects.filter(campaign=campaign, assessor=assessor)
    unfinished = mine.filter(completed_at__isnull=True).order_by("assigned_at", "pk").first()
    if unfinished is not None:
        return unfinished
    assignments_take_back(campaign=campaign, now=now)
    free = Assignment.objects.filter(
        campaign=campaign,
        pool_entry__isnull=False,
        assessor__isnull=True,
        completed_at__isnull=True,
    ).order_by(F("pool_entry__priority").asc(nulls_last=True), "pool_entry_id")
    judged_elsewhere: set[int] = set()
    while True:
        batch = list(
            free.exclude(pk__in=judged_elsewhere).values_list(
                "pk", "query_id", "pool_entry__clip_id"
            )[:20]
        )
        if not batch:
            return None
        complete = set(
            RelevanceJudgment.objects.filter(
                query_id__in={query for _, query, _ in batch},
                clip_id__in={clip for _, _, clip in batch},
                broad__isnull=False,
                fine__isnull=False,
            ).values_list("query_id", "clip_id")
        )
        for assignment_id, query_id, clip_id in batch:
            if (query_id, clip_id) in complete:
                judged_elsewhere.add(assignment_id)
            elif assignment_claim(assignment_id=assignment_id, assessor=assessor, now=now):
                return Assignment.objects.get(pk=assignment_id)


@dataclass(frozen=True)
class JudgmentSaved:
    """What the judging page needs back after a save."""

    broad: int | None
    fine: int | None
    listened_seconds: float
    judging_seconds: float
    plays: int
    heard_seconds: float = field(compare=False)
    """What the server vouches for (:func:`listening.services.audio_served.seconds_heard`); it
    grows with time, so two saves that change nothing still compare equal."""
    candidates_done: int
    candidates_total: int
    assignment_done: bool


def judgment_save(
    *,
    assignment: Assignment,
    assessor,
    pool_entry: PoolEntry,
    broad: int | None = None,
    fine: int | None = None,
    listened_seconds: float = 0.0,
    judging_seconds: float = 0.0,
    plays: int = 0,
    now=None,
) -> JudgmentSaved:
    """Record an assessor's scores and timings for one candidate of their assignment.

    Scores given replace earlier ones (earlier judgments can be changed); scores not
    given are left as they are. Timings are running totals and only ever go up, so
    repeating a request changes nothing (the endpoint is idempotent). A score needs the
    server to have sent the campaign's must-listen time of the candidate's audio for
    this assignment, enough of its listening window, and — one clip at a time — the
    must-listen time of every candidate scored so far since the assignment's first audio
    (:func:`listening.services.audio_served.assignment_listening_problem`). The browser's
    ``listened_seconds`` and ``plays`` are never believed for that; they are kept bounded
    by the time the server observed since the candidate's audio first reached the
    assessor, flagged when the page reported more
    (:func:`listening.services.audio_served.listening_claim_bounded`) — also when the score
    is refused (:class:`MustListenFirst` after the timings were saved). The assignment is
    done when every candidate has both a Broad and a Fine score.

    In a campaign that screens for headphones, nothing is saved for an assessor who has
    not passed the screen (:class:`~relevance.services.headphones.HeadphonesFirst`);
    what they judged before stays.
    """
    now = now or timezone.now()
    campaign = assignment.campaign
    if assessor is None or assessor.pk is None:
        raise AssignmentTakenBack("Only an assessor can save judgments.")
    if not campaign.assessors.filter(pk=assessor.pk).exists():
        raise AssignmentTakenBack("You no longer judge in this campaign.")
    if campaign.is_ranking:
        raise ValidationError("This campaign ranks candidates; it takes no scores.")
    if not headphones_cleared(campaign=campaign, assessor=assessor):
        raise HeadphonesFirst(
            "This campaign needs headphones: pass the headphone check before judging "
            "(reload the page to take it). Nothing was saved."
        )
    if (
        pool_entry.campaign_id != campaign.pk
        or pool_entry.query_id != assignment.query_id
        or assignment.pool_entry_id not in (None, pool_entry.pk)  # a low-cost pair
    ):
        raise ValidationError("That clip is not a candidate of this query.")
    if broad is not None and broad not in BROAD_LABELS:
        raise ValidationError("Broad must be 0, 1 or 2.")
    if fine is not None and not 0 <= fine <= FINE_MAX:
        raise ValidationError("Fine must be between 0 and 100.")
    with transaction.atomic():
        # Locks the assignment row: saves of one assignment run one at a time, and a
        # take-back that committed first makes this update match nothing.
        owned = Assignment.objects.filter(pk=assignment.pk, assessor=assessor).update(
            touched_at=now
        )
        if owned != 1:
            raise AssignmentTakenBack("This query is no longer assigned to you.")
        activity, _ = JudgmentActivity.objects.get_or_create(
            assignment=assignment, pool_entry=pool_entry
        )
        claim = listening_claim_bounded(
            assignment=assignment, clip=pool_entry.clip, listened_seconds=listened_seconds,
            plays=plays, now=now,
        )  # fmt: skip
        activity.listened_seconds = max(activity.listened_seconds, claim.listened_seconds)
        activity.judging_seconds = max(activity.judging_seconds, float(judging_seconds))
        activity.plays = max(activity.plays, claim.plays)
        activity.timing_impossible = activity.timing_impossible or claim.impossible
        judgment = activity.judgment
        heard = seconds_heard(assignment=assignment, clip=pool_entry.clip, now=now)
        problem, scoring = None, broad is not None or fine is not None
        if scoring:
            scored_before = (
                JudgmentActivity.objects.filter(assignment=assignment, judgment__isnull=False)
                .exclude(pool_entry=pool_entry)
                .count()
            )
            problem = assignment_listening_problem(
                assignment=assignment, clip=pool_entry.clip,
                must_listen_seconds=campaign.must_listen_seconds, scored_before=scored_before,
                now=now, tolerance=LISTEN_TOLERANCE,
            )  # fmt: skip
        if scoring and problem is None:
            if judgment is None:
                judgment, _ = RelevanceJudgment.objects.get_or_create(
                    query_id=assignment.query_id,
                    clip_id=pool_entry.clip_id,
                    assessor=assessor,
                    source=campaign.source,
                )
            if broad is not None:
                judgment.broad = broad
            if fine is not None:
                judgment.fine = fine
            judgment.save(update_fields=["broad", "fine", "updated_at"])
            activity.judgment = judgment
            if judgment.broad is not None and judgment.fine is not None:
                # A complete judgment counts in the collection's results.
                handoff.collection_data_changed(collection_id=campaign.collection_id)
        activity.save(
            update_fields=["listened_seconds", "judging_seconds", "plays", "timing_impossible",
                           "judgment", "updated_at"]
        )  # fmt: skip
        total = assignment.candidates().count()
        done = _complete_judgments(assignment).count()
        if done == total:
            Assignment.objects.filter(pk=assignment.pk, completed_at__isnull=True).update(
                completed_at=now
            )
    if problem:  # the score is refused; the timings, bounded (and flagged), are kept
        raise MustListenFirst(problem)
    return JudgmentSaved(
        broad=judgment.broad if judgment else None,
        fine=judgment.fine if judgment else None,
        listened_seconds=activity.listened_seconds,
        judging_seconds=activity.judging_seconds,
        plays=activity.plays,
        heard_seconds=heard,
        candidates_done=done,
        candidates_total=total,
        assignment_done=done == total,
    )


def _complete_judgments(assignment: Assignment):
    return RelevanceJudgment.objects.filter(
        query_id=assignment.query_id,
        assessor_id=assignment.assessor_id,
        source=assignment.campaign.source,
        clip_id__in=assignment.candidates().values("clip_id"),
    ).filter(~Q(broad=None), ~Q(fine=None))
