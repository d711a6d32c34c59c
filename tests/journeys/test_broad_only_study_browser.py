"""In Chromium, with the real Celery worker: issue 31's whole study on a collection judged on
the Broad scale alone, from nothing, run on Prolific ("Done when" of issue 31).

An organiser (made by an administrator: not part of the flow) creates a collection and
uploads 1 s tones, a runs file named ``.trec`` (TREC run format, 3 systems) and TREC qrels
with Broad levels 0/1/2 and no Fine score, each through its upload page with the form's
default options; makes a closed preference campaign with examples from the systems' lists,
fills the trap pools in one click with "Fill the pools from the official judgments" (no
trap question marked by hand before the campaign opens) and opens it; then marks one
quiz question of their own, writing its explanation without naming a side, as the trap
page asks. Four participants arrive through the copied Prolific URL: one declines consent,
one fails the quiz on a task whose lists were shown the other way round and reads feedback
whose expected answer and explanation both name the side where they heard the better list,
one passes and finishes with the completion code, one quits after the quiz. The organiser
downloads the approvals and each person's recommendation follows the page they were shown
(``crowd/selectors/approvals.py``), and opens the satisfaction mapping, shown with a
Broad measure and saying why.

No page a person opens (any navigation, in any of the five browsers) may be a 4xx or 5xx
page, and no page may log a script or Content-Security-Policy error. Audio is 1 s long,
the campaign asks for 1 s of listening and the quiz has one question, as in
``test_whole_study_browser.py``.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from playwright.sync_api import expect

from common.roles import ORGANISER
from crowd.models import Worker
from tests.helpers.browser import REAL_WORKER_JOURNEY, current_task, log_in, shot
from tests.helpers.clipboard import copy_with
from tests.helpers.crowd_fixtures import right_choice, wrong_choice
from tests.helpers.personas import PASSWORD, make_user
from tests.helpers.platform_links import prolific_id
from tests.helpers.trap_pools import fill_broad_only_pools_and_open
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
    "q1": (".wav", 440), "q2": (".flac", 330), "q3": (".ogg", 550),
    "d1": (".wav", 450), "d2": (".ogg", 460), "d3": (".flac", 500),
    "d4": (".wav", 600), "d5": (".ogg", 700), "d6": (".flac", 880),
}  # fmt: skip
BROAD = {  # query: {clip: Broad level}, every candidate judged (0 Not, 1 Somewhat, 2 Very similar)
    "q1": {"d1": 2, "d2": 2, "d3": 1, "d4": 1, "d5": 0, "d6": 0},
    "q2": {"d3": 2, "d4": 2, "d5": 1, "d6": 1, "d1": 0, "d2": 0},
    "q3": {"d5": 2, "d6": 2, "d1": 1, "d2": 1, "d3": 0, "d4": 0},
}
RANKED = {  # (system, query): its top 3, best first. S1 ranks two Very similar clips first,
    # S2 one Very and one Not similar, S3 two Not similar (BROAD).
    ("S1", "q1"): "d1 d2 d3", ("S2", "q1"): "d1 d5 d3", ("S3", "q1"): "d5 d6 d4",
    ("S1", "q2"): "d3 d4 d5", ("S2", "q2"): "d3 d1 d5", ("S3", "q2"): "d1 d2 d6",
    ("S1", "q3"): "d5 d6 d1", ("S2", "q3"): "d5 d3 d1", ("S3", "q3"): "d3 d4 d2",
}  # fmt: skip
RUNS = "".join(  # TREC run lines (qid Q0 docid rank score tag): the score falls with the rank
    f"{query} Q0 {doc} {rank} {4 - rank}.0 {system}\n"
    for (system, query), docs in RANKED.items()
    for rank, doc in enumerate(docs.split(), start=1)
)  # 3 systems × 3 queries × 3 clips = 27 lines
QRELS = "".join(  # TREC qrels (qid iter docno rel): Broad levels only
    f"{query} 0 {doc} {level}\n" for query, levels in BROAD.items() for doc, level in levels.items()
)  # 3 queries × 6 clips = 18 lines
NAME = "Broad-only study"
CAMPAIGN = "Which list sounds closer"
NO_CONSENT = "NOCONSENT31"

SWAPPING_SEED = 3
"""A worker seed whose first task shows the stored lists the other way round: the side of
each task is drawn from the worker's seed and the task's place (``crowd.services.tasks``),
so the participant meant to fail the quiz on swapped sides is given this seed on arrival,
before their first task is served; the test checks the task is swapped rather than trusting it."""

EXPLAINED = "The clips of {better} were judged more similar to the query than those of {worse}."
"""The organiser's side-neutral explanation of their quiz question: the placeholders {a} and
{b} are filled in with the lists' names in each worker's orientation."""


def upload_the_collection(page, folder: Path) -> None:
    """The clips, the ``.trec`` runs and the Broad-only qrels, each through its upload page
    with the form's default options (the format read from the content)."""
    create_a_collection(page, NAME)
    audio = tone_files(folder, CLIPS)
    (folder / "systems.trec").write_text(RUNS)
    (folder / "judgments.qrels").write_text(QRELS)
    uploads = [  # the uploads page's link, the job's title, the form's field, the counts
        ("Upload audio clips", "audio clips", "Audio files or a zip of them", audio,
         {"Clips created": "9"}),
        ("Upload run files", "runs", "Run files", folder / "systems.trec",
         {"Systems created": "3", "Queries created": "3", "Run entries created": "27"}),
        ("Upload judgments", "judgments", "Judgments file", folder / "judgments.qrels",
         {"Judgments created": "18"}),  # QRELS: 3 queries × 6 clips
    ]  # fmt: skip
    upload_through_the_pages(page, NAME, uploads)
    expect(page.get_by_text("9 clips · 3 queries · 3 systems")).to_be_visible()


def make_the_campaign(page) -> None:
    """A closed campaign of lists of 2 clips, a 1-question quiz, a trap rate of 0.25,
    3 tasks a worker at most, 1 s on each task; then the examples of three pairs of systems."""
    page.get_by_role("link", name="New preference campaign").click()
    settings = {
        "Name": CAMPAIGN, "Clips in each list": "2", "Tasks per worker at most (M)": "3",
        "Quiz length (Q)": "1", "Trap rate": "0.25",
        "Listening check: seconds on each task at least": "1", "No-consent code": NO_CONSENT,
    }  # fmt: skip
    for label, value in settings.items():
        page.get_by_label(f"{label}:", exact=True).fill(value)
    page.get_by_label("Open to workers:", exact=True).uncheck()  # opened once its pools are in
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name=CAMPAIGN)).to_be_visible()
    # Lists of 2 (RANKED's first two clips, BROAD's levels): S1 2+2, S2 2+0, S3 0+0 on every
    # query, so each pair's lists differ on all 3 queries: 3 examples a pair.
    for first, second in (("S1", "S3"), ("S2", "S3"), ("S1", "S2")):
        page.get_by_label("System a").select_option(label=first)
        page.get_by_label("System b").select_option(label=second)
        page.get_by_role("button", name="Add the two systems' lists").click()
        expect(page.get_by_text("3 examples added.")).to_be_visible()


def fill_the_pools_and_open(page) -> None:
    """One click marks the work trap questions from the Broad levels; then the campaign opens.

    How many (``trap_pools_fill``, ``crowd/selectors/integrity.py``): the quiz needs none
    (the judgments make a quiz question for each worker: q1's clips d1, d2 of level 1 against
    d5, d6 of level 0 lead by 1 ≥ 0.4, ``evaluation/core/clear_cut.py``); the work pool
    needs ⌈n · p / (1 − p)⌉ trap questions beside n ordinary examples at p = 0.25, so with
    9 examples the least k with k ≥ ⌈(9 − k) / 3⌉ is 3 (k = 2: 2 < ⌈7/3⌉ = 3; k = 3:
    3 ≥ ⌈6/3⌉ = 2). Every example is clear-cut (lists' mean level, Broad / 2: S1 1.0, S2
    0.5, S3 0.0; S1–S3 and S2–S3 lead by ≥ 0.4, S1–S2 by 0.5), all from one source, so
    the 3 are drawn (the source's cap ⌊1.35 · 3⌋ = 4 ≥ 3)."""
    expect(page.get_by_text("The trap pools are too small")).to_be_visible()
    fill_broad_only_pools_and_open(page, work=3)
    page.get_by_role("link", name=CAMPAIGN, exact=True).click()


def mark_a_quiz_question(page) -> tuple[int, str]:
    """The organiser makes an example the fill left alone a quiz question of their own,
    reading each list's Broad levels on its trap page (every example's lists differ by at
    least 1 on average: S1's 2 and 2, S2's 2 and 0, S3's 0 and 0); the explanation first
    names a side, is refused, and is written again with {a} and {b}. Returns the example's
    id and the side of its better list as the trap page shows it ("A" or "B")."""
    page.get_by_role("link", name="Examples and their answers").click()
    plain = page.locator("table tbody tr").filter(
        has=page.get_by_role("link", name="mark", exact=True)
    )
    expect(plain).to_have_count(6)  # 9 examples, 3 of them trap questions since the fill
    example = plain.first.locator("td").first.inner_text()
    plain.first.get_by_role("link", name="mark", exact=True).click()
    expect(
        page.get_by_role("heading", name=f"Example {example} as a trap question")
    ).to_be_visible()
    lists = page.locator(".lists-plain table")
    means = {}
    for n, side in enumerate("AB"):  # the Broad column of each list's table
        levels = lists.nth(n).locator("tbody td:nth-child(4)").all_inner_texts()
        assert len(levels) == 2, levels
        means[side] = sum(float(level) for level in levels) / len(levels)
    assert abs(means["A"] - means["B"]) >= 1, means
    better = max(means, key=means.get)
    worse = "B" if better == "A" else "A"
    page.get_by_label(f"{better} is better", exact=True).check()
    page.get_by_label("quiz (shown first, with feedback)").check()
    explanation = page.get_by_label("Explanation")
    explanation.fill(f"List {better} has clips judged closer to the query; {worse} does not.")
    page.get_by_role("button", name="Save trap question").click()
    expect(page.get_by_text(f"The explanation names a side (“List {better}”)")).to_be_visible()
    written = EXPLAINED.format(better=f"{{{better.lower()}}}", worse=f"{{{worse.lower()}}}")
    explanation.fill(written)
    page.get_by_role("button", name="Save trap question").click()
    expect(page.get_by_text(f"Example {example} is a trap question.")).to_be_visible()
    page.get_by_role("link", name=CAMPAIGN, exact=True).click()
    return int(example), better


def test_an_organiser_runs_a_broad_only_study_on_prolific_from_nothing(
    page, live_server, celery_worker_process, tmp_path
):
    dead_ends = NoDeadEnds()
    dead_ends.watch(page)
    make_user("olivia", ORGANISER)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    # 1. The collection from uploads: clips, a .trec runs file, Broad-only qrels.
    log_in(page, "olivia", PASSWORD)
    upload_the_collection(page, tmp_path)

    # 2. The campaign: examples from the systems, pools filled in one click, opened; then
    # a quiz question of the organiser's own with a side-neutral explanation.
    make_the_campaign(page)
    fill_the_pools_and_open(page)
    quiz_example, better = mark_a_quiz_question(page)

    # 3. Prolific: the copied study URL brings four participants.
    copied = copy_with(page, "Copy the study URL")
    completion = page.get_by_label("Completion code").input_value()
    screen_out = page.get_by_label("Screen-out code").input_value()
    declines, fails, passes, quits = (
        browser(page, dead_ends, live_server.url, f"Participant {n}") for n in range(1, 5)
    )
    decline(declines, study_url(copied, "p-declines"), NO_CONSENT)

    # The one who fails arrives first, so is served the organiser's quiz question (the
    # quiz pool's questions go first, one worker each), on swapped sides (SWAPPING_SEED).
    fails.goto(study_url(copied, "p-fails"))
    expect(fails.get_by_role("heading", name="Before you start")).to_be_visible()
    Worker.objects.filter(platform_id=prolific_id("p-fails")).update(seed=SWAPPING_SEED)
    for worker, pid in ((fails, "p-fails"), (passes, "p-passes"), (quits, "p-quits")):
        worker.goto(study_url(copied, pid))
        consent(worker)
        expect(worker.get_by_text("Qualification question 1 of 1")).to_be_visible()
        worker.evaluate(LISTEN)  # all listen at once, each on their own computer
    task = current_task(fails)
    assert task.example_id == quiz_example, "the organiser's quiz question goes first"
    assert task.swapped, f"seed {SWAPPING_SEED} no longer swaps the first task: choose another"
    seen_better = {"A": "B", "B": "A"}[better]  # the stored list a is shown as List B
    answer_once_ready(fails, wrong_choice(task))
    expect(fails.get_by_role("status")).to_contain_text(
        f"The expected answer is “{seen_better} is better”."
    )
    seen = {"better": f"List {seen_better}", "worse": f"List {better}"}
    expect(fails.locator("p.explanation")).to_have_text(EXPLAINED.format(**seen))

    answer_once_ready(passes, right_choice(current_task(passes)))
    expect(passes.get_by_role("status")).to_contain_text("Right")
    answer_once_ready(quits, right_choice(current_task(quits)))
    quits.context.close()  # gone after the quiz, on to nothing

    fails.get_by_role("link", name="Continue").click()
    finish(fails)  # stopped at the end of the quiz
    expect(fails.get_by_label("Screen-out code")).to_have_text(screen_out)

    passes.get_by_role("link", name="Continue").click()
    for number in (2, 3):  # M = 3: the quiz question and two tasks of work
        expect(passes.get_by_text(f"Task {number} of at most 3")).to_be_visible()
        passes.evaluate(LISTEN)
        answer_once_ready(passes, right_choice(current_task(passes)))
    finish(passes)
    expect(passes.get_by_label("Completion code")).to_have_text(completion)

    # 4. The approvals, downloaded from the campaign page: each person's recommendation
    # follows the page they were shown (crowd/selectors/approvals.py, docs/crowd-integrity.md §5).
    page.reload()
    figures = page.locator("dl.figures")
    expect(figures).to_contain_text(
        re.compile(r"Shown at the end\s*1 the completion code · 1 the screen-out page")
    )
    with page.expect_download() as info:
        page.get_by_role("link", name="every submission (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8"))))
    said = {row["participant_id"]: (row["recommendation"], row["reason"]) for row in rows}
    expected = {
        "p-passes": ("approve", "earned the completion code"),
        "p-fails": (
            "screen_out",
            "screened out (failed the qualification quiz): shown the screen-out code; Prolific "
            "pays the study's fixed screen-out reward for that code; never reject",
        ),
        "p-declines": (
            "not_earned",
            "declined to take part: shown the no-consent code; ask them to return the study, "
            "nothing to pay",
        ),
        "p-quits": (  # min_work_answers is 1 by default; they left after the quiz
            "not_earned",
            "0 of 1 work answers: shown no code; ask them to return the study, nothing to pay",
        ),
    }
    assert said == {prolific_id(name): want for name, want in expected.items()}
    assert (
        next(r for r in rows if r["recommendation"] == "approve")["completion_code"] == completion
    )

    # 5. The satisfaction mapping: a Broad measure by default, at the lists' length (2), and why.
    page.get_by_role("link", name="Satisfaction mapping").click()
    heading = page.get_by_role("heading", name="Satisfaction mapping: CG(scale=broad)@2")
    if page.get_by_text("No mapping yet").is_visible():
        page.get_by_role("button", name="Recompute the mapping").click()
    expect(heading.or_(page.get_by_role("link", name="Show them"))).to_be_visible(timeout=60_000)
    if not heading.is_visible():
        page.get_by_role("link", name="Show them").click()
    expect(heading).to_be_visible()
    expect(page.locator("p.measure-choice")).to_contain_text(
        "on the Broad scale, because this collection's judgments are on the Broad scale only"
    )
    expect(page.get_by_text("scores every list 0 and this mapping says nothing")).to_have_count(0)
    expect(page.locator("p.report")).to_contain_text(re.compile(r"Fitted sat\(λ\) = |No fit: \w"))
    shot(page, "broad-only-study-mapping")

    assert not dead_ends.bad, f"error pages on the way: {dead_ends.bad}"
