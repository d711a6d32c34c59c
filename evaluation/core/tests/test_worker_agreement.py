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
    MIN_ORDINARY,
    OPPOSITE,
    ORDINARY_LINE,
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
    assert fit == worker_agreement([key_truth(["b_better"])], [1], keyed=[True])


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


def test_right_on_the_keys_and_the_opposite_elsewhere_disagrees_off_the_keys():
    # Issue 29's bots answer the keyed questions right and the opposite elsewhere. With
    # every truth known exactly the posteriors are Dirichlet (scipy's means, within the
    # grid's 1e-3): six keys right, then three other answers the same and three the
    # opposite.
    #   everything: Dirichlet(2 + 9, 1 + 3, 2 + 0), opposite 4/17 = 0.235, under 1/4;
    #   off the keys: Dirichlet(2 + 3, 1 + 3, 2 + 0), opposite 4/11 = 0.364, over 1/3.
    key, known = key_truth(["a_better"]), key_truth(["a_better"])
    truth = [key] * 6 + [known] * 6
    answers = [0] * 6 + [0, 0, 0, 1, 1, 1]
    fit = worker_agreement(truth, answers, keyed=[True] * 6 + [False] * 6)
    assert_allclose(fit.opposite, 4 / 17, atol=1e-3)
    assert_allclose(fit.opposite_ordinary, 4 / 11, atol=1e-3)
    assert (fit.compared, fit.compared_ordinary) == (12, 6)
    assert fit.opposite < 0.25 < ORDINARY_LINE < fit.opposite_ordinary and fit.disagrees
    # Two of the six the opposite: Dirichlet(2 + 4, 1 + 2, 2), opposite 3/11 = 0.273.
    honest = worker_agreement(truth, [0] * 6 + [0, 0, 0, 0, 1, 1], keyed=[True] * 6 + [False] * 6)
    assert_allclose(honest.opposite_ordinary, 3 / 11, atol=1e-3)
    assert not honest.disagrees
    # Fewer than MIN_ORDINARY off the keys never disagree there, however opposite.
    few = worker_agreement([key] * 20 + [known] * (MIN_ORDINARY - 1), [0] * 20 + [1] * 5,
                           keyed=[True] * 20 + [False] * 5)  # fmt: skip
    assert few.opposite_ordinary > ORDINARY_LINE and not few.disagrees


def test_the_line_off_the_keys_stops_few_honest_workers_and_most_inverters():
    # The simulation behind ORDINARY_LINE: a worker's 6 to 8 answers off the keys, each
    # compared with one other worker's answer to the example (the first checkpoint of a
    # campaign served least-answered first), that other estimated at (0.6, 0.13): an
    # honest worker's rates after two keys right. The true answer is random; honest
    # workers (and the other) give it with probability 0.8, else one of the three others.
    # With this seed, at 6, 7 and 8 answers: 0.4 %, 0.2 % and 0.6 % of 1,000 honest
    # workers cross the line, and 64 %, 82 % and 80 % of 300 inverters who answer the
    # opposite four times in five; asserted: under 1 % and over 60 %.
    rng = np.random.default_rng(29)

    def other_says(z):
        return z if rng.random() < 0.8 else rng.choice([k for k in range(4) if k != z])

    def rate(kind: float | None, n: int) -> float:
        truth, answers = [], []
        for _ in range(n):
            z = int(rng.integers(4))
            said = other_says(z)
            row = np.full(4, (1 - 0.6 - 0.13) / 2)
            row[said], row[OPPOSITE[said]] = 0.6, 0.13
            truth.append(row)
            if kind is None:
                answers.append(other_says(z))
            else:  # an inverter: the opposite with probability `kind`, else the truth
                answers.append(int(OPPOSITE[z]) if rng.random() < kind else z)
        return worker_agreement(truth, answers).opposite

    for n in (6, 7, 8):
        honest = np.array([rate(None, n) for _ in range(1000)])
        most = np.array([rate(0.8, n) for _ in range(300)])
        assert (honest > ORDINARY_LINE).mean() < 0.01, n
        assert (most > ORDINARY_LINE).mean() > 0.6, n


def test_no_answers_fit_no_workers():
    assert agreement_fit(workers=[], examples=[], answers=[], keys={}) == {}
