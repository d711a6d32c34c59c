"""A worker who leaves before being trusted does not stall a pairs campaign's round.

A round of the three-way QuickSort waits for every vote of each of its pairs (the
campaign's answers per pair), and only answers that count are votes: a worker's answers
count while they are trusted. A worker who passed the quiz, answered a trap pair wrong
(trust 1/2, under the campaign's 0.7: not trusted, but not stopped before the next
checkpoint) and a pair of the sort, then left, leaves an answer that may never count; it
held one of the pair's slots, so the pair was served to nobody else and the round waited
for ever (a limit noted since issue 32). Now, when nothing is left to serve, the slots of
answers waiting on a worker none of whose tasks has been served, alive or answered for
``ANSWER_WAIT_LEASE`` come back (``crowd.services.slots.answers_release_gone``).
"""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.utils import timezone

from crowd.models import A_BETTER, B_BETTER, Answer, Example, PreferenceTask, TrapQuestion, Worker
from crowd.services.answers import answer_submit
from crowd.services.slots import ANSWER_WAIT_LEASE, answers_release_gone
from crowd.services.tasks import task_serve
from crowd.services.workers import worker_exclude, worker_reinstate
from pairwise.models import PairwiseSort, PairwiseStudy
from pairwise.services.create import pairwise_campaign_create
from tests.helpers.crowd_fixtures import arrive
from tests.helpers.pairwise_study import (
    build_pairs_collection,
    hand_over,
    run_in_turns,
    source_groups,
    three_workers,
    tiered_choice,
)

pytestmark = pytest.mark.django_db

EXPECTED = (("c1",), ("c2", "c3"), ("c4", "c5", "c6"))  # test_pairwise_sort.py works it out


def pairs_campaign(collection):
    settings = {
        "answers_per_pair": 3, "margin": 2, "quiz_length": 1, "min_trap_answers": 1,
        "trap_rate": 0.3, "trust_check_every": 50, "listening_check": False,
        "source_name": "crowd pairs",
    }  # fmt: skip
    return pairwise_campaign_create(collection=collection, name="Pairs", **settings).campaign


def slots_held(example_id: int) -> int:
    """What ``slots_taken`` should say: open tasks and answers that hold a slot."""
    return (
        PreferenceTask.objects.filter(example_id=example_id, released=False)
        .filter(Q(answered_at__isnull=True) | Q(answer__excluded=False))
        .count()
    )


def leaver_answers(campaign) -> tuple[Worker, list[int]]:
    """A worker who passes the quiz and answers until they have answered a trap pair
    wrong (the first; any other right) and a pair of the sort; then leaves. Returns them
    and the pairs of the sort they answered."""
    leaver = arrive(campaign, "leaver")
    pairs, wrong = [], False
    while not (pairs and wrong):
        task = task_serve(worker=leaver)
        trap = TrapQuestion.objects.filter(example_id=task.example_id).first()
        choice = tiered_choice(0, task)
        if trap is None:
            pairs.append(task.example_id)
        elif trap.pool == TrapQuestion.WORK and not wrong:
            choice, wrong = (B_BETTER if choice == A_BETTER else A_BETTER), True
        answer_submit(worker=leaver, key=task.key, choice=choice)
        hand_over(campaign)
    leaver.refresh_from_db()
    assert not leaver.trusted and leaver.status == Worker.ACTIVE and leaver.trust < 0.7
    return leaver, pairs


def work_traps_answered(worker: Worker) -> int:
    return Answer.objects.filter(worker=worker, example__trap__pool=TrapQuestion.WORK).count()


def leave(worker: Worker, minutes: float) -> None:
    """The worker's last sign of life ``minutes`` ago."""
    then = timezone.now() - timezone.timedelta(minutes=minutes)
    worker.tasks.update(served_at=then, alive_at=then)
    worker.tasks.filter(answered_at__isnull=False).update(answered_at=then)


def test_a_worker_who_leaves_untrusted_stalls_no_round(personas):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    sort = PairwiseSort.objects.get(study_id=campaign.pk)
    leaver, pairs = leaver_answers(campaign)
    workers = three_workers(campaign)
    run_in_turns(campaign, workers, tiered_choice)

    # Each pair the leaver answered was answered by two of the three, the third was never
    # served it: the round waits (as it did for ever before).
    sort.refresh_from_db()
    assert not sort.done
    missing = {}
    for pair in pairs:
        assert Example.objects.get(pk=pair).slots_taken == slots_held(pair) == 3
        [missing[pair]] = [
            n for n, w in enumerate(workers) if not Answer.objects.filter(worker=w, example_id=pair)
        ]

    leave(leaver, minutes=4)  # still around: nothing comes back
    assert (
        answers_release_gone(campaign=campaign, older_than=timezone.now() - ANSWER_WAIT_LEASE) == 0
    )
    for worker in [leaver, *workers]:
        leave(worker, minutes=6)  # everybody silent; only the leaver's answers wait

    # A newcomer is served what came back (the leaver's pairs and trap pairs), trusted
    # by the trap pair, and hears each pair as the worker who missed it: the round ends,
    # the three answer the next ones, and the sort ends with the groups worked out.
    newcomer = arrive(campaign, "newcomer")
    while (task := task_serve(worker=newcomer)) is not None:
        if task.example_id not in missing and not hasattr(task.example, "trap"):
            break  # the next round's first pair: the newcomer leaves it open and goes
        choice = tiered_choice(missing.get(task.example_id, 0), task)
        answer_submit(worker=newcomer, key=task.key, choice=choice)
        hand_over(campaign)
    leave(newcomer, minutes=2)  # its open task's slot comes back after a minute's silence
    newcomer.refresh_from_db()
    assert newcomer.trusted
    assert all(Answer.objects.filter(worker=newcomer, example_id=p).exists() for p in pairs)
    run_in_turns(campaign, workers, tiered_choice)
    sort.refresh_from_db()
    assert sort.done and sort.written
    assert source_groups(PairwiseStudy.objects.get(pk=campaign.pk).source) == EXPECTED
    released = PreferenceTask.objects.filter(released=True, answered_at__isnull=False)
    assert set(released.values_list("worker__platform_id", flat=True)) == {"leaver"}
    assert released.count() == len(pairs) + work_traps_answered(leaver)  # its pairs and traps
    kept = Answer.objects.filter(worker=leaver, excluded=False, example__trap__isnull=True)
    assert sorted(kept.values_list("example_id", flat=True)) == sorted(pairs)  # kept, not counted
    for example in Example.objects.filter(campaign=campaign):
        assert example.slots_taken == slots_held(example.pk), example


def test_stopping_or_reinstating_a_worker_who_left_gives_no_slot_back_twice(personas):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    leaver, pairs = leaver_answers(campaign)
    leave(leaver, minutes=6)
    assert answers_release_gone(
        campaign=campaign, older_than=timezone.now() - ANSWER_WAIT_LEASE
    ) == len(pairs) + work_traps_answered(leaver)
    assert (
        answers_release_gone(campaign=campaign, older_than=timezone.now() - ANSWER_WAIT_LEASE) == 0
    )
    examples = list(Example.objects.filter(campaign=campaign).values_list("pk", flat=True))
    assert all(Example.objects.get(pk=e).slots_taken == slots_held(e) for e in examples)
    assert all(Example.objects.get(pk=p).slots_taken == 0 for p in pairs)

    leaver = worker_exclude(worker=Worker.objects.get(pk=leaver.pk), reason="left")
    assert not Answer.objects.filter(worker=leaver, excluded=False).exists()
    assert all(Example.objects.get(pk=e).slots_taken == slots_held(e) for e in examples)
    worker_reinstate(worker=Worker.objects.get(pk=leaver.pk))
    assert not Answer.objects.filter(worker=leaver, excluded=True).exists()
    assert all(Example.objects.get(pk=e).slots_taken == slots_held(e) for e in examples)
    assert all(Example.objects.get(pk=p).slots_taken == 0 for p in pairs)
