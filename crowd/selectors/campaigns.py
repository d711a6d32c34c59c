"""Reads for the crowd pages: what a worker sees, and what an organiser sees.

The worker-side selectors never touch trap questions: a task is read the same way
(same statements, same shape) whether its example is a trap question or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet
from django.shortcuts import get_object_or_404

from catalog.models import Clip
from common import sql
from common.needs import Need
from common.validation import parse_id
from crowd.models import Answer, Example, PreferenceCampaign, PreferenceTask, TrapQuestion, Worker
from crowd.selectors.access import organiser_campaigns

# --- worker side ----------------------------------------------------------------------


@dataclass(frozen=True)
class ShownClip:
    """A clip as the worker sees it: a place on the page, never the clip itself.

    ``slot`` is ``"query"`` or the list as shown and the rank (``"a1"``…, ``"b5"``); the
    task's audio URL for it is made per task (:func:`crowd.views.tasks.task_audio`),
    so nothing on the page names a clip across tasks or workers.
    """

    slot: str
    has_audio: bool


@dataclass(frozen=True)
class ShownTask:
    """A task as the worker sees it: lists already mapped to the sides A and B."""

    key: str
    position: int
    is_quiz: bool
    is_practice: bool
    query: ShownClip
    list_a: list[ShownClip]
    list_b: list[ShownClip]


@dataclass(frozen=True)
class ExampleClips:
    """The clips of an example as stored: the query's, and lists a and b in rank order.

    Each clip is ``(clip id, has audio)``. ``heard``: the clips whose listening window the
    server sent enough of for a task (``EARSHOT_LISTEN_COVERAGE``,
    :mod:`listening.services.audio_served`), and ``first_audio_at`` when it first sent any audio
    for it, when asked for (:func:`example_clips` with ``task_id``).
    """

    query: tuple[int, bool]
    lists: dict[str, list[tuple[int, bool]]]
    heard: frozenset[int] = frozenset()
    first_audio_at: datetime | None = None
    durations: dict[int, float | None] = field(default_factory=dict)
    """Seconds of each clip, where known (``Clip.duration``)."""

    def shown(self, swapped: bool) -> dict[str, list[tuple[int, bool]]]:
        """The lists as a task shows them: A and B are the stored b and a when swapped."""
        return {"a": self.lists["b"], "b": self.lists["a"]} if swapped else self.lists


_HEARD = (
    "EXISTS (SELECT 1 FROM judging_audioserved s WHERE s.task_id = %s AND s.clip_id = {clip} "
    "AND s.window_bytes_sent > 0 AND s.window_bytes_sent >= s.window_bytes * %s)"
)
_FIRST_AUDIO = "(SELECT MIN(s.first_sent_at) FROM judging_audioserved s WHERE s.task_id = %s)"


def example_clips(example_id: int, *, task_id: int | None = None) -> ExampleClips:
    """The query and both lists of an example, in one statement (issue 14); with
    ``task_id``, also which of them the server sent audio of for that task."""
    heard = (
        f"{_HEARD.format(clip='i.clip_id')}, {_HEARD.format(clip='q.clip_id')}, {_FIRST_AUDIO}"
        if task_id is not None
        else "0, 0, NULL"
    )
    coverage = settings.EARSHOT_LISTEN_COVERAGE
    rows = sql.rows(
        f"SELECT i.side, i.clip_id, c.audio, q.clip_id, qc.audio, c.duration, qc.duration, {heard} "
        "FROM judging_exampleitem i "
        "INNER JOIN judging_example e ON e.id = i.example_id "
        "INNER JOIN judging_clip c ON c.id = i.clip_id "
        "INNER JOIN judging_query q ON q.id = e.query_id "
        "INNER JOIN judging_clip qc ON qc.id = q.clip_id "
        "WHERE i.example_id = %s ORDER BY i.side, i.rank",
        (
            *([task_id, coverage, task_id, coverage, task_id] if task_id is not None else []),
            example_id,
        ),
    )  # on every task page and answer: plain SQL (common.sql, issue 14)
    lists: dict[str, list[tuple[int, bool]]] = {"a": [], "b": []}
    query = None
    heard_ids = set()
    first_audio_at = None
    durations: dict[int, float | None] = {}
    for row in rows:
        side, clip_id, audio, query_clip_id, query_audio, seconds, query_seconds = row[:7]
        heard_clip, heard_query, first = row[7:]
        durations.update({clip_id: seconds, query_clip_id: query_seconds})
        first_audio_at = sql.datetime_of(first)
        lists[side].append((clip_id, bool(audio)))
        query = (query_clip_id, bool(query_audio))
        heard_ids.update(c for c, h in ((clip_id, heard_clip), (query_clip_id, heard_query)) if h)
    if query is None:  # an example without lists (never made by Earshot)
        query_clip_id, query_audio = (
            Clip.objects.filter(as_queries__examples=example_id).values_list("pk", "audio").get()
        )
        query = (query_clip_id, bool(query_audio))
    return ExampleClips(
        query=query, lists=lists, heard=frozenset(heard_ids), first_audio_at=first_audio_at,
        durations=durations,
    )  # fmt: skip


def task_for_worker(*, task: PreferenceTask) -> ShownTask:
    clips = example_clips(task.example_id)
    lists = clips.shown(task.swapped)
    return ShownTask(
        key=task.key,
        position=task.position,
        is_quiz=task.is_quiz,
        is_practice=task.is_practice,
        query=ShownClip("query", clips.query[1]),
        list_a=[ShownClip(f"a{i}", audio) for i, (_, audio) in enumerate(lists["a"], start=1)],
        list_b=[ShownClip(f"b{i}", audio) for i, (_, audio) in enumerate(lists["b"], start=1)],
    )


def worker_with_campaign(
    pk: int, *, campaign_id: int | None = None, token: str | None = None, lock: bool = False
) -> Worker | None:
    """The worker and their campaign (cached as ``worker.campaign``) in one statement of
    plain SQL, or None; only in the campaign with ``campaign_id`` and ``token`` when given.

    ``lock``: the worker's row alone stays locked until the transaction ends (``FOR
    UPDATE OF w``): locking the campaign's row too, as a plain ``FOR UPDATE`` over the
    join does on PostgreSQL, made every answer of a campaign wait for the one before it
    to commit (issue 14). SQLite locks the whole database for a writing transaction
    instead (``transaction_mode`` IMMEDIATE).
    """
    where, params = ["w.id = %s"], [pk]
    if campaign_id is not None:
        where.append("w.campaign_id = %s")
        params.append(campaign_id)
    if token is not None:
        where.append("c.token = %s")
        params.append(token)
    lock_clause = (
        " FOR UPDATE OF w" if lock and connection.features.has_select_for_update_of else ""
    )
    row = sql.one(
        f"SELECT {sql.columns(Worker, 'w')}, {sql.columns(PreferenceCampaign, 'c')} "
        "FROM judging_worker w INNER JOIN judging_preferencecampaign c ON c.id = w.campaign_id "
        f"WHERE {' AND '.join(where)}{lock_clause}",
        params,
    )
    if row is None:
        return None
    (worker, campaign), _ = sql.instances(row, Worker, PreferenceCampaign)
    Worker.campaign.field.set_cached_value(worker, campaign)
    return worker


def worker_task(*, worker: Worker, key: str) -> PreferenceTask | None:
    """The worker's task with idempotency key ``key`` (plain SQL: every audio response)."""
    row = sql.one(
        f"SELECT {sql.columns(PreferenceTask, 't')} FROM judging_preferencetask t "
        "WHERE t.worker_id = %s AND t.key = %s",
        (worker.pk, key),
    )
    return sql.instance(PreferenceTask, row) if row is not None else None


def task_clip(*, task: PreferenceTask, slot: str) -> Clip | None:
    """The clip at ``slot`` of the task as shown (see :class:`ShownClip`), or None.

    One statement in plain SQL (every audio response asks; issue 14)."""
    if slot == "query":
        row = sql.one(
            f"SELECT {sql.columns(Clip, 'c')} FROM judging_clip c "
            "INNER JOIN judging_query q ON q.clip_id = c.id "
            "INNER JOIN judging_example e ON e.query_id = q.id WHERE e.id = %s",
            (task.example_id,),
        )
        return sql.instance(Clip, row) if row is not None else None
    side, rank = slot[:1], slot[1:]
    if side not in ("a", "b") or parse_id(rank) is None or int(rank) > 10_000:
        return None
    stored_side = {"a": "b", "b": "a"}[side] if task.swapped else side
    row = sql.one(
        f"SELECT {sql.columns(Clip, 'c')} FROM judging_exampleitem i "
        "INNER JOIN judging_clip c ON c.id = i.clip_id "
        "WHERE i.example_id = %s AND i.side = %s ORDER BY i.rank LIMIT 1 OFFSET %s",
        (task.example_id, stored_side, int(rank) - 1),
    )
    return sql.instance(Clip, row) if row is not None else None


def task_preview(*, campaign: PreferenceCampaign) -> ShownTask | None:
    """A sample task for Mechanical Turk's preview (an example that is not a trap question).

    The preview has no audio: it is not anyone's task (:func:`task_clip` serves only tasks).
    """
    example = campaign.examples.filter(trap__isnull=True).order_by("pk").first()
    if example is None:
        return None
    preview = PreferenceTask(example=example, position=1, swapped=False, key="")
    return task_for_worker(task=preview)


def campaign_quiz_target(*, campaign: PreferenceCampaign) -> int:
    """How many quiz tasks a worker gets: Q. Each is a question nobody else is shown (the
    quiz pool's, else one made from the judgments: issue 29), and a worker for whom no
    quiz can be made is told the study is full before it starts
    (:func:`~crowd.selectors.room.campaign_room`); no statement."""
    return campaign.quiz_length


def pool_target(*, campaign: PreferenceCampaign, pool: str, length: int) -> int:
    """``length``, or fewer when ``pool`` has fewer questions that are not forgiven (no
    statement when ``length`` is 0)."""
    if length == 0:
        return 0
    questions = campaign.examples.filter(trap__pool=pool, trap__contested=False).count()
    return min(length, questions)


# --- organiser side -------------------------------------------------------------------


def campaigns_for_organiser(*, user, need: Need = "write") -> QuerySet[PreferenceCampaign]:
    """The preference campaigns ``user`` reaches for ``need``, with their numbers of examples
    and workers."""
    return organiser_campaigns(user=user, need=need).annotate(
        example_count=Count("examples", distinct=True),
        worker_count=Count("workers", distinct=True),
    )


def campaign_with_counts(*, user, campaign_id: int, need: Need = "write") -> PreferenceCampaign:
    """One campaign of :func:`campaigns_for_organiser`, with its counts; else 404."""
    return get_object_or_404(campaigns_for_organiser(user=user, need=need), pk=campaign_id)


@dataclass(frozen=True)
class CampaignProgress:
    examples: int
    trap_questions: int
    target_answers: int
    answers: int
    accepted: int
    excluded: int
    complete_examples: int
    workers: int
    workers_by_status: dict[str, int]
    shown_completion: int = 0
    """Workers shown the completion code (or who submitted to Mechanical Turk)."""
    shown_screen_out: int = 0
    """Workers shown the screen-out page: on Prolific, each is paid the study's fixed
    screen-out reward for its code (issue 31: a deliberate quiz failer with many ids
    shows here, one per id)."""


def campaign_progress(*, campaign: PreferenceCampaign) -> CampaignProgress:
    examples = campaign.examples.count()
    traps = campaign.examples.filter(trap__isnull=False).count()
    answers = Answer.objects.filter(worker__campaign=campaign).aggregate(
        total=Count("pk"),
        accepted=Count("pk", filter=Q(accepted_at__isnull=False)),
        excluded=Count("pk", filter=Q(excluded=True)),
    )
    complete = (
        campaign.examples.filter(trap__isnull=True)
        .annotate(n=Count("answers", filter=Q(answers__accepted_at__isnull=False)))
        .filter(n__gte=campaign.answers_per_example)
        .count()
    )
    by_status: dict[str, int] = {}
    by_end: dict[str, int] = {}
    for status, end, n in (
        campaign.workers.values_list("status", "end_shown")
        .annotate(n=Count("pk"))
        .order_by("status", "end_shown")
    ):
        by_status[status] = by_status.get(status, 0) + n
        by_end[end] = by_end.get(end, 0) + n
    return CampaignProgress(
        examples=examples,
        trap_questions=traps,
        target_answers=(examples - traps) * campaign.answers_per_example,
        answers=answers["total"],
        accepted=answers["accepted"],
        excluded=answers["excluded"],
        complete_examples=complete,
        workers=sum(by_status.values()),
        workers_by_status=by_status,
        shown_completion=by_end.get(Worker.COMPLETION, 0),
        shown_screen_out=by_end.get(Worker.SCREEN_OUT, 0),
    )


def campaign_trap_questions(*, campaign: PreferenceCampaign) -> QuerySet[TrapQuestion]:
    """Trap questions with how often they were answered and missed, and their exposure:
    ``shown``, the workers they were served to (issue 22: a work-pool trap question is
    shown to no more workers than an ordinary example, ``answers_per_example``, give or
    take the slots given back). A practice question's ``seen`` and ``missed`` count its
    practice answers, which are kept apart from answers (issue 23). The quiz questions
    made for one worker each are not listed: :func:`campaign_made_quiz` counts them."""
    practice = "example__tasks__practice_answer"
    return (
        TrapQuestion.objects.filter(example__campaign=campaign)
        .exclude(example__source=Example.SOURCE_QUIZ)  # one row per worker: counted apart
        .select_related("example__query__clip")
        .annotate(
            seen=Count("example__answers", distinct=True) + Count(practice, distinct=True),
            missed=Count(
                "example__answers", filter=Q(example__answers__correct=False), distinct=True
            )
            + Count(practice, filter=Q(**{f"{practice}__correct": False}), distinct=True),
            shown=Count("example__tasks", distinct=True),
        )
        .order_by("-missed", "pk")
    )


@dataclass(frozen=True)
class MadeQuiz:
    """The quiz questions a campaign made from the judgments, one worker's each (issue 29)."""

    questions: int
    answered: int
    missed: int


def campaign_made_quiz(*, campaign: PreferenceCampaign) -> MadeQuiz:
    """How many quiz questions were made for workers, answered and missed (one statement)."""
    counts = Answer.objects.filter(
        example__campaign=campaign, example__source=Example.SOURCE_QUIZ
    ).aggregate(answered=Count("pk"), missed=Count("pk", filter=Q(correct=False)))
    made = campaign.examples.filter(source=Example.SOURCE_QUIZ).count()
    return MadeQuiz(made, counts["answered"], counts["missed"])


def campaign_examples(*, campaign: PreferenceCampaign) -> QuerySet[Example]:
    """Examples with their answer counts (all, accepted, excluded)."""
    return (
        campaign.examples.select_related("query__clip", "system_a", "system_b", "trap")
        .annotate(
            answer_count=Count("answers"),
            accepted_count=Count("answers", filter=Q(answers__accepted_at__isnull=False)),
            excluded_count=Count("answers", filter=Q(answers__excluded=True)),
        )
        .order_by("pk")
    )


def campaign_answers_for_export(*, campaign: PreferenceCampaign) -> QuerySet[Answer]:
    return (
        Answer.objects.filter(worker__campaign=campaign)
        .select_related(
            "worker",
            "example__query__clip",
            "example__trap",
            "example__system_a",
            "example__system_b",
            "task",
        )
        .prefetch_related("example__items__clip")
        .order_by("answered_at", "pk")
    )


def campaign_answers(
    *, campaign: PreferenceCampaign, worker_id: int | None = None, fast_only: bool = False
) -> QuerySet[Answer]:
    """Every answer of the campaign, oldest first, with its worker and query; ``fast``
    says whether it came sooner than the campaign's ``fast_answer_seconds``."""
    answers = (
        Answer.objects.filter(example__campaign=campaign)
        .select_related("worker", "example__query__clip")
        .annotate(
            fast=ExpressionWrapper(
                Q(seconds__lt=campaign.fast_answer_seconds), output_field=BooleanField()
            )
        )
        .order_by("answered_at", "pk")
    )  # fmt: skip
    if worker_id is not None:
        answers = answers.filter(worker_id=worker_id)
    return answers.filter(seconds__lt=campaign.fast_answer_seconds) if fast_only else answers


def campaign_mapping_measures(*, campaign: PreferenceCampaign) -> list[str]:
    """Measures with a stored satisfaction mapping (evaluation's rows, read by relation name)."""
    return sorted(campaign.satisfaction_mappings.values_list("measure", flat=True))
