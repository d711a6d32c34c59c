"""In Chromium, with the real Celery worker: issue 25's whole study from an empty installation,
every step clicked and typed by the people who take it, with no dead end.

An organiser (made by an administrator: not part of the flow) creates a collection,
uploads clips, runs and judgments with each form's default options, invites an assessor
(the e-mail is captured) who judges by ear, makes a crowd campaign with the example
generator, deletes and restores an example, sets the study up on Prolific with the copied
URL, and three participants take it: one declines consent, one passes the quiz, one fails
it, is reinstated by the organiser and goes on. The organiser then reads the results.

No page a person opens (any navigation, in any of the five browsers) may be a 4xx or 5xx
page, and no page may log a script or Content-Security-Policy error. Audio is 1 s long,
the campaigns ask for 1 s of listening (settings an organiser chooses on their pages; the
listening rules stay on) and the crowd's quiz has one question, so that the whole study
takes well under a minute. A screenshot of the leaderboard goes to ``var/screenshots/``.

This module is long because it is one study told step by step, each person's part in the
order they take it; split, the story would be lost.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from common.roles import ORGANISER
from tests.helpers.browser import REAL_WORKER_JOURNEY, current_task, log_in, shot
from tests.helpers.clipboard import copy_with
from tests.helpers.crowd_fixtures import right_choice, wrong_choice
from tests.helpers.personas import PASSWORD, make_user
from tests.helpers.platform_links import prolific_id
from tests.helpers.whole_study import (
    LISTEN,
    NoDeadEnds,
    answer_once_ready,
    browser,
    consent,
    create_a_collection,
    decline,
    finish,
    study_url,
    tone_files,
    upload_through_the_pages,
)

pytestmark = REAL_WORKER_JOURNEY

CLIPS = {  # id: (format, pitch in Hz): 1 s tones, each audibly its own
    "q1": (".wav", 440), "q2": (".flac", 330), "d1": (".wav", 450), "d2": (".ogg", 460),
    "d3": (".flac", 500), "d4": (".wav", 600), "d5": (".ogg", 700), "d6": (".flac", 880),
}  # fmt: skip
RANKED = {  # (system, query): its top 3, best first
    ("S1", "q1"): "d1 d2 d3", ("S2", "q1"): "d2 d1 d4", ("S3", "q1"): "d5 d6 d4",
    ("S1", "q2"): "d4 d5 d6", ("S2", "q2"): "d5 d1 d4", ("S3", "q2"): "d2 d3 d1",
}  # fmt: skip
RUNS = "".join(  # ranked lists (system query doc): 3 systems × 2 queries × 3 clips = 18 lines
    f"{system}\t{query}\t{doc}\n"
    for (system, query), docs in RANKED.items()
    for doc in docs.split()
)
FINE = {"d1": 90, "d2": 80, "d3": 60, "d4": 40, "d5": 10, "d6": 5}
JUDGMENTS = "".join(  # query doc fine: every clip judged for both queries (q2 reversed)
    f"{query}\t{doc}\t{fine if query == 'q1' else 100 - fine}\n"
    for query in ("q1", "q2")
    for doc, fine in FINE.items()
)
NAME = "Whole study"
NO_CONSENT = "NOCONSENT42"


@pytest.fixture(autouse=True)
def email_sent(settings):
    """The live server sends e-mail (Django's test outbox)."""
    settings.EARSHOT_EMAIL_ENABLED = True


def create_the_collection_and_upload(page, folder):
    create_a_collection(page, NAME)
    expect(page.get_by_text("0 clips · 0 queries · 0 systems")).to_be_visible()

    audio = tone_files(folder, CLIPS)
    (folder / "runs.txt").write_text(RUNS)
    (folder / "judgments.txt").write_text(JUDGMENTS)
    uploads = [  # the uploads page's link, the job's title, the form's field, the counts
        ("Upload audio clips", "audio clips", "Audio files or a zip of them", audio,
         {"Clips created": "8"}),
        ("Upload run files", "runs", "Run files", folder / "runs.txt",
         {"Systems created": "3", "Queries created": "2", "Run entries created": "18"}),
        ("Upload judgments", "judgments", "Judgments file", folder / "judgments.txt",
         {"Judgments created": "12"}),  # 6 clips × 2 queries
    ]  # fmt: skip
    upload_through_the_pages(page, NAME, uploads)
    expect(page.get_by_text("8 clips · 2 queries · 3 systems")).to_be_visible()
    sources = page.get_by_role("region", name="Judgment sources")
    expect(sources.get_by_role("row", name=re.compile(r"^judgments\.txt "))).to_contain_text(
        "imported file (judgments.txt) 12 official: counts"
    )


def invite_an_assessor(page) -> str:
    """The People page makes the account and e-mails the link; returns the e-mailed link."""
    page.get_by_role("link", name="People").click()
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Email").fill("bea@example.org")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("It was e-mailed to bea@example.org")).to_be_visible()
    shown = page.get_by_role("textbox", name="Invitation link").input_value()
    [message] = mail.outbox
    assert message.to == ["bea@example.org"]
    [link] = re.findall(r"https?://\S+/invitation/\S+/", message.body)
    assert link == shown
    return link


def start_a_relevance_campaign(page):
    page.get_by_role("link", name="Collections").first.click()
    page.get_by_role("link", name=NAME).click()
    page.get_by_role("link", name="New relevance campaign").click()
    page.get_by_label("Name").fill("Similarity")
    page.get_by_label("Cutoff k").fill("2")
    page.get_by_label("Must listen (seconds)").fill("1")
    page.get_by_label("bea").check()
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name="Similarity")).to_be_visible()


SCORES = [("Very similar", 85), ("Somewhat similar", 55), ("Not similar", 15)]
"""What the assessor hears in the candidates, in turn (Broad and Fine agreeing)."""


def the_assessor_judges(page, link: str) -> int:
    """The assessor sets a password through the e-mailed link and judges one query by ear:
    the query, then each candidate, played one at a time until its controls unlock, then
    scored. Returns how many candidates were judged."""
    page.goto(link)
    expect(page.get_by_role("heading", name="Welcome to Earshot, bea")).to_be_visible()
    page.get_by_label("New password").fill("a long pass phrase 42")
    page.get_by_label("The same password again").fill("a long pass phrase 42")
    page.get_by_role("button", name="Set my password").click()
    expect(page.get_by_role("heading", name="Similarity")).to_be_visible()
    page.get_by_role("button", name="Get next query").click()
    expect(
        page.get_by_role("heading", name="How similar is each candidate to the query?")
    ).to_be_visible()
    n = page.locator("section.candidate").count()
    # The pool: the union of the systems' top 2 (RANKED): q1 d1 d2 d5 d6, q2 d4 d5 d1 d2 d3.
    assert n in (4, 5)
    page.get_by_label("Query clip").evaluate("a => a.play()")
    page.wait_for_function("() => document.getElementById('query-audio').ended")
    for number in range(1, n + 1):
        region = page.get_by_role("region", name=f"Candidate {number}", exact=True)
        expect(region.get_by_role("radio", name="Not similar")).to_be_disabled()
        region.locator("audio").evaluate("a => a.play()")
        expect(region.get_by_role("radio", name="Not similar")).to_be_enabled()  # heard
        broad, fine = SCORES[(number - 1) % len(SCORES)]
        region.get_by_text(broad, exact=True).click()
        region.get_by_role("spinbutton", name="Fine score value").fill(str(fine))
        region.get_by_role("spinbutton", name="Fine score value").press("Tab")
        expect(page.get_by_text(f"Candidates done {number} of {n}")).to_be_visible()
    expect(page.get_by_text("This query is done.")).to_be_visible()
    expect(page.locator("#save-status")).to_have_text("All changes saved")
    return n


def create_a_crowd_campaign(page) -> None:
    """A preference campaign with small settings an organiser chooses on the page: lists of
    2 clips, a 1-question quiz, no trap questions mixed into the work, 2 tasks a worker,
    1 s on each task (the listening check itself stays on); then examples from the
    generator, one per |Δλ| bin, after its confirmation."""
    page.get_by_role("link", name=NAME, exact=True).click()
    page.get_by_role("link", name="New preference campaign").click()
    settings = {
        "Name": "Which list", "Clips in each list": "2", "Tasks per worker at most (M)": "2",
        "Quiz length (Q)": "1", "Trap rate": "0", "Listening check: seconds on each task at least": "1",
        "No-consent code": NO_CONSENT,  # Prolific's, for those who do not consent
    }  # fmt: skip
    for label, value in settings.items():
        page.get_by_label(f"{label}:", exact=True).fill(value)
    expect(
        page.get_by_label("Refuse answers without listening (checked by the server):")
    ).to_be_checked()
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name="Which list")).to_be_visible()
    # The judgments make a quiz question for each worker (issue 29): created open, as asked.
    expect(
        page.get_by_text("questions made from the official judgments for each worker")
    ).to_be_visible()

    page.get_by_role("link", name="Example generator").click()
    page.get_by_label("Examples per bin").fill("1")
    page.get_by_role("button", name="Run the generator").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Add up to 10 examples to “Which list”?")
    dialog.get_by_role("button", name="Yes, add them").click()
    expect(page).to_have_url(re.compile(r"/jobs/\d+/(result/)?$"))
    expect(page).to_have_url(re.compile(r"/jobs/\d+/result/$"))
    expect(page.get_by_role("heading", name="Example generator: done")).to_be_visible()
    expect(page.get_by_text(re.compile(r"\d+ new examples added to the campaign"))).to_be_visible()
    page.get_by_role("link", name="Campaign").click()


def mark_quiz_questions(page, wanted: int) -> None:
    """The organiser marks quiz questions of their own (each goes to one worker, before any
    made from the judgments): the examples whose lists differ most, reading each list's λ
    on the example's trap page, with the better list as the accepted answer."""
    page.get_by_role("link", name="Examples and their answers").click()
    rows = page.locator("table tbody tr")
    ids = rows.locator("td:first-child").all_inner_texts()
    marked = 0
    for example in ids:
        page.get_by_role("row").filter(
            has=page.get_by_role("cell", name=example, exact=True)
        ).get_by_role("link", name="mark").click()
        lambdas = {}
        for side in ("A", "B"):
            heading = page.get_by_role("heading", name=re.compile(f"^List {side}: λ = "))
            lambdas[side] = float(heading.inner_text().rsplit("=", 1)[1])
        if abs(lambdas["A"] - lambdas["B"]) < 0.2:
            page.get_by_role("link", name="Examples of Which list").click()
            continue
        better = max(lambdas, key=lambdas.get)
        page.get_by_label(f"{better} is better", exact=True).check()
        page.get_by_label("quiz (shown first, with feedback)").check()
        page.get_by_role("button", name="Save trap question").click()
        expect(page.get_by_text(f"Example {example} is a trap question.")).to_be_visible()
        marked += 1
        if marked == wanted:
            break
    assert marked == wanted


def delete_and_restore_an_example(page) -> None:
    rows = page.locator("table tbody tr")
    plain = rows.filter(has=page.get_by_role("link", name="mark", exact=True)).first
    example = plain.locator("td").first.inner_text()
    plain.get_by_role("link", name=f"Delete example {example}", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Delete example “"))).to_be_visible()
    expect(page.get_by_text("example items")).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("It can be restored below for 30 days")).to_be_visible()
    page.get_by_role("button", name=re.compile("^Restore example “")).click()
    expect(page.get_by_text(re.compile("^Restored "))).to_be_visible()  # on the examples page


def open_the_campaign(page) -> None:
    """The organiser closes the campaign while it has no workers and opens it again on its
    settings page (from the examples page, where restoring the example brought them back):
    its pools are what its settings need."""
    page.get_by_role("link", name="Which list", exact=True).click()
    page.get_by_role("link", name="Settings", exact=True).click()
    page.get_by_role("button", name="Close the campaign").click()
    page.get_by_role("button", name="Open the campaign").click()
    expect(page.get_by_role("heading", name="Open", exact=True)).to_be_visible()
    page.get_by_role("link", name="Which list", exact=True).click()


def test_an_organiser_runs_a_whole_study_from_an_empty_installation(
    page, live_server, celery_worker_process, tmp_path
):
    dead_ends = NoDeadEnds()
    dead_ends.watch(page)
    make_user("olivia", ORGANISER)  # by an administrator: the only row before the study
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    # 1–2. The collection, from uploads with each form's default options.
    log_in(page, "olivia", PASSWORD)
    expect(page.get_by_text("No collections yet.")).to_be_visible()
    create_the_collection_and_upload(page, tmp_path)

    # 3. An assessor, invited by e-mail, judges a query by ear.
    page.get_by_role("link", name="Collections").first.click()
    link = invite_an_assessor(page)
    start_a_relevance_campaign(page)
    assessor = browser(page, dead_ends, live_server.url, "Assessor's browser")
    judged = the_assessor_judges(assessor, link)
    assessor.context.close()
    page.reload()  # the organiser's campaign page: one query done of one, its judgments
    expect(page.get_by_role("row", name=re.compile(rf"^bea 1 1 {judged} "))).to_be_visible()

    # 4. A crowd campaign from the generator; an example deleted and restored.
    create_a_crowd_campaign(page)
    mark_quiz_questions(page, 2)
    delete_and_restore_an_example(page)
    open_the_campaign(page)

    # 5. Prolific: the copied study URL brings three participants.
    expect(page.get_by_text("The trap pools are too small")).to_have_count(0)
    copied = copy_with(page, "Copy the study URL")
    completion = page.get_by_label("Completion code").input_value()
    screen_out = page.get_by_label("Screen-out code").input_value()
    declines, careful, hasty = (
        browser(page, dead_ends, live_server.url, f"Participant {n}") for n in (1, 2, 3)
    )
    decline(declines, study_url(copied, "p-declines"), NO_CONSENT)

    for worker, pid in ((careful, "p-careful"), (hasty, "p-hasty")):
        worker.goto(study_url(copied, pid))
        consent(worker)
        expect(worker.get_by_text("Qualification question 1 of 1")).to_be_visible()
        worker.evaluate(LISTEN)  # both listen at once, each on their own computer
    answer_once_ready(careful, right_choice(current_task(careful)))
    expect(careful.get_by_role("status")).to_contain_text("Right")
    answer_once_ready(hasty, wrong_choice(current_task(hasty)))
    expect(hasty.get_by_role("status")).to_contain_text("The expected answer is")
    careful.get_by_role("link", name="Continue").click()
    expect(careful.get_by_text("Task 2 of at most 2")).to_be_visible()
    careful.evaluate(LISTEN)
    hasty.get_by_role("link", name="Continue").click()
    finish(hasty)  # stopped at the end of the quiz, and told only when finishing
    expect(hasty.get_by_role("heading", name="Thank you for your time")).to_be_visible()
    expect(hasty.get_by_label("Screen-out code")).to_have_text(screen_out)

    # The organiser looks again and reinstates the hasty worker, who may go on.
    page.get_by_role("link", name="Workers page").click()
    hasty_id = prolific_id("p-hasty")
    expect(page.get_by_role("row", name=re.compile(f"^{hasty_id} "))).to_contain_text("stopped")
    page.get_by_role("button", name=f"Reinstate {hasty_id}").click()
    expect(page.get_by_text(f"Worker {hasty_id} reinstated; answers recomputed.")).to_be_visible()
    hasty.goto(study_url(copied, "p-hasty"))  # back through the study's link on Prolific
    expect(hasty.get_by_text("you may go on with the study")).to_be_visible()
    hasty.evaluate(LISTEN)
    for worker, choice in ((careful, "a_better"), (hasty, "b_better")):
        answer_once_ready(worker, choice)
        finish(worker)
        expect(worker.get_by_label("Completion code")).to_have_text(completion)

    # 6. The organiser reads the results: answers, then the leaderboard of the systems.
    page.get_by_role("link", name="Which list").click()
    # Accepted: the two tasks outside the quiz (trap questions are never accepted answers);
    # all 4 answers count again since the reinstatement; the declining one stays active.
    figures = page.locator("dl.figures")
    expect(figures).to_contain_text(re.compile(r"Accepted answers\s*2 of "))
    expect(figures).to_contain_text(re.compile(r"All answers\s*4 \(0 excluded\)"))
    expect(figures).to_contain_text(re.compile(r"Workers\s*3 · 1 active · 2 finished"))
    page.get_by_role("link", name="Answers page").click()
    answers = page.locator("table tbody tr")
    expect(answers).to_have_count(4)  # each of the two: the quiz question and a task
    expect(answers.filter(has_text=hasty_id).filter(has_text="missed")).to_have_count(1)
    expect(answers.get_by_role("cell", name="accepted", exact=True)).to_have_count(2)
    page.get_by_role("link", name="Which list").click()
    page.get_by_role("link", name=NAME).click()
    page.get_by_role("link", name="Results").click()
    board = page.get_by_role("link", name="Leaderboard of CG(scale=fine)@5")
    expect(board.or_(page.get_by_role("link", name="Show them"))).to_be_visible()
    if not board.is_visible():
        page.get_by_role("link", name="Show them").click()
    board.click()
    systems = page.locator("#leaderboard tbody tr td:nth-child(2)")
    expect(systems).to_have_count(3)
    assert sorted(systems.all_inner_texts()) == ["S1", "S2", "S3"]
    # No test can reach α = 0.05 with 2 queries: every system shares the letter "a".
    expect(page.locator("#leaderboard tbody td.letters")).to_have_text(["a", "a", "a"])
    warnings = page.get_by_role("region", name="What these results cannot say")
    expect(warnings).to_contain_text("2 judged queries are too few for significance tests")
    # Every clip of the lists is judged: the empty 4th and 5th ranks are no unjudged clips.
    expect(warnings).not_to_contain_text("Unjudged documents")
    shot(page, "whole-study-leaderboard")

    assert not dead_ends.bad, f"error pages on the way: {dead_ends.bad}"
