"""The service that writes the demo collection (``demo.plan``) to the database.

Beside the demo collection (every pool judged) it writes a **low-cost copy**: the same
clips (sharing their audio files), queries, systems and ranked lists, without any
judgment, with a low-cost relevance campaign for the demo assessors (thesis ch. 8): the
pairs come most informative first, and the organiser's campaign page shows the
estimated leaderboard becoming confident (CG_l@5 at 95% after about 25 of its 136 pairs
with the planned judgments), next to the ordinary leaderboard of the complete demo.
The demo collection's crowd study is :mod:`demo.crowd`'s.

``demo_seed`` only creates what is missing, so running it again changes nothing:
users, the collection, clips, queries, systems and judgments are looked up by their
natural keys; a system's ranked list for a query is written only when it has none;
a clip's audio is generated only when the clip has no file in storage. Existing rows
are never updated, so a demo that someone edited stays as they left it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction

from catalog.models import (
    Clip,
    Collection,
    JudgmentSource,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from common.roles import ASSESSOR, ORGANISER, grant_role
from crowd.models import PreferenceCampaign
from demo.crowd import PREFERENCE_CAMPAIGN_NAME, seed_preference_campaign
from demo.listening import demo_heard
from demo.plan import DEFAULT_SEED, DemoPlan, plan_demo
from demo.synth import ARTISTS, GENRES, render, wav_bytes
from people.models import Person
from relevance.models import RelevanceCampaign
from relevance.services.campaigns import assignment_claim, judgment_save, relevance_campaign_create
from relevance.services.settings import relevance_campaign_assessor_add, relevance_campaign_update
from work import handoff

COLLECTION_NAME = "Earshot demo"
JUDGMENT_SOURCE = "demo"
RELEVANCE_CAMPAIGN_NAME = "Demo judging"
LOWCOST_COLLECTION_NAME = "Earshot demo, low-cost"
LOWCOST_CAMPAIGN_NAME = "Demo low-cost judging"
DEMO_MEASURE = "CG(scale=fine)@5"
"""CG_l@5 on the Fine scale: the measure the crowd study's examples are spread over."""

ORGANISER_USERNAME = "organiser"
ORGANISER_PASSWORD = "earshot-organiser"
ASSESSOR_USERNAME = "assessor"
ASSESSOR_PASSWORD = "earshot-assessor"
SECOND_ASSESSOR_USERNAME = "assessor2"
SECOND_ASSESSOR_PASSWORD = "earshot-assessor2"
DEMO_LOGINS: tuple[tuple[str, str, str], ...] = (
    (ORGANISER, ORGANISER_USERNAME, ORGANISER_PASSWORD),
    (ASSESSOR, ASSESSOR_USERNAME, ASSESSOR_PASSWORD),
    (ASSESSOR, SECOND_ASSESSOR_USERNAME, SECOND_ASSESSOR_PASSWORD),
)
"""(role, username, password) of the demo accounts. For local use only."""

COLLECTION_DESCRIPTION = (
    f"Generated music: {len(ARTISTS)} artists × {len(GENRES)} genres "
    f"({', '.join(g.name for g in GENRES)}). An artist has one instrument, register and "
    "key; a genre has one tempo range and drum groove. Clips by the same artist should "
    "sound alike, clips of the same genre share a groove. Four systems of deliberately "
    "different quality (GoodEar > MidFi > Hunch > Shuffle); every query's pool is judged."
)


@dataclass(frozen=True)
class DemoCounts:
    users: int = 0
    clips: int = 0
    audio_files: int = 0
    queries: int = 0
    systems: int = 0
    run_entries: int = 0
    judgments: int = 0
    campaigns: int = 0
    assessor_judgments: int = 0
    lowcost_campaigns: int = 0
    """The low-cost copy's campaign (its collection's rows are not counted above)."""

    def items(self) -> list[tuple[str, int]]:
        return [(f.name, getattr(self, f.name)) for f in fields(self)]

    @property
    def anything(self) -> bool:
        return any(n for _, n in self.items())


@dataclass(frozen=True)
class DemoSummary:
    collection_id: int
    created: DemoCounts
    """What this run created (all zero when the demo was already complete)."""
    total: DemoCounts
    """What the demo holds now."""


def demo_seed(*, seed: int = DEFAULT_SEED, audio: bool = True) -> DemoSummary:
    """Create whatever is missing of the demo users and collection.

    ``seed`` decides the content of a new demo (clips, audio, lists, judgments);
    ``audio=False`` leaves the clips without files (fast, for evaluation-only use).
    """
    plan = plan_demo(seed=seed)
    with transaction.atomic():
        users_created, organiser = _seed_users()
        collection, _ = Collection.objects.get_or_create(
            owner=organiser,
            name=COLLECTION_NAME,
            defaults={"description": COLLECTION_DESCRIPTION},
        )
        clips_created, clips = _seed_clips(collection, plan)
        files_written = _seed_audio(clips, plan) if audio else 0
        queries_created, queries = _seed_queries(collection, plan, clips)
        systems_created, systems = _seed_systems(collection, plan)
        entries_created = _seed_runs(plan, clips, queries, systems)
        judgments_created = _seed_judgments(plan, collection, clips, queries)
        if entries_created or judgments_created:
            handoff.collection_data_changed(collection_id=collection.pk)  # results follow
        campaigns_created = _seed_relevance_campaign(collection)
        campaigns_created += seed_preference_campaign(collection, measure=DEMO_MEASURE)
        assessed = _seed_assessor_work(collection, plan)
        lowcost_created = _seed_lowcost_copy(organiser, plan, clips)

    created = DemoCounts(
        users=users_created,
        clips=clips_created,
        audio_files=files_written,
        queries=queries_created,
        systems=systems_created,
        run_entries=entries_created,
        judgments=judgments_created,
        campaigns=campaigns_created,
        assessor_judgments=assessed,
        lowcost_campaigns=lowcost_created,
    )
    total = DemoCounts(
        users=get_user_model().objects.filter(username__in=[u for _, u, _ in DEMO_LOGINS]).count(),
        clips=collection.clips.count(),
        audio_files=collection.clips.exclude(audio="").count(),
        queries=collection.queries.count(),
        systems=collection.systems.count(),
        run_entries=RunEntry.objects.filter(system__collection=collection).count(),
        judgments=RelevanceJudgment.objects.filter(
            query__collection=collection, assessor__isnull=True
        ).count(),
        campaigns=collection.relevance_campaigns.count() + collection.preference_campaigns.count(),
        assessor_judgments=RelevanceJudgment.objects.filter(
            query__collection=collection, assessor__isnull=False
        ).count(),
        lowcost_campaigns=RelevanceCampaign.objects.filter(
            collection__owner=organiser, collection__name=LOWCOST_COLLECTION_NAME
        ).count(),
    )
    return DemoSummary(collection_id=collection.pk, created=created, total=total)


def _seed_users():
    User = get_user_model()
    created_count = 0
    users = {}
    for role, username, password in DEMO_LOGINS:
        user, created = User.objects.get_or_create(username=username)
        if created or not user.has_usable_password():  # e.g. made by import_mirex
            user.set_password(password)
            user.save(update_fields=["password"])
            created_count += 1
        grant_role(user, role)
        users[role] = user
    organiser = users[ORGANISER]
    for role, username, _ in DEMO_LOGINS:  # the demo assessors are the demo organiser's people
        if role == ASSESSOR:
            Person.objects.get_or_create(
                user=User.objects.get(username=username), defaults={"created_by": organiser}
            )
    return created_count, organiser


def _demo_assessors() -> list:
    names = [username for role, username, _ in DEMO_LOGINS if role == ASSESSOR]
    users = get_user_model().objects.in_bulk(names, field_name="username")
    return [users[name] for name in names]


def _seed_relevance_campaign(collection: Collection) -> int:
    """The demo assessors' judging campaign over every system's top 5, two per query.

    Same-artist clips stay in the pool: in this small demo they are the most similar
    ones, and judging them is what shows the systems apart. A campaign from an older
    demo (one assessor per query) gets the second assessor and a second slot per query.
    """
    assessors = _demo_assessors()
    campaign = collection.relevance_campaigns.filter(name=RELEVANCE_CAMPAIGN_NAME).first()
    if campaign is None:
        if collection.relevance_campaigns.exists():
            return 0  # someone replaced the demo's campaign: leave theirs alone
        relevance_campaign_create(
            collection=collection,
            name=RELEVANCE_CAMPAIGN_NAME,
            exclude_same_artist=False,
            must_listen_seconds=3,
            assessors_per_query=len(assessors),
            assessors=assessors,
        )
        return 1
    if campaign.assessors_per_query < len(assessors):
        relevance_campaign_update(
            campaign=campaign, changes={"assessors_per_query": len(assessors)}
        )
    for assessor in assessors:
        relevance_campaign_assessor_add(campaign=campaign, assessor=assessor)
    return 0


def _seed_assessor_work(collection: Collection, plan: DemoPlan) -> int:
    """The demo assessors' judgments of the first queries, made through the judging service.

    Each assessor takes a slot of each query (as "Get next query" would) and saves every
    candidate with a listening time past the campaign's minimum, so their timings, the
    campaign's progress and the agreement between them all show. An assessor who holds
    the query already keeps what they did. Returns the judgments written.
    """
    campaign = collection.relevance_campaigns.filter(name=RELEVANCE_CAMPAIGN_NAME).first()
    if campaign is None:
        return 0
    assessors = _demo_assessors()
    queries = {q.clip.external_id: q for q in collection.queries.select_related("clip")}
    pool = {
        (entry.query_id, entry.clip.external_id): entry
        for entry in campaign.pool.select_related("clip")
    }
    written = 0
    for planned in plan.assessor_judgments:
        assessor, query = assessors[planned.assessor], queries[planned.query]
        entry = pool.get((query.pk, planned.clip))
        assignment = _demo_assignment(campaign, query, assessor)
        if entry is None or assignment is None:
            continue
        done = RelevanceJudgment.objects.filter(
            query=query, clip=entry.clip, assessor=assessor, source=campaign.source
        ).exists()
        if done:
            continue
        listened = entry.clip.duration or campaign.must_listen_seconds
        demo_heard(assignment, entry.clip, seconds=listened)
        judgment_save(
            assignment=assignment, assessor=assessor, pool_entry=entry, broad=planned.broad,
            fine=planned.fine, listened_seconds=listened, judging_seconds=12.0, plays=1,
        )  # fmt: skip
        written += 1
    return written


def _demo_assignment(campaign, query, assessor):
    """The assessor's slot of the query: the one they hold, else a free one they claim."""
    mine = campaign.assignments.filter(query=query, assessor=assessor).first()
    if mine is not None:
        return mine
    for free in campaign.assignments.filter(query=query, assessor__isnull=True).order_by("slot"):
        if assignment_claim(assignment_id=free.pk, assessor=assessor):
            return campaign.assignments.get(pk=free.pk)
    return None


def _seed_lowcost_copy(organiser, plan: DemoPlan, clips: dict[str, Clip]) -> int:
    """The low-cost copy of the demo and its campaign, if missing; 1 if the campaign is new.

    Its clips share the demo clips' audio files (no second rendering); its campaign
    leaves same-artist clips in the pool, as the demo's own campaign does.
    """
    collection, _ = Collection.objects.get_or_create(
        owner=organiser,
        name=LOWCOST_COLLECTION_NAME,
        defaults={
            "description": "The demo's clips, queries and systems without judgments, "
            "judged the low-cost way: one pair at a time, the most informative first, "
            "until the ranking is 95% confident (thesis ch. 8)."
        },
    )
    _, copies = _seed_clips(collection, plan)
    unlinked = [c for c in copies.values() if not c.audio.name and clips[c.external_id].audio]
    for copy in unlinked:
        copy.audio.name = clips[copy.external_id].audio.name
    Clip.objects.bulk_update(unlinked, ["audio"])
    _, queries = _seed_queries(collection, plan, copies)
    _, systems = _seed_systems(collection, plan)
    if _seed_runs(plan, copies, queries, systems):
        handoff.collection_data_changed(collection_id=collection.pk)
    if collection.relevance_campaigns.exists():
        return 0
    relevance_campaign_create(
        collection=collection,
        name=LOWCOST_CAMPAIGN_NAME,
        exclude_same_artist=False,
        must_listen_seconds=3,
        assessors=_demo_assessors(),
        mode=RelevanceCampaign.LOWCOST,
        lowcost_measure=DEMO_MEASURE,
        lowcost_target=RelevanceCampaign.RELATIVE,
        lowcost_stop_at=0.95,
    )
    return 1


def demo_prolific_id(worker: str) -> str:
    """A Prolific id for the demo's ``worker``: 24 hexadecimal characters made from the name,
    as Prolific's ids are (:mod:`crowd.platform_ids`).

    >>> demo_prolific_id("demo-worker-1") == demo_prolific_id("demo-worker-1") != demo_prolific_id("w2")
    True
    """
    return hashlib.sha256(worker.encode()).hexdigest()[:24]


def demo_task_link(*, worker: str) -> str:
    """The path of the demo's crowd task link, as a Prolific arrival of ``worker``."""
    campaign = PreferenceCampaign.objects.get(
        collection__name=COLLECTION_NAME, name=PREFERENCE_CAMPAIGN_NAME
    )
    return (
        f"{campaign.task_link()}?PROLIFIC_PID={demo_prolific_id(worker)}"
        f"&STUDY_ID=demo-study&SESSION_ID={worker}"
    )


def _seed_clips(collection: Collection, plan: DemoPlan) -> tuple[int, dict[str, Clip]]:
    existing = set(collection.clips.values_list("external_id", flat=True))
    missing = [
        Clip(
            collection=collection,
            external_id=c.external_id,
            title=c.title,
            artist=c.artist,
            genre=c.genre,
            duration=c.duration,
        )
        for c in plan.clips
        if c.external_id not in existing
    ]
    Clip.objects.bulk_create(missing)
    return len(missing), {c.external_id: c for c in collection.clips.all()}


def _seed_audio(clips: dict[str, Clip], plan: DemoPlan) -> int:
    """Give every demo clip without a file in storage its WAV; return how many were written.

    A file already at the clip's path is reused rather than generated again: for one
    seed its bytes are the same.
    """
    linked, written = [], 0
    for planned in plan.clips:
        clip = clips[planned.external_id]
        storage = clip.audio.storage
        if clip.audio.name and storage.exists(clip.audio.name):
            continue
        name = clip.audio.field.generate_filename(clip, f"{planned.external_id}.wav")
        if not storage.exists(name):
            name = storage.save(name, ContentFile(wav_bytes(render(planned.spec))))
            written += 1
        clip.audio.name = name
        linked.append(clip)
    Clip.objects.bulk_update(linked, ["audio"])
    return written


def _seed_queries(
    collection: Collection, plan: DemoPlan, clips: dict[str, Clip]
) -> tuple[int, dict[str, Query]]:
    existing = set(collection.queries.values_list("clip_id", flat=True))
    missing = [
        Query(collection=collection, clip=clips[q])
        for q in plan.queries
        if clips[q].pk not in existing
    ]
    Query.objects.bulk_create(missing)
    queries = collection.queries.select_related("clip")
    return len(missing), {q.clip.external_id: q for q in queries}


def _seed_systems(collection: Collection, plan: DemoPlan) -> tuple[int, dict[str, System]]:
    existing = set(collection.systems.values_list("name", flat=True))
    missing = [
        System(collection=collection, name=s.name, team=s.team)
        for s in plan.systems
        if s.name not in existing
    ]
    System.objects.bulk_create(missing)
    return len(missing), {s.name: s for s in collection.systems.all()}


def _seed_runs(
    plan: DemoPlan, clips: dict[str, Clip], queries: dict[str, Query], systems: dict[str, System]
) -> int:
    """Write each system's list for a query unless that system already has one for it."""
    has_list = set(
        RunEntry.objects.filter(system__in=systems.values())
        .values_list("system_id", "query_id")
        .distinct()
    )
    missing = [
        RunEntry(
            system=systems[e.system],
            query=queries[e.query],
            rank=e.rank,
            clip=clips[e.clip],
            score=e.score,
        )
        for e in plan.runs
        if (systems[e.system].pk, queries[e.query].pk) not in has_list
    ]
    RunEntry.objects.bulk_create(missing)
    return len(missing)


def _seed_judgments(plan: DemoPlan, collection: Collection, clips: dict, queries: dict) -> int:
    source, _ = JudgmentSource.objects.get_or_create(
        collection=collection, name=JUDGMENT_SOURCE, defaults={"kind": JudgmentSource.DEMO}
    )
    existing = set(
        RelevanceJudgment.objects.filter(
            query__in=queries.values(), source=source, assessor__isnull=True
        ).values_list("query_id", "clip_id")
    )
    missing = [
        RelevanceJudgment(
            query=queries[j.query],
            clip=clips[j.clip],
            source=source,
            broad=j.broad,
            fine=j.fine,
        )
        for j in plan.judgments
        if (queries[j.query].pk, clips[j.clip].pk) not in existing
    ]
    RelevanceJudgment.objects.bulk_create(missing)
    return len(missing)
