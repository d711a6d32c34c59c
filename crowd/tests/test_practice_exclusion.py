"""Practice answers count for nothing (issue 23, item 4): not for trust, not as work
answers for the completion code, the approvals or the bonus, not in the answers and
approvals exports, the progress and workers' figures or the satisfaction mapping. The
attack: a worker who answers practice tasks — whose answers every worker is shown —
gains neither trust nor paid work answers.

The campaign of every test: 12 examples — 1 quiz question (the quiz is 1 long), 2
practice questions (practice is 2 long) and 9 ordinary examples; at most 4 counted tasks
per worker, 1 work answer earns the code, 0.50 bonus per work answer beyond it, trust
threshold 0.5. The honest worker answers everything right: 2 practice tasks, the quiz
question, then 3 work tasks (the cap of 4 minus the quiz). The practiser answers the 2
practice tasks right and nothing else.
"""

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from crowd import selectors
from crowd.models import PracticeAnswer, PreferenceTask, TrapQuestion, Worker
from crowd.services.settings import preference_campaign_open_set
from evaluation.models import SatisfactionMapping
from evaluation.services import campaign_mapping_compute
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import (
    answer_all,
    arrive,
    make_campaign,
    right_choice,
    wrong_choice,
)
from tests.helpers.crowd_http import Browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(crowd_collection):
    return make_campaign(
        crowd_collection, traps=1, quiz_length=1, practice=2, practice_length=2,
        max_answers_per_worker=4, min_work_answers=1, bonus_per_answer=Decimal("0.50"),
        trust_threshold=0.5,
    )  # fmt: skip


@pytest.fixture
def honest(campaign) -> Worker:
    worker = arrive(campaign, "honest")
    assert len(answer_all(worker)) == 2 + 1 + 3
    worker.refresh_from_db()
    return worker


def practise(browser: Browser) -> None:
    """Answer the two practice tasks right through the task page, then open the next."""
    for _ in range(2):
        task = PreferenceTask.objects.get(key=browser.key)
        assert task.is_practice
        assert "/feedback/" in browser.answer(right_choice(task))["Location"]
        browser.task()


@pytest.fixture
def practiser(campaign, honest) -> Browser:
    browser = Browser(campaign)
    browser.start("worker=practiser")
    practise(browser)
    assert PracticeAnswer.objects.filter(task__worker__platform_id="practiser").count() == 2
    return browser


def the(platform_id: str) -> Worker:
    return Worker.objects.get(platform_id=platform_id)


def test_practice_answers_give_no_trust(campaign, honest, practiser):
    # The practiser: 2 right practice answers and no trap answer: no trust.
    worker = the("practiser")
    assert (worker.trap_answered, worker.trust, worker.trusted) == (0, None, False)
    # The honest worker: the quiz question alone, 1 of 1 right (not 3 of 3).
    assert (honest.trap_answered, honest.trap_correct, honest.trust) == (1, 1, 1.0)
    # Practice right, then the quiz question missed: 0 of 1 = 0.0 < 0.5, stopped at the
    # end of the quiz. Had practice counted: 2 of 3 = 0.67 ≥ 0.5, trusted.
    quiz = PreferenceTask.objects.get(key=practiser.key)
    assert quiz.is_quiz
    practiser.answer(wrong_choice(quiz))
    worker.refresh_from_db()
    assert (worker.trap_answered, worker.trust, worker.status) == (1, 0.0, Worker.STOPPED)


def test_practice_answers_earn_no_code_no_approval_and_no_bonus(campaign, honest, practiser):
    assert selectors.worker_work_answers(worker=the("practiser")) == 0
    assert selectors.worker_work_answers(worker=honest) == 3
    rows = {row.worker.platform_id: row for row in selectors.campaign_approvals(campaign=campaign)}
    assert list(rows) == ["honest"]  # the practiser gave no answer that counts
    # 4 answers: 1 quiz + 3 work; bonus (3 − 1) × 0.50 = 1.00 (practice counted: 2.00).
    row = rows["honest"]
    assert (row.answers, row.quiz_answers, row.work_answers) == (4, 1, 3)
    assert (row.recommendation, row.bonus) == ("approve", Decimal("1.00"))
    # The campaign closes and the quiz question on the practiser's screen expires: with
    # nothing more to do, asking for the code gets the page for those who did no work.
    preference_campaign_open_set(campaign=campaign, is_open=False)
    practiser.wait(31 * 60)  # TASK_LEASE (30 min) after it was served
    done = practiser.done().content.decode()
    assert "This study is closed" in done and campaign.completion_code not in done


def test_the_exports_leave_practice_answers_out(campaign, honest, practiser, personas):
    organiser = Client()
    organiser.force_login(personas.organiser)
    text = organiser.get(f"/campaigns/{campaign.pk}/answers.csv").content.decode()
    answers = list(csv.DictReader(io.StringIO(text)))
    practice = {str(pk) for pk in campaign.examples.filter(trap__pool=TrapQuestion.PRACTICE)
                .values_list("pk", flat=True)}  # fmt: skip
    assert len(answers) == 4  # the honest worker's quiz answer and 3 work answers
    assert {a["platform_id"] for a in answers} == {"honest"}
    assert practice.isdisjoint(a["example_id"] for a in answers)
    assert {a["trap_pool"] for a in answers} == {"quiz", ""}
    text = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv").content.decode()
    [approval] = csv.DictReader(io.StringIO(text))
    assert (approval["participant_id"], approval["work_answers"], approval["bonus"]) == (
        "honest", "3", "1.00",
    )  # fmt: skip
    bonus = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv?layout=prolific-bonus")
    assert bonus.content.decode() == ""  # generic ids, no Prolific worker: nothing to pay


def test_progress_workers_figures_and_the_api_leave_practice_answers_out(
    campaign, honest, practiser, personas
):
    progress = selectors.campaign_progress(campaign=campaign)
    # 12 examples, 3 of them trap or practice questions: 9 × 1 answer wanted; 4 answers
    # (the honest worker's), 3 accepted (work answers of a trusted worker).
    assert (progress.target_answers, progress.answers, progress.accepted) == (9, 4, 3)
    traps = {t.example_id: t for t in selectors.campaign_trap_questions(campaign=campaign)}
    for example_id in campaign.examples.filter(trap__pool=TrapQuestion.PRACTICE).values_list(
        "pk", flat=True
    ):
        # Both workers practised on it, right: the trap table shows it (and nothing counts).
        assert (traps[example_id].shown, traps[example_id].seen, traps[example_id].missed) == (
            2, 2, 0,
        )  # fmt: skip
    [row] = selectors.worker_rows(campaign=campaign, workers=[the("practiser")])
    assert (row.answers, row.median_seconds, row.mean_clips_heard) == (0, None, None)
    listed = client_for(personas.organiser).get(f"/api/campaigns/{campaign.pk}/workers/").json()
    workers = listed["results"] if isinstance(listed, dict) else listed
    assert {w["platform_id"]: w["answers"] for w in workers} == {"honest": 4, "practiser": 0}


def test_the_satisfaction_mapping_leaves_practice_answers_out(campaign, honest, practiser):
    # Accepted answers: the honest worker's 3 work answers; the 4 practice answers (2
    # workers × 2) are no Answer rows at all.
    [measure] = campaign_mapping_compute(campaign=campaign)
    payload = SatisfactionMapping.objects.get(campaign=campaign, measure=measure).payload
    assert payload["n_answers"] == 3
    assert PracticeAnswer.objects.count() == 4


def test_the_campaign_page_shows_practice_answers_with_nothing_to_forgive(
    campaign, honest, practiser, personas
):
    organiser = Client()
    organiser.force_login(personas.organiser)
    page = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    practice = TrapQuestion.objects.filter(example__campaign=campaign, pool=TrapQuestion.PRACTICE)
    quiz = TrapQuestion.objects.get(  # the pool's; the practiser's was made for them
        example__campaign=campaign, pool=TrapQuestion.QUIZ, example__source="systems"
    )
    assert page.count("practice: never counts") == practice.count() == 2
    for trap in practice:
        assert f"Forgive (trap {trap.pk})" not in page
    assert f"Forgive (trap {quiz.pk})" in page  # a question that counts can be forgiven
