"""The approvals recommend, per person, what their platform does with the page that person
was shown (issue 31, item 1): on Prolific, approve a completion code, pay the screen-out
reward for a screen-out code and never reject it, ask whoever got no code (or the
no-consent code) to return the study; on Mechanical Turk, approve a completion, and a
screened-out worker, who is shown no code, has nothing to approve.

Every expectation is read from the pages the worker's own browser received — which code
appears in them — never from the worker's row: ``what_they_saw``.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from crowd.models import PreferenceTask, Worker
from crowd.services.workers import worker_exclude
from tests.helpers.crowd_fixtures import make_campaign, right_choice, wrong_choice
from tests.helpers.crowd_http import Browser
from tests.helpers.headphones import over_headphones, over_loudspeakers, screen_at
from tests.helpers.platform_links import mturk_id, prolific_id

pytestmark = pytest.mark.django_db

# What each platform does with each page a person was shown: the platforms' own rules
# (Prolific: "screened out" is no reason to reject, its screen-out code pays the fixed
# screen-out reward; a participant with no code returns the study. Mechanical Turk: the
# completion posts the assignment; without it there is no submission to approve).
PLATFORM_ACTION = {
    "prolific": {"completion": "approve", "screen-out": "screen_out", "no-consent": "not_earned",
                 "nothing": "not_earned"},
    "mturk": {"completion": "approve", "screen-out": "not_earned", "no-consent": "not_earned",
              "nothing": "not_earned"},
}  # fmt: skip


def link(platform: str, name: str) -> str:
    if platform == "prolific":
        return f"PROLIFIC_PID={prolific_id(name)}&STUDY_ID=STUDY1&SESSION_ID=S-{name}"
    worker = mturk_id(name)
    return (
        f"workerId={worker}&assignmentId=ASG{worker}&hitId=HIT1"
        "&turkSubmitTo=https://workersandbox.mturk.com"
    )


def platform_id(platform: str, name: str) -> str:
    return prolific_id(name) if platform == "prolific" else mturk_id(name)


def what_they_saw(browser: Browser) -> str:
    """Which code the pages this browser received showed: read from their text."""
    seen = browser.everything_seen()
    campaign = browser.campaign
    if campaign.completion_code in seen:
        return "completion"
    if campaign.screen_out_code in seen:
        return "screen-out"
    if campaign.no_consent_code in seen:
        return "no-consent"
    if "Please return the HIT on Mechanical Turk" in seen and "Thank you for your time" in seen:
        return "screen-out"  # Mechanical Turk's screen-out page: no code, return the HIT
    return "nothing"


@pytest.fixture(params=["prolific", "mturk"])
def platform(request):
    return request.param


@pytest.fixture
def campaign(crowd_collection):
    # 12 examples: 2 quiz and 8 work trap questions, 2 ordinary; a worker gets the quiz
    # and at most 4 work tasks; trust is looked at after 4 work answers and at the end.
    return make_campaign(
        crowd_collection, traps=10, quiz_length=2, trust_threshold=0.7, answers_per_example=6,
        max_answers_per_worker=6, min_work_answers=2, trust_check_every=4,
        bonus_per_answer=Decimal("0.25"), per_worker_codes=True, headphone_check=True,
    )  # fmt: skip


def arrive_and_pass_headphones(campaign, platform: str, name: str) -> Browser:
    browser = Browser(campaign)
    browser.arrive(link(platform, name))
    browser.consent()
    last = screen_at(browser, f"{browser.base}/headphones", over_headphones)
    assert last["Location"] == f"{browser.base}/task/"
    browser.task()
    return browser


def work(browser: Browser, *, quiz_right: bool, work_answers: int, work_right: bool = True):
    """Answer the quiz (all right or all wrong), then up to ``work_answers`` tasks."""
    given = 0
    while browser.key:
        task = PreferenceTask.objects.get(key=browser.key)
        if task.is_quiz:
            browser.answer(right_choice(task) if quiz_right else wrong_choice(task))
        elif given < work_answers:
            browser.answer(right_choice(task) if work_right else wrong_choice(task))
            given += 1
        else:
            return
        browser.task()


def finish(browser: Browser) -> str:
    """The end page the worker reaches by asking to finish, as a person does."""
    return browser.done().content.decode()


def approvals(campaign) -> dict[str, dict]:
    organiser = Client()
    organiser.force_login(campaign.collection.owner)
    text = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv").content.decode()
    return {row["participant_id"]: row for row in csv.DictReader(io.StringIO(text))}


def test_each_person_gets_the_action_that_matches_the_page_they_were_shown(campaign, platform):
    people: dict[str, Browser] = {}

    finisher = people["finisher"] = arrive_and_pass_headphones(campaign, platform, "finisher")
    work(finisher, quiz_right=True, work_answers=4)
    assert "Your answers are saved" in finish(finisher)

    quiz = people["quiz failer"] = arrive_and_pass_headphones(campaign, platform, "quizfail")
    work(quiz, quiz_right=False, work_answers=0)
    assert "Thank you for your time" in finish(quiz)

    ears = people["headphone failer"] = Browser(campaign)
    ears.arrive(link(platform, "earsfail"))
    ears.consent()
    last = screen_at(ears, f"{ears.base}/headphones", over_loudspeakers)
    assert last["Location"] == f"{ears.base}/done/"
    assert "the headphone check did not find them" in finish(ears)

    decliner = people["decliner"] = Browser(campaign)
    decliner.arrive(link(platform, "decliner"))
    decliner.post(f"{decliner.base}/consent/", {"decline": "1"})

    # Passes the quiz, then misses every check question of the work: stopped after 4
    # work answers (2 of the 10 work candidates are ordinary, so at least 2 were traps:
    # trust at most 2 of 4 right, below 0.7).
    late = people["stopped during the work"] = arrive_and_pass_headphones(
        campaign, platform, "late"
    )
    work(late, quiz_right=True, work_answers=4, work_right=False)
    assert "Thank you for your time" in finish(late)

    quitter = people["quitter"] = arrive_and_pass_headphones(campaign, platform, "quitter")
    work(quitter, quiz_right=True, work_answers=1)  # 1 of the 2 the code needs; leaves

    rows = approvals(campaign)
    seen = {who: what_they_saw(browser) for who, browser in people.items()}
    # The pages themselves: the finisher saw the code, the screened-out three the screen-out
    # page (on Mechanical Turk with no code), the decliner the no-consent code (Prolific:
    # Mechanical Turk's decline page has it too), the quitter nothing.
    assert seen["finisher"] == "completion" and seen["quitter"] == "nothing"
    for who in ("quiz failer", "headphone failer", "stopped during the work"):
        assert seen[who] == "screen-out", who
    assert seen["decliner"] == "no-consent"
    names = {"finisher": "finisher", "quiz failer": "quizfail", "headphone failer": "earsfail",
             "decliner": "decliner", "stopped during the work": "late", "quitter": "quitter"}  # fmt: skip
    for who, name in names.items():
        row = rows[platform_id(platform, name)]
        assert row["recommendation"] == PLATFORM_ACTION[platform][seen[who]], (who, row)
        assert row["recommendation"] != "reject", who
        if row["recommendation"] != "approve":
            assert (row["bonus"], row["completion_code"]) == ("0.00", ""), who
    finisher_row = rows[platform_id(platform, "finisher")]
    assert finisher_row["completion_code"] in finisher.everything_seen()
    # 4 work answers, 2 beyond the minimum of 2, at 0.25 each.
    assert finisher_row["bonus"] == "0.50"
    # The reason says, in words, what happened and what to do.
    reasons = {who: rows[platform_id(platform, name)]["reason"] for who, name in names.items()}
    assert reasons["quiz failer"].startswith("screened out (failed the qualification quiz)")
    assert reasons["headphone failer"].startswith("screened out (failed the headphone check)")
    assert "missed too many check questions" in reasons["stopped during the work"]
    assert reasons["decliner"].startswith("declined to take part")
    assert reasons["quitter"].startswith("1 of 2 work answers: shown no code")
    if platform == "prolific":
        assert "fixed screen-out reward" in reasons["quiz failer"]
        assert "never reject" in reasons["quiz failer"]
        assert "return the study" in reasons["quitter"]
    else:
        assert "asked to return the HIT" in reasons["quiz failer"]
        assert "do not reject" in reasons["quiz failer"]
        assert "return the HIT" in reasons["quitter"]


def test_someone_given_the_completion_code_is_approved_even_if_excluded_afterwards(campaign):
    browser = arrive_and_pass_headphones(campaign, "prolific", "later-excluded")
    work(browser, quiz_right=True, work_answers=4)
    assert campaign.completion_code in finish(browser)
    worker = Worker.objects.get(platform_id=prolific_id("later-excluded"))
    worker_exclude(worker=worker, reason="one person, two ids")
    # Their end page now shows the screen-out page; the code they were given stands.
    assert campaign.screen_out_code in finish(browser)
    row = approvals(campaign)[prolific_id("later-excluded")]
    assert row["recommendation"] == "approve"
    assert row["reason"].startswith("earned the completion code; stopped afterwards (excluded")


def test_a_stopped_worker_who_never_asked_for_their_code_is_asked_to_return(campaign):
    quiz = arrive_and_pass_headphones(campaign, "prolific", "left")
    work(quiz, quiz_right=False, work_answers=0)  # stopped; closes the tab before finishing
    assert what_they_saw(quiz) == "nothing"
    row = approvals(campaign)[prolific_id("left")]
    assert row["recommendation"] == "not_earned"
    assert row["reason"].startswith("stopped (failed the qualification quiz) and left before")
    finish(quiz)  # comes back and asks for the code: now they have the screen-out code
    assert approvals(campaign)[prolific_id("left")]["recommendation"] == "screen_out"


def test_failing_the_quiz_on_purpose_under_many_ids_pays_one_screen_out_per_id_and_shows(
    campaign,
):
    """The attack: a worker fails the quiz on purpose to collect the screen-out reward,
    under many ids. From one browser or device they get one: the next id is refused, with
    no code. Each other device (and platform account) earns one screen-out reward, never
    the completion code or a bonus, and the organiser sees each one counted."""
    attacker = arrive_and_pass_headphones(campaign, "prolific", "throwaway-0")
    work(attacker, quiz_right=False, work_answers=0)
    assert campaign.screen_out_code in finish(attacker)
    for n in (1, 2):  # the same browser, then the same device with cookies cleared
        again = attacker if n == 1 else Browser(campaign, address=attacker_address(attacker))
        refused = again.arrive(link("prolific", f"throwaway-{n}"))
        assert refused.status_code == 409
        html = refused.content.decode()
        for code in (campaign.screen_out_code, campaign.completion_code, campaign.no_consent_code):
            assert code not in html
    assert not Worker.objects.filter(platform_id=prolific_id("throwaway-1")).exists()

    for n in range(3, 7):  # four more devices (each a Prolific account to pay)
        other = arrive_and_pass_headphones(campaign, "prolific", f"throwaway-{n}")
        work(other, quiz_right=False, work_answers=0)
        assert campaign.screen_out_code in finish(other)
    rows = approvals(campaign)
    mine = [rows[prolific_id(f"throwaway-{n}")] for n in (0, 3, 4, 5, 6)]
    assert [r["recommendation"] for r in mine] == ["screen_out"] * 5
    assert {(r["bonus"], r["completion_code"]) for r in mine} == {("0.00", "")}
    organiser = Client()
    organiser.force_login(campaign.collection.owner)
    bulk = organiser.get(f"/campaigns/{campaign.pk}/approvals.csv?layout=prolific-approve")
    assert bulk.content.decode() == ""  # nobody to approve
    page = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "0 the completion code · 5 the screen-out page" in page


def attacker_address(browser: Browser) -> str:
    return browser.client.defaults["REMOTE_ADDR"]
