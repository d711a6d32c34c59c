"""How often crowd workers answer the same as the others, and the opposite (issue 29): the
answers :mod:`evaluation.core.worker_agreement` compares, read for one worker (a trust
checkpoint) or a whole campaign (the satisfaction mapping's recompute).

Answers that count are those not excluded (a stopped worker's answers are out), trap and
quiz questions included: their accepted answers are the keys that anchor the estimate
(a forgiven trap question is an ordinary example here). Practice answers are never
:class:`~crowd.models.Answer` rows, so they are never compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from common import sql
from crowd.models import PreferenceCampaign, Worker
from evaluation.core.worker_agreement import (
    PRIOR,
    WorkerAgreement,
    answer_index,
    worker_agreement_of,
)

__all__ = ["CampaignAnswers", "campaign_agreement_answers", "worker_agreement"]

_PRIOR_MEAN = (PRIOR[0] / sum(PRIOR), PRIOR[1] / sum(PRIOR))

LATEST = 200
"""A checkpoint compares the worker's latest this many answers: its cost stays bounded
however many answers a worker gives (a campaign's cap may be in the thousands)."""

_KEY = "CASE WHEN q.id IS NOT NULL AND NOT q.contested AND q.pool <> %s THEN q.accepted_answers END"


def _key(value) -> list[str] | None:
    """A trap question's accepted answers as the cursor gives them (JSON text on SQLite)."""
    if value is None:
        return None
    return json.loads(value) if isinstance(value, str) else list(value)


def worker_agreement(*, worker: Worker) -> WorkerAgreement:
    """The worker's agreement with the others on the examples of their latest
    :data:`LATEST` answers, against the other workers' latest estimates
    (``Worker.agreement_same``/``agreement_opposite``; the prior's mean for a worker not
    estimated yet) and the trap questions' keys. One statement: every answer to those
    examples."""
    rows = sql.rows(
        "SELECT a.worker_id, a.example_id, a.outcome, w.agreement_same, w.agreement_opposite, "
        f"{_KEY} FROM judging_answer a "
        "INNER JOIN judging_worker w ON w.id = a.worker_id "
        "LEFT OUTER JOIN judging_trapquestion q ON q.example_id = a.example_id "
        "WHERE a.example_id IN (SELECT m.example_id FROM judging_answer m "
        f"WHERE m.worker_id = %s ORDER BY m.id DESC LIMIT {LATEST}) "
        "AND (NOT a.excluded OR a.worker_id = %s)",
        ("practice", worker.pk, worker.pk),
    )  # at a checkpoint: one statement whatever the campaign's size
    mine, others, keys = [], [], {}
    for worker_id, example, outcome, same, opposite, key in rows:
        if (accepted := _key(key)) is not None:
            keys[example] = accepted
        if worker_id == worker.pk:
            mine.append((example, answer_index(outcome)))
        else:
            rates = (same, opposite) if same is not None else _PRIOR_MEAN
            others.append((example, answer_index(outcome), *rates))
    return worker_agreement_of(answers=mine, others=others, keys=keys)


@dataclass(frozen=True)
class CampaignAnswers:
    """Every counting answer of a campaign, as :func:`~evaluation.core.worker_agreement.agreement_fit` takes them."""

    workers: list[int]
    examples: list[int]
    answers: list[int]
    keys: dict[int, list[str]]


def campaign_agreement_answers(*, campaign: PreferenceCampaign) -> CampaignAnswers:
    """Every answer of the campaign that is not excluded, with the keys of its trap and quiz
    questions; one statement."""
    rows = sql.rows(
        f"SELECT a.worker_id, a.example_id, a.outcome, {_KEY} FROM judging_answer a "
        "INNER JOIN judging_example e ON e.id = a.example_id "
        "LEFT OUTER JOIN judging_trapquestion q ON q.example_id = a.example_id "
        "WHERE e.campaign_id = %s AND NOT a.excluded ORDER BY a.id",
        ("practice", campaign.pk),
    )
    found = CampaignAnswers([], [], [], {})
    for worker_id, example, outcome, key in rows:
        found.workers.append(worker_id)
        found.examples.append(example)
        found.answers.append(answer_index(outcome))
        if (accepted := _key(key)) is not None:
            found.keys[example] = accepted
    return found
