"""In Chromium, with the real Celery worker: the issue's path without a shell — create a
collection, upload the MIREX 2011 bundle and a folder of audio, import a CrowdFlower export
through its column mapping — watching each upload's progress to its result page.

Expected counts: the MIREX 2011 files' README (9,000 run lines, 6,322 judgments, 7,000
metadata lines; 18 systems × 100 queries); the small audio folder and export are the test's.
"""

import re

from playwright.sync_api import expect

from catalog.models import Clip, Collection
from crowd.models import Answer
from tests.helpers.browser import REAL_WORKER_JOURNEY, count, log_in, shot, watch_to_the_result
from tests.helpers.personas import PASSWORD
from tests.helpers.shared_data import MIREX2011, require
from tests.helpers.uploads import EXPORT, MP3, WAV
from work.models import Job

pytestmark = REAL_WORKER_JOURNEY


def test_an_organiser_builds_a_collection_from_uploads_and_watches_each_import(
    page, personas, celery_worker_process, tmp_path
):
    folder = require(MIREX2011)
    log_in(page, personas.organiser.username, PASSWORD)
    page.get_by_role("link", name="New collection").click()
    page.get_by_label("Name").fill("MIREX 2011")
    page.get_by_role("button", name="Create collection").click()
    page.get_by_role("link", name="Upload files").click()
    expect(page.get_by_role("heading", name="Upload into “MIREX 2011”")).to_be_visible()

    page.get_by_role("link", name="Upload a MIREX bundle").click()
    expect(page.get_by_text("At most 2000000 data lines per file")).to_be_visible()
    for name in ("runs", "judgments", "metadata"):
        page.get_by_label(f"{name}.tsv").set_input_files(folder / f"{name}.tsv")
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of MIREX bundle")
    shot(page, "upload-mirex-result")
    expect(count(page, "Systems created")).to_have_text("18")
    expect(count(page, "Queries created")).to_have_text("100")
    expect(count(page, "Run entries created")).to_have_text("9000")
    expect(count(page, "Judgments created")).to_have_text("6322")
    collection = Collection.objects.get(name="MIREX 2011")
    assert collection.judgment_sources.get().name == "judgments.tsv"

    # A folder of audio: several files chosen at once, one of them not audio at all.
    page.get_by_role("link", name="Uploads").click()
    page.get_by_role("link", name="Upload audio clips").click()
    audio = tmp_path / "audio"
    audio.mkdir()
    for name, content in (("s1.wav", WAV), ("s2.wav", WAV), ("s3.mp3", MP3)):
        (audio / name).write_bytes(content)
    (tmp_path / "setup.exe").write_bytes(b"MZ")
    page.get_by_label("Audio files or a zip of them").set_input_files(tmp_path / "setup.exe")
    page.get_by_role("button", name="Upload and import").click()  # sent with a progress bar
    expect(page.get_by_role("alert")).to_contain_text("setup.exe: '.exe' files are not accepted")
    (audio / "notes.mp3").write_bytes(b"these are my notes")
    page.get_by_label("Audio files or a zip of them").set_input_files(sorted(audio.iterdir()))
    page.get_by_role("button", name="Upload and import").click()
    expect(page).to_have_url(re.compile(r"/jobs/\d+/result/$"), timeout=90_000)
    expect(page.get_by_role("alert")).to_contain_text("notes.mp3: not MP3 audio")
    expect(page.get_by_text("Nothing was changed.")).to_be_visible()
    (audio / "notes.mp3").unlink()
    page.goto(f"/collections/{collection.pk}/uploads/clips/")
    page.get_by_label("Audio files or a zip of them").set_input_files(sorted(audio.iterdir()))
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of audio clips")
    expect(count(page, "Clips created")).to_have_text("3")
    assert Clip.objects.get(collection=collection, external_id="s1").audio

    # A CrowdFlower export: the column mapping is proposed from the thesis study's names.
    page.get_by_role("link", name="Uploads").click()
    page.get_by_role("link", name="Upload preference answers").click()
    export = tmp_path / "f123456.csv"
    export.write_bytes(EXPORT)
    page.get_by_label("Answers file (CSV)").set_input_files(export)
    page.get_by_label("a CrowdFlower / Appen job export").check()
    page.get_by_label("Campaign").fill("CrowdFlower 2012")
    page.get_by_role("button", name="Upload and import").click()
    expect(page.get_by_role("heading", name="Columns of f123456.csv")).to_be_visible()
    expect(page.get_by_label("Query:", exact=True)).to_have_value("q")
    expect(
        page.get_by_role("textbox", name="List A (columns, best first):", exact=True)
    ).to_have_value("d1a d2a")
    expect(page.get_by_label("Answer “Both are good” means")).to_have_value("both_good")
    expect(page.get_by_label("_golden")).to_be_checked()
    shot(page, "upload-crowdflower-columns")
    page.get_by_label("Comment:", exact=True).select_option("comments")
    page.get_by_role("button", name="Import with these columns").click()
    watch_to_the_result(page, "Upload of preference answers")
    expect(count(page, "Answers created")).to_have_text("3")
    expect(page.get_by_text("1 row(s) left out: _golden is true.")).to_be_visible()
    shot(page, "upload-crowdflower-result")
    page.get_by_role("link", name="Open the campaign “CrowdFlower 2012”").click()
    expect(page.get_by_role("heading", name=re.compile("CrowdFlower 2012"))).to_be_visible()
    assert Answer.objects.filter(example__campaign__collection=collection).count() == 3
    assert Job.objects.filter(state="done").count() == 3


def test_judgments_before_runs_and_a_trec_run_upload_in_the_order_the_page_gives(
    page, personas, celery_worker_process, tmp_path
):
    """Issue 31, items 4 and 10: judgments before the runs failed with "unknown query" and
    nothing said runs come first; '.trec' runs were refused by name; a small upload said
    "0.0 MB of 0.0 MB"."""
    collection = Collection.objects.create(name="By the book", owner=personas.organiser)
    for clip in ("q1", "d1", "d2", "d3"):
        Clip.objects.create(collection=collection, external_id=clip)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{collection.pk}/uploads/")
    order = page.get_by_role("list").filter(has_text="Upload audio clips")
    expect(order.get_by_role("listitem")).to_have_text(
        [re.compile("^Upload audio clips"), re.compile("^Upload run files"),
         re.compile("^Upload judgments")]
    )  # fmt: skip

    page.get_by_role("link", name="Upload judgments").click()
    expect(page.get_by_text("Step 3, after the audio and the runs")).to_be_visible()
    expect(page.get_by_label("Make query ids that name clips into queries")).to_be_checked()
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\n")
    page.get_by_label("Judgments file").set_input_files(qrels)
    page.evaluate(
        """() => {
            const figures = document.querySelector("#sending .figures");
            new MutationObserver(() => {
                const seen = JSON.parse(sessionStorage.getItem("figures") || "[]");
                sessionStorage.setItem("figures", JSON.stringify([...seen, figures.textContent]));
            }).observe(figures, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of judgments")
    expect(count(page, "Queries created")).to_have_text("1")
    figures = page.evaluate("() => JSON.parse(sessionStorage.getItem('figures') || '[]')")
    assert figures and all(re.fullmatch(r"\d+ (bytes|KB) of \d+ (bytes|KB)", f) for f in figures)

    page.get_by_role("link", name="Uploads").click()
    page.get_by_role("link", name="Upload run files").click()
    run = tmp_path / "system-a.trec"
    run.write_text("q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.5 A\nq1 Q0 d3 3 0.1 A\n")
    page.get_by_label("Run files").set_input_files(run)
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of runs")
    expect(count(page, "Run entries created")).to_have_text("3")
