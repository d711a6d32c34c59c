"""Upload pages (ingest/views.py) and their jobs (ingest/services/upload_runners.py).

The task's body runs the jobs here (:func:`tests.helpers.uploads.run_jobs`); the real Celery worker
runs them in ``tests/journeys/test_uploads_browser.py``. Expected counts are those of the
small files written in each test, counted by hand.
"""

from __future__ import annotations

import html
import io
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from catalog.models import Clip, CollectionShare, JudgmentSource, RelevanceJudgment, RunEntry
from ingest.models import Upload
from tests.helpers.audio_files import sine_wav, tone
from tests.helpers.importing import table_snapshot
from tests.helpers.personas import make_user
from tests.helpers.uploads import (
    BUNDLE,
    EXPORT,
    MP3,
    WAV,
    counts,
    form_data,
    post,
    run_jobs,
    upload_dirs_root,
    zip_of,
)
from work import handoff
from work.jobs import NOT_SENT
from work.models import Job

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dirs")]


def test_every_upload_page_states_its_limits(organiser, personas):
    page = organiser.get(f"/collections/{personas.collection.pk}/uploads/").content.decode()
    for kind in ("clips", "runs", "judgments", "mirex", "answers"):
        assert f"/uploads/{kind}/" in page
        form = organiser.get(f"/collections/{personas.collection.pk}/uploads/{kind}/")
        text = form.content.decode()
        assert form.status_code == 200 and "At most 1.0\xa0GB in one upload" in text, kind
    judgments = organiser.get(f"/collections/{personas.collection.pk}/uploads/judgments/")
    assert "At most 2000000 data lines per file" in judgments.content.decode()


def test_a_mirex_bundle_is_imported_by_its_job_and_again_changes_nothing(organiser, personas):
    collection = personas.collection  # clips c1 c2 c3, query c1, system S1 (no entries)
    response = post(organiser, collection, "mirex", form_data(**BUNDLE))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert job.kind == "upload_mirex" and job.state == Job.QUEUED
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    got = counts(job)
    # metadata.tsv names c2 c3 n4 (n4 new); runs.tsv adds S2 and 4 entries; 3 judgments.
    assert got["clips created"] == 1 and got["systems created"] == 1
    assert got["run entries created"] == 4 and got["judgments created"] == 3
    assert RunEntry.objects.filter(query__collection=collection).count() == 4
    assert not (Upload.objects.get().folder and list((upload_dirs_root()).iterdir()))

    post(organiser, collection, "mirex", form_data(**BUNDLE))
    (again,) = run_jobs()
    got = counts(again)
    assert (got["run entries created"], got["run entries unchanged"]) == (0, 4)
    assert (got["judgments created"], got["judgments unchanged"]) == (0, 3)
    result = organiser.get(f"/jobs/{again.pk}/result/").content.decode()
    assert "Upload of MIREX bundle: done" in result and "Judgments unchanged" in result


def test_a_double_submit_while_queued_starts_one_job_and_keeps_one_copy(organiser, personas):
    first = post(organiser, personas.collection, "mirex", form_data(**BUNDLE))
    second = post(organiser, personas.collection, "mirex", form_data(**BUNDLE))
    assert first["Location"] == second["Location"]
    assert Job.objects.count() == 1 and Upload.objects.count() == 1
    assert len(list(upload_dirs_root().iterdir())) == 1


def test_a_broken_line_fails_the_job_with_file_line_and_problem_and_writes_nothing(
    organiser, personas
):
    before = table_snapshot()
    text = b"c1 0 c2 1\nc1 0 c3 7\n"  # qrels, Broad 7 on line 2
    post(organiser, personas.collection, "judgments", form_data(judgments=("q.qrels", text)))
    (job,) = run_jobs()
    assert (job.state, job.error_file, job.error_line) == (Job.FAILED, "q.qrels", 2)
    assert "Broad score '7' is out of range" in job.error
    assert table_snapshot() == before and not JudgmentSource.objects.exists()
    page = organiser.get(f"/jobs/{job.pk}/result/").content.decode()
    assert "q.qrels, line 2: Broad score" in page and "Nothing was changed." in page
    assert not list(upload_dirs_root().iterdir())  # the files are gone once the job has run


def test_bytes_that_are_not_utf8_name_their_line(organiser, personas):
    text = b"c1 c2 50\nc1 c3 40\n" + "c1 ç 3\n".encode("latin-1")
    post(organiser, personas.collection, "judgments", form_data(judgments=("j.txt", text)))
    (job,) = run_jobs()
    assert (job.error_file, job.error_line, job.error) == ("j.txt", 3, "not UTF-8 text")
    assert not RelevanceJudgment.objects.exists()


def test_judgments_go_into_the_named_source_and_a_pilot_is_left_out(organiser, personas):
    data = form_data({"source": "pilot run", "status": "pilot"},
                     judgments=("j.tsv", b"c1\tc2\t50\nc1\tc3\t40\n"))  # fmt: skip
    post(organiser, personas.collection, "judgments", data)
    (job,) = run_jobs()
    assert counts(job)["judgments created"] == 2
    source = JudgmentSource.objects.get(name="pilot run")
    assert source.status == JudgmentSource.PILOT and source.judgments.count() == 2
    assert "pilot: left out of results" in " ".join(job.result["notes"])


def test_an_uploaded_files_source_names_the_file_not_the_servers_upload_folder(organiser, personas):
    """The collection page shows where each judgment source came from: for an upload, the
    organiser's file, never the server's upload folder (issue 25's whole-study test met it)."""
    collection = personas.collection
    post(organiser, collection, "judgments", form_data(judgments=("j.tsv", b"c1\tc2\t50\n")))
    post(organiser, collection, "mirex", form_data(**BUNDLE))
    assert all(job.state == Job.DONE for job in run_jobs())
    origins = dict(JudgmentSource.objects.values_list("name", "origin"))
    assert origins == {"j.tsv": "j.tsv", "judgments.tsv": "judgments.tsv"}
    page = organiser.get(f"/collections/{collection.pk}/").content.decode()
    assert 'imported file <span class="muted">(j.tsv)</span>' in page
    assert str(upload_dirs_root()) not in page


def test_runs_of_several_files_are_imported_together_or_not_at_all(organiser, personas):
    good = ("a.run", b"c1 Q0 c2 1 0.9 S1\nc1 Q0 c3 2 0.5 S1\n")
    bad = ("b.run", b"c1 Q0 c2 1 0.9 S2\nc1 Q0 zz 2 0.5 S2\n")
    post(organiser, personas.collection, "runs", form_data(runs=[good, bad]))
    (job,) = run_jobs()
    assert (job.state, job.error_file, job.error_line) == (Job.FAILED, "b.run", 2)
    assert not RunEntry.objects.exists()
    post(organiser, personas.collection, "runs", form_data(runs=[good]))
    (job,) = run_jobs()
    assert counts(job)["run entries created"] == 2


def test_audio_files_and_a_zip_become_clips_with_their_metadata(organiser, personas):
    archive = zip_of(("folder/song1.wav", WAV), ("folder/song2.mp3", MP3),
                     ("__MACOSX/folder/._song1.wav", b"junk"),
                     ("meta.csv", b"id,title,artist\nsong1,First,Ann\nsong3,Third,Bo\n"))  # fmt: skip
    audio = [("all.zip", archive), ("song3.flac", tone(".flac"))]
    post(organiser, personas.collection, "clips", form_data(audio=audio))
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    got = counts(job)
    assert (got["clips created"], got["audio files stored"], got["metadata rows"]) == (3, 3, 2)
    song1 = Clip.objects.get(external_id="song1")
    assert (song1.title, song1.artist, round(song1.duration, 2)) == ("First", "Ann", 0.2)
    assert song1.audio and Clip.objects.get(external_id="song3").title == "Third"
    post(organiser, personas.collection, "clips", form_data(audio=audio))  # the same files again
    (again,) = run_jobs()
    assert counts(again)["clips unchanged"] == 3 and counts(again)["audio files stored"] == 0


def test_a_zips_progress_counts_its_files_and_clips_where_the_job_page_can_read_it(
    organiser, personas, monkeypatch
):
    """Issue 31: a zip of 60 clips showed an indeterminate "starting" for the whole job. Its
    progress was written inside the import's transaction, which nobody else sees until it
    commits; the files are now unpacked, read and copied for listeners before it."""
    from django.db import connection

    from work import jobs

    seen: list[tuple[str, int, int | None, bool]] = []
    depth = len(connection.savepoint_ids)  # the test's own transactions, before the job's
    original = jobs.JobReport.__call__

    def recording(self, done, total=None, message="", *, force=False):
        seen.append((message, done, total, len(connection.savepoint_ids) > depth))
        return original(self, done, total, message, force=True)

    monkeypatch.setattr(jobs.JobReport, "__call__", recording)
    archive = zip_of(("a.wav", WAV), ("b.wav", tone(".wav")), ("c.wav", sine_wav(0.3)))
    post(organiser, personas.collection, "clips", form_data(audio=("three.zip", archive)))
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    said = [message for message, *_ in seen]
    assert "unpacking three.zip: file 3 of 3" in said
    assert [m for m in said if m.startswith("clip ")] == [
        f"clip {n} of 3: reading its audio" for n in (1, 2, 3)
    ]
    assert "storing 3 clips" in said
    # Every word and figure reached the job's row from outside the import's transaction,
    # in thousandths that only grow.
    assert [message for message, _, _, inside in seen if inside] == []
    figures = [done for _, done, total, _ in seen if total == 1000]
    assert figures == sorted(figures) and figures[-1] == 1000


@pytest.mark.parametrize(
    ("members", "problem"),
    [
        ([("../evil.wav", WAV)], "member '../evil.wav': its path leaves the folder"),
        ([("/etc/evil.wav", WAV)], "member '/etc/evil.wav': an absolute or Windows path"),
        (
            [("a.wav", WAV), ("run.sh", b"rm -rf /")],
            "member 'run.sh': '.sh' files are not accepted",
        ),
        ([("fake.wav", b"<html>not audio</html>")], "member fake.wav: not WAV audio"),
        ([("x/a.wav", WAV), ("y/a.wav", WAV)], "member 'y/a.wav': a second file named a.wav"),
    ],
)
def test_a_hostile_zip_is_refused_by_name_and_nothing_is_imported(
    organiser, personas, members, problem
):
    before = table_snapshot()
    post(organiser, personas.collection, "clips", form_data(audio=("bad.zip", zip_of(*members))))
    (job,) = run_jobs()
    assert job.state == Job.FAILED and problem in f"{job.error_file}: {job.error}", job.error
    assert table_snapshot() == before
    assert not list(upload_dirs_root().iterdir())


def test_a_zip_bomb_is_stopped_by_its_declared_size_and_by_the_bytes_it_really_holds(
    organiser, personas, settings
):
    settings.EARSHOT_ZIP_MAX_BYTES = 100_000
    big = zip_of(("a.wav", WAV[:44] + b"\0" * 200_000))  # compresses to ~0.3 KB
    post(organiser, personas.collection, "clips", form_data(audio=("big.zip", big)))
    (job,) = run_jobs()
    assert "200,044 bytes once unpacked: at most 100,000" in job.error
    # A zip that declares 1,000 bytes and holds 200,044: Python's zipfile reads no more
    # than the declared size and then finds the checksum wrong (our own count of the bytes
    # unpacked is the second guard, for a reader that would read on).
    liar = zip_of(("a.wav", WAV[:44] + b"\0" * 200_000), declared={"a.wav": 1000})
    post(organiser, personas.collection, "clips", form_data(audio=("liar.zip", liar)))
    (job,) = run_jobs()
    assert job.state == Job.FAILED and "a damaged zip (Bad CRC-32" in job.error, job.error
    settings.EARSHOT_ZIP_MAX_MEMBERS = 3
    many = zip_of(*[(f"s{i}.wav", WAV) for i in range(4)])
    post(organiser, personas.collection, "clips", form_data(audio=("many.zip", many)))
    (job,) = run_jobs()
    assert "4 members: at most 3 in one zip" in job.error
    assert not Clip.objects.filter(external_id__startswith="s").exists()


def test_a_file_of_the_wrong_kind_is_refused_before_anything_is_stored(organiser, personas):
    response = post(organiser, personas.collection, "clips", form_data(audio=("x.exe", b"MZ")))
    assert response.status_code == 400
    assert "x.exe: '.exe' files are not accepted" in html.unescape(response.content.decode())
    assert not Upload.objects.exists() and not Job.objects.exists()


def test_an_upload_over_the_limit_is_a_413_with_a_message(organiser, personas, settings):
    settings.EARSHOT_UPLOAD_MAX_BYTES = 1000
    settings.EARSHOT_UPLOAD_TEXT_MAX_BYTES = 500
    big = form_data(judgments=("j.tsv", b"c1 c2 50\n" * 20_000))
    response = post(organiser, personas.collection, "judgments", big)
    assert response.status_code == 413
    assert "one upload may be at most 1,000 bytes" in response.content.decode()
    small = form_data(judgments=("j.tsv", b"c1 c2 50\n" * 60))  # 540 bytes: over the text limit
    response = post(organiser, personas.collection, "judgments", small)
    assert response.status_code == 413 and "a text file may be at most 500 bytes" in (
        response.content.decode()
    )
    assert not Upload.objects.exists() and not list(upload_dirs_root().glob("*"))


def test_another_organisers_collection_is_a_404_and_a_read_only_share_a_403(client, personas):
    client.force_login(personas.other_organiser)
    url = f"/collections/{personas.collection.pk}/uploads/judgments/"
    data = form_data(judgments=("j.tsv", b"c1 c2 50\n"))
    assert client.get(url).status_code == 404
    assert client.post(url, data).status_code == 404
    CollectionShare.objects.create(
        collection=personas.collection, user=personas.other_organiser, access="read"
    )
    assert client.post(url, form_data(judgments=("j.tsv", b"c1 c2 50\n"))).status_code == 403
    client.force_login(personas.assessor)
    assert client.get(url).status_code == 403
    assert not Upload.objects.exists() and not Job.objects.exists()


def test_an_upload_without_its_csrf_token_is_refused(personas):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(personas.organiser)
    response = post(browser, personas.collection, "judgments", form_data(judgments=("j", b"x")))
    assert response.status_code == 403 and not Upload.objects.exists()


def test_with_a_dead_broker_the_job_says_so_keeps_its_files_and_can_be_sent_later(
    organiser, personas, monkeypatch, django_capture_on_commit_callbacks, handed_over
):
    def dead(name, *, kwargs):
        raise ConnectionError("Error 111 connecting to redis")

    monkeypatch.setattr(handoff, "send_task", dead)
    with django_capture_on_commit_callbacks(execute=True):
        post(organiser, personas.collection, "mirex", form_data(**BUNDLE))
    job = Job.objects.get()
    assert (job.state, job.error) == (Job.FAILED, NOT_SENT)
    page = organiser.get(f"/jobs/{job.pk}/result/").content.decode()
    assert "could not be reached" in page and "Try again" in page
    assert len(list(upload_dirs_root().iterdir())) == 1  # the files wait

    monkeypatch.setattr(handoff, "send_task", lambda name, *, kwargs: handed_over.append(name))
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(f"/jobs/{job.pk}/retry/")
    assert response.status_code == 302 and handed_over == [handoff.JOB_TASK]
    (job,) = run_jobs()
    assert job.state == Job.DONE and counts(job)["run entries created"] == 4
    assert organiser.post(f"/jobs/{job.pk}/retry/").status_code == 302  # a done job stays done
    assert Job.objects.get().state == Job.DONE


def test_a_read_only_co_organiser_cannot_send_a_job_again(client, personas):
    job = Job.objects.create(kind="upload_mirex", owner=personas.organiser,
                             collection=personas.collection, state=Job.FAILED, error=NOT_SENT)  # fmt: skip
    reader = make_user("rita", "organiser")
    CollectionShare.objects.create(collection=personas.collection, user=reader, access="read")
    client.force_login(reader)
    assert client.post(f"/jobs/{job.pk}/retry/").status_code == 403
    assert Job.objects.get().state == Job.FAILED


def test_uploads_left_waiting_are_cleaned_but_not_those_of_a_job_under_way(organiser, personas):
    from django.core.management import call_command

    post(organiser, personas.collection, "mirex", form_data(**BUNDLE))  # queued: kept
    data = form_data({"format": "crowdflower"}, answers=("f.csv", EXPORT))
    post(organiser, personas.collection, "answers", data)  # columns never chosen
    Upload.objects.update(created_at=timezone.now() - timedelta(days=8))
    out = io.StringIO()
    call_command("uploads_clean", "--days", "7", stdout=out)
    assert out.getvalue().strip() == "Deleted the files of 1 upload(s) left waiting."
    (kept,) = Upload.objects.all()
    assert kept.kind == "mirex" and [p.name for p in upload_dirs_root().iterdir()] == [kept.folder]


def test_the_size_is_refused_from_the_header_before_the_body_is_read(organiser, personas, settings):
    """A client announcing 5 GB gets its 413 at once: the body (here one byte, which could
    never be parsed as the multipart it claims to be) is not read, by the page or the API."""
    settings.EARSHOT_UPLOAD_MAX_BYTES = 1024 * 1024
    huge = {"content_type": "multipart/form-data; boundary=x", "CONTENT_LENGTH": str(5 * 1024**3)}
    page = organiser.post(f"/collections/{personas.collection.pk}/uploads/runs/", b"x", **huge)
    assert page.status_code == 413 and "The upload is 5,120.0 MB" in page.content.decode()
    api = organiser.post(f"/api/collections/{personas.collection.pk}/uploads/runs/", b"x", **huge)
    assert api.status_code == 413 and "at most 1.0 MB" in api.json()["detail"]


def test_a_file_name_longer_than_the_file_system_allows_is_refused_before_anything_is_written(
    personas, settings, tmp_path
):
    """Issue 20: "😀" * 70 + ".wav" is 284 bytes in UTF-8 (4 a character): over the 255 every
    file system allows, it failed with ENAMETOOLONG (a 500). Now it is refused by name."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from ingest.services.uploads import UploadRefused, upload_create

    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    long_name = SimpleUploadedFile("😀" * 70 + ".wav", b"RIFF\x24\x00\x00\x00WAVEfmt ")
    with pytest.raises(UploadRefused, match="is 284 bytes long; at most 200"):
        upload_create(kind="clips", owner=personas.organiser, collection=personas.collection,
                      files={"audio": [long_name]})  # fmt: skip
    assert not any((tmp_path / "uploads").rglob("*.wav"))


def test_a_runs_upload_makes_clips_named_as_queries_into_queries_by_default(organiser, personas):
    """Issue 25: "unknown query 'walkq1'" until an unticked box was ticked. The box is now
    ticked on the page and the result says how many queries were made; unticked, it refuses."""
    page = organiser.get(f"/collections/{personas.collection.pk}/uploads/runs/").content.decode()
    assert re.search(r'<input[^>]*name="create_missing_queries"[^>]*checked', page)
    run = b"c2 Q0 c3 1 0.9 S1\n"  # c2 is a clip of the collection, not a query yet
    post(organiser, personas.collection, "runs",
         form_data(runs=[("run.txt", run)], options={"create_missing_queries": "on"}))  # fmt: skip
    (job,) = run_jobs()
    assert job.state == Job.DONE and counts(job)["queries created"] == 1
    refused_run = b"c3 Q0 c1 1 0.9 S1\n"
    post(organiser, personas.collection, "runs", form_data(runs=[("other.txt", refused_run)]))
    (refused,) = run_jobs()
    assert refused.state == Job.FAILED and "choose to make query ids into queries" in refused.error
