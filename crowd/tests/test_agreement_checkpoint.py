"""A checkpoint stops a worker who answers the trap questions right and the opposite of
the others elsewhere (issue 29), through the real answer path: the keys' right answers no
longer hide it (``evaluation.core.worker_agreement.ORDINARY_LINE``)."""

import pytest

from crowd.models import Worker, choice_as_stored
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.core.worker_agreement import CHANCE, ORDINARY_LINE
from tests.helpers.crowd_fixtures import answer_all, arrive, make_campaign, right_choice, trap_of

pytestmark = pytest.mark.django_db


def _study(crowd_collection):
    """12 examples, 6 of them trap questions of the work; two careful workers answer
    everything first (the ordinary examples "A is better"), so that every ordinary example
    has two answers to be compared with. One checkpoint: after the 12th answer."""
    campaign = make_campaign(
        crowd_collection, traps=6, quiz_length=0, trust_threshold=0.5, trust_check_every=12,
        min_trap_answers=1, answers_per_example=3,
    )  # fmt: skip
    for name in ("careful1", "careful2"):
        answer_all(arrive(campaign, name))
    return campaign


def _answer_with_opposites(campaign, name: str, opposites: int) -> Worker:
    """Every trap question right; the first ``opposites`` ordinary examples served "B is
    better" (the opposite of the others), the rest "A is better" (the same)."""
    worker = arrive(campaign, name)
    while (task := task_serve(worker=worker)) is not None:
        choice = right_choice(task)
        if trap_of(task) is None and opposites > 0:
            opposites -= 1
            choice = choice_as_stored("b_better", swapped=task.swapped)
        answer_submit(worker=worker, key=task.key, choice=choice)
    worker.refresh_from_db()
    return worker


def test_right_on_the_trap_questions_and_half_the_others_opposite_is_stopped(crowd_collection):
    # 6 keys right, 3 of the 6 ordinary answers the same as the two others' and 3 the
    # opposite. With the truths nearly certain the posteriors are close to
    #   everything: Dirichlet(2 + 9, 1 + 3, 2): opposite 4/17 = 0.235, under 1/4;
    #   away from the keys: Dirichlet(2 + 3, 1 + 3, 2): opposite 4/11 = 0.364, over 1/3
    # (the core's test_right_on_the_keys_and_the_opposite_elsewhere_disagrees_off_the_keys
    # computes them exactly; stored here: 0.229 and 0.360), so only the rate away from the
    # keys stops the worker (with ORDINARY_LINE at 1 this test fails).
    campaign = _study(crowd_collection)
    bot = _answer_with_opposites(campaign, "bot", opposites=3)
    assert (bot.status, bot.stop_reason) == (Worker.STOPPED, Worker.LOW_AGREEMENT)
    assert bot.trust == 1.0  # every trap question right
    assert bot.agreement_opposite < CHANCE < ORDINARY_LINE < bot.agreement_opposite_ordinary
    assert (bot.agreement_compared, bot.agreement_compared_ordinary) == (12, 6)
    assert not bot.answers.filter(excluded=False).exists()


def test_two_opposite_answers_of_six_stop_nobody(crowd_collection):
    # Dirichlet(2 + 4, 1 + 2, 2): opposite 3/11 = 0.27 away from the keys (stored: 0.268),
    # under 1/3.
    campaign = _study(crowd_collection)
    worker = _answer_with_opposites(campaign, "slip", opposites=2)
    assert worker.status == Worker.FINISHED and worker.stop_reason == ""
    assert worker.agreement_opposite_ordinary < ORDINARY_LINE
    assert worker.agreement_compared_ordinary == 6
