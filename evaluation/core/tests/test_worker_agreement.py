"""Workers' agreement with the others (evaluation.core.worker_agreement), checked against
the exact Dirichlet posterior (scipy), a hand computation and simulated workers."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from evaluation.core.answers import ANSWERS
from evaluation.core.worker_agreement import (
    MIN_COMPARED,
    OPPOSITE,
    PRIOR,
    agreement_fit,
    key_truth,
    worker_agreement,
    worker_agreement_of,
)


@pytest.mark.parametrize("counts", [(5, 1, 0), (0, 8, 2), (3, 3, 3), (20, 1, 4), (0, 0, 0)])
def test_with_every_truth_known_the_rates_are_the_dirichlet_posterior_means(counts):
    # Every answer to a trap question with one accepted answer: each is the same, the
    # opposite or another answer for sure, so the posterior is Dirichlet(PRIOR + counts)
    # exactly; scipy gives its means. The grid's midpoint rule is within 1e-3.
    same, opposite, other = counts
    answers = [0] * same + [1] * opposite + [2] * other  # the key is "a_better" (index 0)
    fit = worker_agreement([key_truth(["a_better"])] * len(answers), answers)
    expected = stats.dirichlet.mean(np.array(PRIOR) + counts)
    assert_allclose([fit.same, fit.opposite], expected[:2], atol=1e-3)
    assert fit.compared == len(answers)


def test_the_truth_of_an_answer_is_the_other_workers_posterior_computed_by_hand():
    # Example 7: u1 said "a_better" with rates (s, o) = (0.6, 0.2), u2 "both_good" with
    # (0.5, 0.25). P(answer | z) per z = (a_better, b_better, both_good, both_bad):
    #   u1: (0.6, 0.2, 0.1, 0.1)  [the same, the opposite, (1 - 0.8) / 2 twice]
    #   u2: (0.125, 0.125, 0.5, 0.25)
    # product (0.075, 0.025, 0.05, 0.025), sum 0.175: truth (3/7, 1/7, 2/7, 1/7).
    # The worker said "b_better": the same with probability 1/7, the opposite 3/7.
    by_hand = np.array([3, 1, 2, 1]) / 7
    fit = worker_agreement_of(
        answers=[(7, ANSWERS.index("b_better"))],
        others=[
            (7, ANSWERS.index("a_better"), 0.6, 0.2),
            (7, ANSWERS.index("both_good"), 0.5, 0.25),
        ],
        keys={},
    )
    expected = worker_agreement([by_hand], [ANSWERS.index("b_better")])
    assert (fit.same, fit.opposite) == pytest.approx((expected.same, expected.opposite))
    assert fit.compared == 1


def test_a_trap_questions_key_is_its_truth_whatever_the_others_said():
    many_others = [(3, 0, 0.9, 0.05)] * 5  # five confident workers said "a_better"
    fit = worker_agreement_of(answers=[(3, 1)], others=many_others, keys={3: ["b_better"]})
    assert fit == worker_agreement([key_truth(["b_better"])], [1])


def test_an_example_nobody_else_answered_compares_nothing_and_leaves_the_prior():
    fit = worker_agreement_of(answers=[(1, 0), (2, 3)], others=[], keys={})
    assert fit.compared == 0
    assert_allclose([fit.same, fit.opposite], np.array(PRIOR[:2]) / sum(PRIOR), atol=1e-3)
    assert not fit.disagrees


def _simulated_study(seed: int, *, honest: int, inverters: int, per_example: int = 3):
    """96 examples with a random true answer; honest workers give it with probability 0.8
    (else one of the three others at random), inverters always give its opposite; every
    tenth example is a trap question with its true answer as key."""
    rng = random.Random(seed)
    truth = [rng.randrange(4) for _ in range(96)]
    workers, examples, answers = [], [], []
    for example, z in enumerate(truth):
        for worker in rng.sample(range(honest + inverters), per_example):
            if worker >= honest:
                answer = int(OPPOSITE[z])
            elif rng.random() < 0.8:
                answer = z
            else:
                answer = rng.choice([k for k in range(4) if k != z])
            workers.append(worker)
            examples.append(example)
            answers.append(answer)
    keys = {e: [ANSWERS[truth[e]]] for e in range(0, 96, 10)}
    return workers, examples, answers, keys


def test_fitted_together_every_inverter_disagrees_and_few_honest_workers_do():
    # Three simulated studies, 8 inverters among 20 workers in each: every inverter is
    # found; of the 36 honest workers one is taken for one (seed 0: worker 7, 2 of 8
    # compared answers the opposite of a consensus that 3-answer examples shared with
    # inverters made shaky, estimated 0.26). That is the price of the chance bar with
    # eight answers compared; the checkpoints stop such a worker, the organiser sees why
    # and can reinstate them.
    honest_flagged = 0
    for seed in (0, 1, 2):
        workers, examples, answers, keys = _simulated_study(seed, honest=12, inverters=8)
        fits = agreement_fit(workers=workers, examples=examples, answers=answers, keys=keys)
        assert all(fits[w].disagrees for w in range(12, 20))
        assert all(fits[w].same > 0.5 for w in range(12))
        honest_flagged += sum(fits[w].disagrees for w in range(12))
    assert honest_flagged == 1


def test_a_colluding_majority_without_trap_questions_is_not_caught():
    # The limit the module doc states: three identities answering the opposite on every
    # example against one honest worker, no trap question. Their answer is the consensus;
    # the honest worker is the one who looks as if they answered the opposite.
    rng = random.Random(5)
    workers, examples, answers = [], [], []
    for example in range(30):
        z = rng.randrange(4)
        for worker, answer in ((0, z), (1, OPPOSITE[z]), (2, OPPOSITE[z]), (3, OPPOSITE[z])):
            workers.append(worker)
            examples.append(example)
            answers.append(int(answer))
    fits = agreement_fit(workers=workers, examples=examples, answers=answers, keys={})
    assert fits[0].disagrees
    assert not any(fits[w].disagrees for w in (1, 2, 3))
    # With trap questions on a third of the examples, the key anchors the truth.
    keys = {e: [ANSWERS[answers[4 * e]]] for e in range(0, 30, 3)}
    fits = agreement_fit(workers=workers, examples=examples, answers=answers, keys=keys)
    assert not fits[0].disagrees
    assert all(fits[w].disagrees for w in (1, 2, 3))


def test_fewer_answers_compared_than_the_minimum_never_disagree():
    keys = [key_truth(["a_better"])] * (MIN_COMPARED - 1)
    assert not worker_agreement(keys, [1] * (MIN_COMPARED - 1)).disagrees
    assert worker_agreement(keys + keys[:1], [1] * MIN_COMPARED).disagrees


def test_no_answers_fit_no_workers():
    assert agreement_fit(workers=[], examples=[], answers=[], keys={}) == {}
