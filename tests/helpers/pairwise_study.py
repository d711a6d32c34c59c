"""A hand-made pairwise study (issue 32, item 3): a collection whose query's five candidates
fall into three tiers, and crowd workers who answer every pair through the worker path.

The collection: query ``q1``; candidates ``c1`` … ``c6`` (the pool: one system retrieved
them); official Fine judgments c1 100, c2 and c3 50, c4 to c6 0, so the trap pairs
(levels 0.6 or more apart: :data:`pairwise.services.traps.TRAP_GAP`) are c1 against c4,
c5 and c6 — three pairs; c2 and c3 are 0.5 from either end, too close.

The workers hear the tiers ⟨c1⟩, ⟨c2, c3⟩, ⟨c4, c5, c6⟩ (:data:`TIERS`) and answer by
:func:`tiered_choice`.
"""

from __future__ import annotations

import csv
import io

from catalog.models import Clip, Collection, OrderedGroupEntry, Query, RelevanceJudgment, RunEntry
from crowd.models import A_BETTER, B_BETTER, BOTH_GOOD, Answer, ExampleItem, TrapQuestion
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from tests.helpers.crowd_fixtures import arrive
from tests.helpers.sources import source_for
from work import kinds
from work.handoff import ANSWERS_ACCEPTED_TASK

FINE = {"c1": 100, "c2": 50, "c3": 50, "c4": 0, "c5": 0, "c6": 0}
TIERS = {"c1": 0, "c2": 1, "c3": 1, "c4": 2, "c5": 2, "c6": 2}
"""What the workers hear: tier 0 the most similar."""


def build_pairs_collection(owner, *, name: str = "Pairs") -> Collection:
    """The collection of the module's doc."""
    collection = Collection.objects.create(name=name, owner=owner)
    query = Query.objects.create(
        collection=collection,
        clip=Clip.objects.create(collection=collection, external_id="q1", title="Query 1"),
    )
    system = collection.systems.create(name="S1")
    source = source_for(collection, "panel")
    for rank, (name_, fine) in enumerate(FINE.items(), start=1):
        clip = Clip.objects.create(collection=collection, external_id=name_, title=name_)
        RunEntry.objects.create(system=system, query=query, rank=rank, clip=clip)
        RelevanceJudgment.objects.create(query=query, clip=clip, source=source, fine=fine)
    return collection


def shown_clips(task) -> tuple[str, str]:
    """The names of the clips shown as A and as B in ``task``."""
    stored = dict(
        ExampleItem.objects.filter(example_id=task.example_id).values_list(
            "side", "clip__external_id"
        )
    )
    return (stored["b"], stored["a"]) if task.swapped else (stored["a"], stored["b"])


def tiered_choice(worker_number: int, task) -> str:
    """What worker 0, 1 or 2 answers about the clips as shown.

    Clips two tiers apart (c1 against c4–c6: the trap pairs too): all three prefer the
    clip of the better tier (3 votes to 0). Next tiers: workers 0 and 1 prefer the better
    one, worker 2 says "equally similar" (2 votes to 0: a lead of 2). One tier: worker 0
    prefers the clip named first, worker 1 the one named last, worker 2 says "equally
    similar" (1 vote to 1: a lead of 0).
    """
    a, b = shown_clips(task)
    apart = abs(TIERS[a] - TIERS[b])
    if worker_number == 2 and apart < 2:
        return BOTH_GOOD
    if apart:
        return A_BETTER if TIERS[a] < TIERS[b] else B_BETTER
    first = A_BETTER if a < b else B_BETTER
    return first if worker_number == 0 else (B_BETTER if first == A_BETTER else A_BETTER)


def hand_over(campaign) -> None:
    """What the broker does with the hand-off sent after an answer: every receiver of
    the campaign's changed answers runs (evaluation's mapping, pairwise's sort)."""
    kinds.receiver(ANSWERS_ACCEPTED_TASK)(campaign.pk)


def run_in_turns(campaign, workers, choose, *, turns: int = 100) -> int:
    """Each worker in turn is served a task and answers it by ``choose(number, task)``, the
    hand-off delivered after each answer, until none is served a task (or ``turns``
    turns); answers given."""
    given = 0
    for _ in range(turns):
        served_any = False
        for number, worker in enumerate(workers):
            task = task_serve(worker=worker)
            if task is None:
                continue
            served_any = True
            answer_submit(worker=worker, key=task.key, choice=choose(number, task))
            given += 1
            hand_over(campaign)
        if not served_any:
            break
    return given


def three_workers(campaign, prefix: str = "w") -> list:
    return [arrive(campaign, f"{prefix}{n}") for n in range(3)]


def source_groups(source, query_name: str = "q1") -> tuple[tuple[str, ...], ...]:
    """A source's groups of a query as clip names, group 1 first."""
    rows = OrderedGroupEntry.objects.filter(source=source, query__clip__external_id=query_name)
    groups: dict[int, list[str]] = {}
    for clip, group in rows.values_list("clip__external_id", "group"):
        groups.setdefault(group, []).append(clip)
    return tuple(tuple(sorted(groups[g])) for g in sorted(groups))


def answers_as_past_study(campaign) -> str:
    """The campaign's answers to the sort's pairs (trap and quiz pairs left out) as a past
    study's CSV: the clips as each worker saw them, the answer as they gave it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["query", "doc_a", "doc_b", "answer", "worker"])
    words = {A_BETTER: "A", B_BETTER: "B", BOTH_GOOD: "equal"}
    answers = Answer.objects.filter(example__campaign=campaign, excluded=False).exclude(
        example__trap__pool=TrapQuestion.QUIZ
    )
    for answer in answers.select_related("task", "worker", "example__query__clip"):
        a, b = shown_clips(answer.task)
        writer.writerow(
            [answer.example.query.clip.external_id, a, b, words[answer.choice],
             answer.worker.platform_id]
        )  # fmt: skip
    return out.getvalue()
