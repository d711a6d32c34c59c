r"""How often a crowd worker gives the same answer as the others, and how often the opposite.

Trap questions (thesis §3.2.2) check a worker on the few examples whose answer is known; a
worker who finds them, or is lucky, can answer them right and anything at all elsewhere —
for example the **opposite** of what they hear, to drag a study's result (issue 29). This
module scores every answer against the other workers' answers to the same example,
anchored by the trap questions, in the manner of Dawid & Skene (1979): each example has an
unknown true answer :math:`z` among the four of thesis Figure 3.1, and each worker
:math:`w` answers through a confusion matrix. Here the matrix has the shape the answer
scale suggests — every answer has one **opposite** ("A is better" ↔ "B is better",
"both good" ↔ "both bad") — so it has two free rates per worker:

.. math::

    P(y \mid z) = \begin{cases} s_w & y = z \quad\text{(the same answer)}\\
                                o_w & y = \bar z \quad\text{(the opposite)}\\
                                (1 - s_w - o_w)/2 & \text{the two others.} \end{cases}

**What the answer probably was.** For one answer of worker :math:`w` to example :math:`i`,
the true answer's distribution :math:`t_i(z)` comes from everything but that answer: on a
trap question (or quiz question) it is uniform over the accepted answers; elsewhere it is
the posterior of :math:`z` given the *other* workers' answers to the example and their
current rates, with a uniform prior over the four answers (leaving the worker out, so that
nobody vouches for themselves):

.. math::

    t_i(z) \propto \prod_{u \ne w} P(y_{ui} \mid z;\, s_u, o_u).

**A worker's rates.** Each of the worker's answers :math:`y` then has likelihood
:math:`s\,t(y) + o\,t(\bar y) + \tfrac{1-s-o}{2}\,(1 - t(y) - t(\bar y))`, and with a
Dirichlet prior :data:`PRIOR` on :math:`(s, o, 1-s-o)` the posterior of the rates is
computed on a fine triangular grid (:data:`GRID` cells per side, midpoint rule; within
:math:`10^{-3}` of the exact Dirichlet means when every answer's truth is known:
``evaluation/core/tests/test_worker_agreement.py``). A worker **disagrees**
(:attr:`WorkerAgreement.disagrees`) when at least :data:`MIN_COMPARED` of their answers
could be compared and their estimated rate of opposite answers is above :data:`CHANCE`:
they answer the opposite of the others more often than someone answering at random
would (one time in four); an honest worker who hears an example otherwise mostly gives a
neighbouring answer, not its opposite.

**Right on the keys, the opposite elsewhere.** A worker who recognises the trap and quiz
questions (or learnt them) answers those right and can answer the rest the opposite; the
right answers to keys then dilute the rate above (issue 29: bots with four keys right and
four of six other answers the opposite were estimated at 0.21). The same posterior is
therefore also taken over the answers to examples *without* a key alone
(:attr:`WorkerAgreement.opposite_ordinary`, same truths, same prior), and a worker with
at least :data:`MIN_ORDINARY` of those compared whose rate there is above
:data:`ORDINARY_LINE` disagrees too. The line is higher than :data:`CHANCE` because
those answers are compared with other workers, not keys, so honest noise on both sides
shows as opposite answers more often.

:func:`agreement_fit` estimates every worker of a study together, alternating the two
steps above (an E-step: each answer's :math:`t` from the others' current rates; an M-step:
each worker's posterior mean rates) from the prior mean until the rates move by less than
:data:`TOLERANCE`. :func:`worker_agreement_of` scores one worker against the others' rates
as they are, which is what a checkpoint can afford.

**What it cannot catch.** Agreement is with the *others*: where most answers to an example
come from one person's identities answering alike, their answer is the consensus, and an
honest worker disagreeing with it looks like the dishonest one. Trap questions anchor the
estimate (their truth is known, whatever the crowd says) and an identity already found to
answer the opposite counts as evidence *for* the true answer (its rates say so), but a
colluding majority on examples without a trap question is not caught. A worker whose
examples nobody else has answered yet has nothing to be compared with (``compared`` 0).

References
----------
A. P. Dawid and A. M. Skene (1979). Maximum likelihood estimation of observer error-rates
using the EM algorithm. *Applied Statistics* 28(1), 20–28. doi:10.2307/2346806
J. Urbano (2013). *Evaluation in Audio Music Similarity*, Figure 3.1 and §3.2.2. PhD thesis,
Universidad Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from evaluation.core.answers import ANSWERS

__all__ = [
    "CHANCE",
    "MIN_COMPARED",
    "MIN_ORDINARY",
    "OPPOSITE",
    "ORDINARY_LINE",
    "PRIOR",
    "WorkerAgreement",
    "agreement_fit",
    "answer_index",
    "key_truth",
    "worker_agreement",
    "worker_agreement_of",
]

K = len(ANSWERS)
OPPOSITE = np.array([1, 0, 3, 2])
"""The opposite of each answer of :data:`~evaluation.core.answers.ANSWERS` (a_better,
b_better, both_good, both_bad): a_better ↔ b_better, both_good ↔ both_bad."""

PRIOR = (2.0, 1.0, 2.0)
"""Dirichlet prior on (same, opposite, other), worth five answers: a worker we know nothing
about is taken to give the same answer as the others two times in five and the opposite
one time in five (prior means 0.4, 0.2, 0.4: below :data:`CHANCE`), so that a few unlucky
answers do not make an honest worker look like an inverter. Every parameter at least 1
keeps the density bounded, which the grid integrates well."""

CHANCE = 1.0 / 4
"""How often someone answering at random gives the opposite of the true answer (one of
four answers)."""

MIN_COMPARED = 5
"""A worker is said to disagree only with at least this many answers compared."""

ORDINARY_LINE = 1.0 / 3
"""The line for the rate of opposite answers on examples without a key
(:attr:`WorkerAgreement.opposite_ordinary`). Chosen by simulation
(``evaluation/core/tests/test_worker_agreement.py``,
``test_the_line_off_the_keys_stops_few_honest_workers_and_most_inverters``): six to eight
such answers, each compared with one other worker's answer (that worker gives the true
answer with probability 0.8, else another at random, and is estimated at (0.6, 0.13), an
honest worker's rates after two keys right). There the line is crossed by 0.2–0.6 % of
honest workers (who answer like that other worker), by 64–82 % of workers who answer the
opposite four times in five, and by fewer of those who do so half the time: the evidence
of one other answer per example is thin."""

MIN_ORDINARY = 6
"""A worker is said to disagree on the examples without a key only with at least this many
of them compared."""

GRID = 48
"""Cells per side of the triangular grid the rates' posterior is integrated on."""

TOLERANCE = 1e-3
""":func:`agreement_fit` stops when no worker's rates move by more than this (rates are
shown in whole percent)."""

MAX_ITERATIONS = 25
"""At most this many rounds: each costs about answers × 1,176 grid cells (50 ms for 4,000
answers), so a fit is bounded whatever the data."""


def answer_index(answer: str) -> int:
    """The index of ``answer`` in :data:`~evaluation.core.answers.ANSWERS`."""
    return ANSWERS.index(answer)


def key_truth(accepted: Sequence[str]) -> np.ndarray:
    """The true answer's distribution on a trap question: uniform over its accepted answers.

    >>> key_truth(["a_better"]).tolist(), key_truth(["a_better", "both_good"]).tolist()
    ([1.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.5, 0.0])
    """
    truth = np.zeros(K)
    truth[[answer_index(a) for a in accepted]] = 1.0
    return truth / truth.sum()


@dataclass(frozen=True)
class WorkerAgreement:
    """A worker's estimated rates of giving the same answer as the others and the opposite."""

    same: float
    opposite: float
    compared: int
    """Answers that carried evidence: to a trap question, or to an example others answered."""
    opposite_ordinary: float = PRIOR[1] / sum(PRIOR)
    """The rate of opposite answers on the examples that are *not* trap or quiz questions
    (the same truths; the prior's mean when none was compared): a worker who answers the
    keyed questions right and the opposite elsewhere shows it here, not in
    :attr:`opposite`, which the right answers to keys dilute."""
    compared_ordinary: int = 0
    """How many of :attr:`compared` were to examples without a key."""

    @property
    def other(self) -> float:
        return 1.0 - self.same - self.opposite

    @property
    def disagrees(self) -> bool:
        """Enough answers compared, and the opposite answer more often than someone
        answering at random would give it (:data:`CHANCE`); or enough answers to examples
        without a key compared, and the opposite there above :data:`ORDINARY_LINE`."""
        overall = self.compared >= MIN_COMPARED and self.opposite > CHANCE
        return overall or (
            self.compared_ordinary >= MIN_ORDINARY and self.opposite_ordinary > ORDINARY_LINE
        )


def _grid(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Centroids of the ``cells²`` equal triangles that tile the simplex s + o ≤ 1."""
    i, j = np.meshgrid(np.arange(cells), np.arange(cells), indexing="ij")
    lower = i + j <= cells - 1
    upper = i + j <= cells - 2
    s = np.concatenate([(i[lower] + 1 / 3), (i[upper] + 2 / 3)]) / cells
    o = np.concatenate([(j[lower] + 1 / 3), (j[upper] + 2 / 3)]) / cells
    return s, o


_S, _O = _grid(GRID)
_R = 1.0 - _S - _O


def _log_prior(prior: tuple[float, float, float]) -> np.ndarray:
    a_s, a_o, a_r = prior
    return (a_s - 1) * np.log(_S) + (a_o - 1) * np.log(_O) + (a_r - 1) * np.log(_R)


def _evidence(truth: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """(n, 3): the probability that each answer is the true one, its opposite, another."""
    rows = np.arange(len(answers))
    same = truth[rows, answers]
    opposite = truth[rows, OPPOSITE[answers]]
    return np.column_stack([same, opposite, np.clip(1.0 - same - opposite, 0.0, 1.0)])


def worker_agreement(
    truth: np.ndarray,
    answers: Sequence[int],
    *,
    prior: tuple[float, float, float] = PRIOR,
    keyed: Sequence[bool] | None = None,
) -> WorkerAgreement:
    """A worker's posterior mean rates from their answers and each answer's ``truth``.

    Parameters
    ----------
    truth : array_like, shape (n, 4)
        For each answer, the distribution of the example's true answer without this
        answer (:func:`key_truth` on a trap question; the others' consensus elsewhere;
        uniform when nothing is known).
    answers : sequence of int
        The worker's answers, as indices into :data:`~evaluation.core.answers.ANSWERS`.
    keyed : sequence of bool, optional
        Which answers are to trap or quiz questions (their truth a key); the others make
        :attr:`WorkerAgreement.opposite_ordinary`. None: no answer is keyed.

    Examples
    --------
    Six answers to trap questions, five the same as the key and one its opposite: the
    posterior is Dirichlet(2 + 5, 1 + 1, 2 + 0), whose means are 7/11 and 2/11.

    >>> keys = [key_truth(["a_better"])] * 6
    >>> fit = worker_agreement(keys, [0, 0, 0, 0, 0, 1])
    >>> round(fit.same, 2), round(fit.opposite, 2), fit.compared, fit.disagrees
    (0.64, 0.18, 6, False)
    """
    truth = np.asarray(truth, dtype=float).reshape(-1, K)
    answers = np.asarray(answers, dtype=int)
    informative = np.abs(truth - 1.0 / K).max(axis=1) > 1e-9
    keyed_a = np.zeros(len(answers), bool) if keyed is None else np.asarray(keyed, bool)
    ordinary = informative & ~keyed_a
    log_prior = _log_prior(prior)
    log_all, log_ordinary = log_prior, log_prior
    if informative.any():
        evidence = _evidence(truth[informative], answers[informative])
        logs = np.log(
            np.outer(evidence[:, 0], _S)
            + np.outer(evidence[:, 1], _O)
            + np.outer(evidence[:, 2] / 2, _R)
            + 1e-300
        )
        log_all = log_prior + logs.sum(axis=0)
        log_ordinary = log_prior + logs[ordinary[informative]].sum(axis=0)
    same, opposite = _posterior_means(log_all)
    return WorkerAgreement(
        same,
        opposite,
        int(np.count_nonzero(informative)),
        _posterior_means(log_ordinary)[1],
        int(np.count_nonzero(ordinary)),
    )


def _posterior_means(log_post: np.ndarray) -> tuple[float, float]:
    """(same, opposite): the posterior means of the rates on the grid."""
    weights = np.exp(log_post - log_post.max())
    weights /= weights.sum()
    return float(weights @ _S), float(weights @ _O)


def _factors(answers: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """(n, 4): P(answer | z) for every true answer z, from each answerer's (s, o)."""
    s, o = rates[:, 0], rates[:, 1]
    factors = np.repeat(((1.0 - s - o) / 2)[:, None], K, axis=1)
    rows = np.arange(len(answers))
    factors[rows, answers] = s
    factors[rows, OPPOSITE[answers]] = o
    return np.clip(factors, 1e-12, None)


def _leave_one_out(
    examples: np.ndarray,
    answers: np.ndarray,
    rates: np.ndarray,
    keys: Mapping[int, np.ndarray],
) -> np.ndarray:
    """(n, 4): each answer's truth: its key on a trap question, else the posterior of the
    example's true answer given the *other* answers to it (uniform prior)."""
    logs = np.log(_factors(answers, rates))
    _, where = np.unique(examples, return_inverse=True)
    totals = np.zeros((where.max() + 1 if len(where) else 0, K))
    np.add.at(totals, where, logs)
    others = totals[where] - logs
    others -= others.max(axis=1, keepdims=True)
    truth = np.exp(others)
    truth /= truth.sum(axis=1, keepdims=True)
    for n, example in enumerate(examples.tolist()):
        key = keys.get(example)
        if key is not None:
            truth[n] = key
    return truth


def worker_agreement_of(
    *,
    answers: Sequence[tuple[int, int]],
    others: Sequence[tuple[int, int, float, float]],
    keys: Mapping[int, Sequence[str]],
    prior: tuple[float, float, float] = PRIOR,
) -> WorkerAgreement:
    """One worker's rates against the other workers' answers and their current rates.

    ``answers``: the worker's (example, answer index); ``others``: the other workers'
    (example, answer index, same, opposite) on those examples; ``keys``: the accepted
    answers of the examples that are trap questions.
    """
    if not answers:
        return worker_agreement(np.empty((0, K)), [], prior=prior)
    mine = np.array(answers, dtype=int).reshape(-1, 2)
    theirs = np.array([o[:2] for o in others], dtype=int).reshape(-1, 2)
    rates = np.array([o[2:] for o in others], dtype=float).reshape(-1, 2)
    # The worker's own answers go in with rates that make every factor 1/4 (uninformative);
    # each is left out of its own truth anyway, and one worker answers an example once.
    examples = np.concatenate([mine[:, 0], theirs[:, 0]])
    given = np.concatenate([mine[:, 1], theirs[:, 1]])
    all_rates = np.concatenate([np.full((len(mine), 2), 0.25), rates])
    truth_keys = {e: key_truth(a) for e, a in keys.items()}
    truth = _leave_one_out(examples, given, all_rates, truth_keys)[: len(mine)]
    keyed = [e in truth_keys for e in mine[:, 0].tolist()]
    return worker_agreement(truth, mine[:, 1], prior=prior, keyed=keyed)


def agreement_fit(
    *,
    workers: Sequence[int],
    examples: Sequence[int],
    answers: Sequence[int],
    keys: Mapping[int, Sequence[str]],
    prior: tuple[float, float, float] = PRIOR,
) -> dict[int, WorkerAgreement]:
    """Every worker's rates, estimated together (see the module doc).

    Parameters
    ----------
    workers, examples, answers : sequence of int
        One entry per answer: who gave it, to which example, and the answer's index in
        :data:`~evaluation.core.answers.ANSWERS`.
    keys : mapping
        Example → accepted answers, for the examples that are trap questions.

    Returns
    -------
    dict
        Worker → :class:`WorkerAgreement`.
    """
    workers_a = np.asarray(workers, dtype=int)
    examples_a = np.asarray(examples, dtype=int)
    answers_a = np.asarray(answers, dtype=int)
    if not len(workers_a):
        return {}
    ids, who = np.unique(workers_a, return_inverse=True)
    mean = np.array(prior) / sum(prior)
    rates = np.tile(mean[:2], (len(ids), 1))
    truth_keys = {e: key_truth(a) for e, a in keys.items()}
    fits: list[WorkerAgreement] = []
    keyed = np.array([e in truth_keys for e in examples_a.tolist()], bool)
    order = np.argsort(who, kind="stable")
    bounds = np.searchsorted(who[order], np.arange(len(ids) + 1))
    for _ in range(MAX_ITERATIONS):
        truth = _leave_one_out(examples_a, answers_a, rates[who], truth_keys)
        fits = []
        for n in range(len(ids)):
            mine = order[bounds[n] : bounds[n + 1]]
            fits.append(
                worker_agreement(truth[mine], answers_a[mine], prior=prior, keyed=keyed[mine])
            )
        new = np.array([[f.same, f.opposite] for f in fits])
        moved = float(np.abs(new - rates).max())
        rates = new
        if moved < TOLERANCE:
            break
    return {int(w): fit for w, fit in zip(ids, fits, strict=True)}
