"""The driver under faults (issue 32, item 3): two drives at once, a dead broker."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from crowd.models import Answer, Example
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from pairwise.models import PairwiseSort
from pairwise.services.create import pairwise_campaign_create
from pairwise.services.driver import pairwise_drive
from pairwise.sort_state import state_from_data
from tests.helpers.pairwise_study import build_pairs_collection, three_workers, tiered_choice
from tests.helpers.threads import run_together
from work import handoff
from work.handoff import ANSWERS_ACCEPTED_TASK
from work.models import PendingHandoff
from work.sweep import work_sweep


def pairs_campaign(collection):
    return pairwise_campaign_create(
        collection=collection, name="Pairs", answers_per_pair=3, margin=2, quiz_length=1,
        min_trap_answers=1, trap_rate=0.0, listening_check=False,
    ).campaign  # fmt: skip


def answer_round_one(campaign, workers) -> None:
    """Every worker answers their quiz pair and the five pairs of round 1, nothing driven."""
    for worker in workers:
        for _ in range(6):
            task = task_serve(worker=worker)
            answer_submit(
                worker=worker, key=task.key, choice=tiered_choice(workers.index(worker), task)
            )


def rounds(campaign) -> int:
    return state_from_data(PairwiseSort.objects.get(study_id=campaign.pk).state).rounds


@pytest.mark.django_db(transaction=True)
def test_two_drives_at_once_make_the_next_round_once(personas):
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))
    answer_round_one(campaign, three_workers(campaign))
    before = Example.objects.filter(campaign=campaign).count()
    drives = run_together([lambda: pairwise_drive(campaign_id=campaign.pk)] * 2)
    assert not [d for d in drives if isinstance(d, Exception)], drives
    made = sorted(d.examples for d in drives)
    assert made[0] == 0 and made[1] >= 1  # one drive made round 2, the other found it made
    assert Example.objects.filter(campaign=campaign).count() == before + made[1]
    signatures = list(Example.objects.filter(campaign=campaign).values_list("signature", flat=True))
    assert len(signatures) == len(set(signatures))
    assert rounds(campaign) == 1


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_dead_the_answers_are_saved_and_the_sweep_catches_the_sort_up(
    personas, monkeypatch
):
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))

    def refuse(name, *, kwargs, **options):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(handoff, "send_task", refuse)
    answer_round_one(campaign, three_workers(campaign))
    assert Answer.objects.filter(example__campaign=campaign).count() == 18
    assert list(PendingHandoff.objects.values_list("task", "target_id")) == [
        (ANSWERS_ACCEPTED_TASK, campaign.pk)
    ]
    assert rounds(campaign) == 0  # nobody drove it
    report = work_sweep()
    assert report.handed_over == 1 and not PendingHandoff.objects.exists()
    assert rounds(campaign) == 1
    assert PairwiseSort.objects.get(study_id=campaign.pk).state != {}


@pytest.mark.django_db(transaction=True)
def test_a_hand_off_lost_with_its_broker_is_caught_up_by_the_sweeps_own_step(personas):
    """No pending hand-off at all (the message was published, then lost with the broker):
    the sweep drives every unfinished sort."""
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))
    answer_round_one(campaign, three_workers(campaign))  # hand-offs recorded, never delivered
    assert not PendingHandoff.objects.exists() and rounds(campaign) == 0
    report = work_sweep()
    assert report.pairwise_rounds == 1 and rounds(campaign) == 1
