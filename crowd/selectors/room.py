"""Is there room for one more crowd worker in a campaign (issue 29: told before the quiz)?

And the statements' parts that serving (:mod:`crowd.services.tasks`) shares with
the answer: which examples are work, how many answers an example has, which quiz
questions nobody was shown.
"""

from __future__ import annotations

from common import sql
from crowd.models import Example, PreferenceCampaign, TrapQuestion
from crowd.selectors.judged_levels import quiz_makeable

__all__ = ["ANSWERED", "UNSHOWN_QUIZ", "WORK", "campaign_room"]

WORK = (
    "NOT EXISTS (SELECT 1 FROM judging_trapquestion q WHERE q.example_id = e.id "
    "AND (q.pool <> %s OR q.contested))"
)
"""The example is work: not a quiz or practice question, nor a forgiven trap question
(parameter: the work pool's name)."""

ANSWERED = "(SELECT COUNT(*) FROM judging_answer a WHERE a.example_id = e.id AND NOT a.excluded)"
"""How many answers the example has that count (not excluded)."""

UNSHOWN_QUIZ = (
    "SELECT e.id FROM judging_example e "
    "INNER JOIN judging_trapquestion q ON q.example_id = e.id "
    "WHERE e.campaign_id = %s AND q.pool = %s AND NOT q.contested AND e.source <> %s "
    "AND NOT EXISTS (SELECT 1 FROM judging_preferencetask s WHERE s.example_id = e.id)"
)
"""The quiz pool's questions nobody was shown (parameters: campaign, the quiz pool, the
source of made questions, which only the request that made one serves)."""


def campaign_room(*, campaign: PreferenceCampaign) -> bool:
    """Is there room for one more worker: at least ``min_work_answers`` (one at least)
    examples of work that still lack answers, and, with a quiz, a quiz for them? A
    worker who has not started was shown no work, so every such example is theirs to
    take (by its free slots, or as owed work beyond slots held by others)."""
    if campaign.quiz_length and not _quiz_room(campaign):
        return False
    needed = max(campaign.min_work_answers, 1)
    (lacking,) = sql.one(
        "SELECT COUNT(*) FROM (SELECT e.id FROM judging_example e "
        f"WHERE e.campaign_id = %s AND {WORK} AND {ANSWERED} < %s LIMIT %s) x",
        (campaign.pk, TrapQuestion.WORK, campaign.answers_per_example, needed),
    )
    return lacking >= needed


def _quiz_room(campaign: PreferenceCampaign) -> bool:
    """A whole quiz can be given to one more worker: the quiz pool has that many
    questions nobody was shown, or the judgments make new ones."""
    (unseen,) = sql.one(
        f"SELECT COUNT(*) FROM ({UNSHOWN_QUIZ} LIMIT %s) x",
        (campaign.pk, TrapQuestion.QUIZ, Example.SOURCE_QUIZ, campaign.quiz_length),
    )
    return unseen >= campaign.quiz_length or quiz_makeable(campaign=campaign)
