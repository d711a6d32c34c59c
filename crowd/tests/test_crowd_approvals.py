"""Completion an organiser can check (issue 22): the code only after real work, and the
approvals export (CSV and API) in the layout of Prolific's bulk approve and bulk bonus.

The expected rows are worked out by hand from each worker's script below: a quiz of 2
questions, then work answers on the 4 ordinary examples (each for up to 4 workers);
``min_work_answers`` 2 and a bonus of 0.50 per work answer beyond it.
"""

import csv
import io
import re
from decimal import Decimal
from urllib.parse import quote

import pytest
from django.test import Client

from common.csv_export import spreadsheet_safe
from crowd.models import CODE_ALPHABET, Worker, _code
from crowd.services.settings import preference_campaign_open_set
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign, right_choice, wrong_choice
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import mturk_id, prolific_id

pytestmark = pytest.mark.django_db

PROLIFIC = "PROLIFIC_PID={id}&STUDY_ID=STUDY1&SESSION_ID=SESS-{name}"
MTURK = "workerId={id}&assignmentId=ASG{id}&hitId=HIT1&turkSubmitTo=https://workersandbox.mturk.com"


def prolific(name: str) -> str:
    return PROLIFIC.format(id=prolific_id(name), name=name)


@pytest.fixture
def campaign(crowd_collection):
    return make_campaign(
        crowd_collection, traps=8, quiz_length=2, trust_threshold=0.7, answers_per_example=4,
        max_answers_per_worker=6, min_work_answers=2, bonus_per_answer=Decimal("0.50"),
        per_worker_codes=True,
    )  # fmt: skip


def work(browser, *, answers: int, quiz_wrong: bool = False) -> None:
    """Answer the quiz (right, or the first question wrong), then ``answers`` tasks."""
    from crowd.models import PreferenceTask

    given = 0
    while browser.key:
        task = PreferenceTask.objects.get(key=browser.key)
        if task.is_quiz:
            wrong = quiz_wrong and task.position == 1
            browser.answer(wrong_choice(task) if wrong else right_choice(task))
        elif given < answers:
            browser.answer(right_choice(task))
            given += 1
        else:
            return
        browser.task()


def test_the_code_needs_the_minimum_of_work_answers_and_never_follows_a_failed_quiz(campaign):
    quiz_only = Browser(campaign)
    quiz_only.start(prolific("quizonly"))
    work(quiz_only, answers=0)
    failed = Browser(campaign)
    failed.start(prolific("failed"))
    work(failed, answers=0, quiz_wrong=True)  # 1 of 2 right: trust 0.5 < 0.7
    # The attack of the issue: one wrong quiz answer, then the campaign closes (and the
    # work task on screen after a passed quiz expires: TASK_LEASE, 30 minutes).
    preference_campaign_open_set(campaign=campaign, is_open=False)
    quiz_only.wait(31 * 60)
    for browser in (quiz_only, failed):
        assert browser.task().url == f"/t/{campaign.token}/end/"
        end = browser.done().content.decode()
        assert campaign.completion_code not in end
    assert Worker.objects.get(platform_id=prolific_id("failed")).status == Worker.STOPPED
    assert "0 tasks beyond the qualification" in quiz_only.done().content.decode()


def test_the_approvals_export_lists_every_submission_in_prolifics_layouts(campaign, personas):
    honest = Browser(campaign)
    honest.start(prolific("p-good"))
    work(honest, answers=4)  # the cap: 2 quiz + 4 work
    honest_end = honest.done().content.decode()
    failed = Browser(campaign)
    failed.start(prolific("p-bad"))
    work(failed, answers=0, quiz_wrong=True)
    failed_end = failed.done().content.decode()
    short = Browser(campaign)
    short.start(prolific("p-short"))
    work(short, answers=1)
    turker = Browser(campaign)
    turker.start(MTURK.format(id=mturk_id("AMT1")))
    work(turker, answers=2)
    preference_campaign_open_set(campaign=campaign, is_open=False)
    turker.wait(31 * 60)  # the task on screen expires (TASK_LEASE after closing)
    turker_end = turker.done().content.decode()

    organiser = Client()
    organiser.force_login(personas.organiser)
    response = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.endswith("\r\n")  # RFC 4180 lines, as spreadsheets write them
    rows = list(csv.DictReader(io.StringIO(text), dialect="excel"))
    by_id = {row["participant_id"]: row for row in rows}
    names = [prolific_id("p-good"), prolific_id("p-bad"), prolific_id("p-short"), mturk_id("AMT1")]
    assert list(by_id) == names  # first arrived first
    assert list(rows[0])[:2] == ["participant_id", "bonus"]  # Prolific's bulk bonus columns
    good, bad, short_row, amt = (by_id[k] for k in names)
    # p-good: 4 work answers, 2 beyond the minimum, 2 × 0.50 = 1.00.
    assert (good["recommendation"], good["bonus"], good["work_answers"]) == ("approve", "1.00", "4")
    assert (good["session_id"], good["study_id"], good["quiz_answers"]) == (
        "SESS-p-good",
        "STUDY1",
        "2",
    )
    assert good["completion_code"] == campaign.completion_code  # Prolific: one code per study
    assert campaign.completion_code in honest_end
    # p-bad failed the quiz and was shown the screen-out code (issue 31: never rejected).
    assert campaign.screen_out_code in failed_end
    assert (bad["recommendation"], bad["bonus"], bad["status"]) == ("screen_out", "0.00", "stopped")
    assert bad["reason"].startswith("screened out (failed the qualification quiz)")
    assert bad["completion_code"] == ""
    assert (short_row["recommendation"], short_row["work_answers"]) == ("not_earned", "1")
    # MTurk: workerId, assignmentId, hitId; a code of its own, the one it was shown.
    assert (amt["platform"], amt["assignment_id"], amt["hit_id"]) == (
        "mturk",
        "ASG" + mturk_id("AMT1"),
        "HIT1",
    )
    assert amt["recommendation"] == "approve" and amt["bonus"] == "0.00"  # 2 = the minimum
    assert amt["completion_code"].startswith(campaign.completion_code + "-")
    assert amt["completion_code"] in turker_end
    assert amt["completion_code"] != campaign.completion_code
    for row in rows:  # trust and listening figures are there for every submission
        assert row["trap_answered"] and row["median_seconds"] and row["mean_clips_heard"]

    approve = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv?layout=prolific-approve")
    assert approve.content.decode() == f"{names[0]}\r\n"  # one id per line, no header
    bonus = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv?layout=prolific-bonus")
    assert bonus.content.decode() == f"{names[0]},1.00\r\n"  # participant id, amount
    bad_layout = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv?layout=excel")
    assert bad_layout.status_code == 400 and "layout" in bad_layout.content.decode()

    api = client_for(personas.organiser).get(f"/api/campaigns/{campaign.pk}/approvals/").json()
    assert [(r["participant_id"], r["recommendation"], r["bonus"]) for r in api] == [
        (row["participant_id"], row["recommendation"], row["bonus"]) for row in rows
    ]


def test_a_participant_id_that_looks_like_a_formula_is_refused_at_arrival(campaign):
    sneaky = Browser(campaign)
    refused = sneaky.arrive("worker=@SUM(A1)")
    assert refused.status_code == 400 and not Worker.objects.exists()
    assert "Your participant id in this link is not valid" in refused.content.decode()


def test_ids_that_are_no_ids_never_reach_an_export_line(campaign, personas):
    """Issue 29: ``PROLIFIC_PID=X Y`` was accepted, and the bulk-approve and bulk-bonus
    lines carried both ids. Arrival refuses it now (a newline too: the request check's
    400); a worker stored before (as ``X Y``, ``X,Y`` or a formula) gets empty id cells,
    a reason to check by hand, and no line in Prolific's layouts, while the honest
    worker's line is whole."""
    for bad in ("X Y", "X,Y", "=1+1", "5f1e2d3c4b5a69788796a5b4\n5f1e2d3c4b5a69788796a5b5"):
        assert Browser(campaign).arrive(f"PROLIFIC_PID={quote(bad)}").status_code == 400
    assert not Worker.objects.exists()
    names = ("p-good", "before-1", "before-2", "before-3")
    for name in names:
        browser = Browser(campaign)
        browser.start(prolific(name))
        work(browser, answers=4)  # the cap: each earned the code and a bonus
    for name, stored in zip(names[1:], ("X Y", "X,Y", "=1+1"), strict=True):
        Worker.objects.filter(platform_id=prolific_id(name)).update(
            platform_id=stored, session_id="S 1"
        )  # as stored before ids were checked
    organiser = Client()
    organiser.force_login(personas.organiser)
    base = f"/campaigns/{campaign.pk}/approvals.csv"
    rows = list(csv.DictReader(io.StringIO(organiser.get(base).content.decode())))
    assert [r["participant_id"] for r in rows] == [prolific_id("p-good"), "", "", ""]
    assert all(r["session_id"] == "" for r in rows[1:])
    assert all("check worker" in r["reason"] for r in rows[1:])
    for layout in ("prolific-approve", "prolific-bonus"):
        lines = organiser.get(f"{base}?layout={layout}").content.decode().splitlines()
        assert [line.split(",")[0] for line in lines] == [prolific_id("p-good")]
    answers = organiser.get(f"/campaigns/{campaign.pk}/answers.csv").content.decode()
    ids = {r["platform_id"] for r in csv.DictReader(io.StringIO(answers))}
    assert ids == {prolific_id("p-good"), ""}
    api = client_for(personas.organiser).get(f"/api/campaigns/{campaign.pk}/approvals/").json()
    assert [r["participant_id"] for r in api] == [prolific_id("p-good"), "", "", ""]


def test_new_codes_are_capitals_and_digits_that_the_export_writes_exactly():
    """A URL-safe token began with "-" once in 64 codes; the export then wrote "'-…" and the
    code matched nothing on Prolific (a CI run met one). 500 draws of the old generator would
    show that, or a lower-case letter, with probability above 0.9996."""
    codes = [_code() for _ in range(500)]
    assert all(re.fullmatch("[A-Z0-9]{12}", code) for code in codes)
    assert all(spreadsheet_safe(code) == code for code in codes)


def test_new_codes_hold_no_letter_that_looks_like_a_digit():
    """Issue 31: "3Y8RYPW8OOWK" mixes the letter O with the digit 0. In 500 codes of 12
    characters drawn from 36, each of O, 0, I and 1 would be missing with probability
    (35/36)^6000 < 10^-73."""
    drawn = "".join(_code() for _ in range(500))
    assert not set(drawn) & set("O0I1")
    assert set(drawn) == set(CODE_ALPHABET) and len(CODE_ALPHABET) == 32


def test_a_campaigns_older_code_with_look_alikes_still_works(client, crowd_collection):
    """Codes already given to workers and platforms are kept as they are: the settings
    accept them, the finisher is shown them and the approvals export lists them."""
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=0, max_answers_per_worker=1,
                             min_work_answers=1)  # fmt: skip
    campaign.completion_code = "3Y8RYPW8OOWK"
    campaign.full_clean()
    campaign.save(update_fields=["completion_code"])
    browser = Browser(campaign)
    browser.start(prolific("old-code"))
    work(browser, answers=1)
    assert "3Y8RYPW8OOWK" in browser.done().content.decode()
    organiser = Client()
    organiser.force_login(campaign.collection.owner)
    export = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv").content.decode()
    assert "3Y8RYPW8OOWK" in export
