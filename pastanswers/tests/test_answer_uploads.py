"""Uploads of past preference answers (pastanswers/services/answer_uploads.py ``upload_answers_run``):
Earshot's answers CSV, and a CrowdFlower export through its column mapping page
(pastanswers/views.py ``upload_columns``). Expected counts are of the small files here,
counted by hand."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from catalog.models import Clip, Query, System
from crowd.models import Answer
from ingest.models import Upload
from tests.helpers.uploads import EXPORT, counts, form_data, post, run_jobs
from work.models import Job

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dirs")]

ANSWERS_CSV = (
    b"query,list_a,list_b,answer,worker,fine_a,fine_b\n"
    b"q9,n1 n2,n3 n4,a_better,w1,90 80,10 20\n"
    b"q9,n3 n4,n1 n2,b_better,w2,10 20,90 80\n"
)


def test_answers_create_the_clips_they_name_on_request(organiser, personas):
    data = form_data({"format": "earshot", "campaign": "Old study", "create_missing_clips": "on"},
                     answers=("answers.csv", ANSWERS_CSV))  # fmt: skip
    post(organiser, personas.collection, "answers", data)
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    got = counts(job)
    # q9 n1..n4: five new clips; one example (the second row shows it swapped); two answers.
    assert (got["clips created"], got["examples created"], got["answers created"]) == (5, 1, 2)
    assert Query.objects.filter(clip__external_id="q9").exists()
    assert not Clip.objects.get(external_id="n1").audio
    page = organiser.get(f"/jobs/{job.pk}/result/").content.decode()
    assert "Open the campaign “Old study”" in page


def test_answers_naming_unknown_clips_stop_unless_asked_to_create_them(organiser, personas):
    data = form_data({"format": "earshot"}, answers=("answers.csv", ANSWERS_CSV))
    post(organiser, personas.collection, "answers", data)
    (job,) = run_jobs()
    assert (job.error_file, job.error_line) == ("answers.csv", 2)
    assert job.error == "query 'q9' is not a clip of the collection"
    assert not Clip.objects.filter(external_id="q9").exists()


def test_a_crowdflower_export_goes_through_the_column_mapping_which_is_remembered(
    organiser, personas
):
    data = form_data({"format": "crowdflower", "campaign": "CF 2012", "create_missing_clips": "on"},
                     answers=("f123.csv", EXPORT))  # fmt: skip
    response = post(organiser, personas.collection, "answers", data)
    upload = Upload.objects.get()
    url = f"/collections/{personas.collection.pk}/uploads/answers/{upload.pk}/columns/"
    assert response["Location"] == url and not Job.objects.exists()
    page = organiser.get(url).content.decode()
    assert re.search(r'<option value="q" selected>q</option>', page)
    assert 'value="d1a d2a"' in page and 'value="f1b f2b"' in page
    choices = {"query": "q", "answer": "what_service_gives_better_results",
               "worker": "_worker_id", "answered_at": "_created_at", "started_at": "_started_at",
               "comment": "comments", "list_a": "d1a d2a", "list_b": "d1b d2b",
               "fine_a": "f1a f2a", "fine_b": "f1b f2b", "broad_a": "", "broad_b": "",
               "skip_when_true": ["_golden", "_tainted"],
               "value_0": "a_better", "value_1": "both_good", "value_2": "b_better"}  # fmt: skip
    wrong = organiser.post(url, {**choices, "value_2": ""})
    assert wrong.status_code == 400 and "Say what the answer(s) Service B mean." in (
        wrong.content.decode()
    )
    assert organiser.post(url, choices).status_code == 302
    job = Job.objects.get()
    assert organiser.post(url, choices)["Location"] == f"/jobs/{job.pk}/"  # a second click
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    got = counts(job)
    # Rows 101, 103, 104 (102 is a trap): 3 answers of one example (103 shows it swapped).
    assert (got["answers created"], got["examples created"], got["clips created"]) == (3, 1, 5)
    assert "1 row(s) left out: _golden is true." in job.result["notes"]
    seconds = sorted(Answer.objects.values_list("seconds", flat=True))
    assert seconds == [30.0, 30.0, 60.0]  # _created_at − _started_at
    assert Answer.objects.get(worker__platform_id="9").comment == "nice\nsongs"

    # A second export for the same campaign: the mapping page proposes the choices made.
    again = form_data(
        {"format": "crowdflower", "campaign": "CF 2012"}, answers=("f124.csv", EXPORT)
    )
    post(organiser, personas.collection, "answers", again)
    second = Upload.objects.filter(job__isnull=True).get()
    page = organiser.get(
        f"/collections/{personas.collection.pk}/uploads/answers/{second.pk}/columns/"
    ).content.decode()
    assert re.search(r'<option value="comments" selected>', page)
    assert re.search(r'value="_golden"[^>]*checked', page)


def test_a_crowdflower_row_that_cannot_be_read_names_its_line_in_the_export(organiser, personas):
    export = EXPORT.replace(b"1/23/2012 10:14:12", b"yesterday")
    data = form_data({"format": "crowdflower", "campaign": "CF", "create_missing_clips": "on"},
                     answers=("f.csv", export))  # fmt: skip
    post(organiser, personas.collection, "answers", data)
    upload = Upload.objects.get()
    url = f"/collections/{personas.collection.pk}/uploads/answers/{upload.pk}/columns/"
    choices = {"query": "q", "answer": "what_service_gives_better_results", "worker": "_worker_id",
               "answered_at": "_created_at", "list_a": "d1a d2a", "list_b": "d1b d2b",
               "fine_a": "f1a f2a", "fine_b": "f1b f2b", "value_0": "a_better",
               "value_1": "both_good", "value_2": "b_better"}  # fmt: skip
    organiser.post(url, choices)
    (job,) = run_jobs()
    assert (job.error_file, job.error_line) == ("f.csv", 6)  # row 104 starts on line 6
    assert job.error.startswith("_created_at 'yesterday' is not a time")
    assert (
        not System.objects.filter(name="x").exists()
        and not Clip.objects.filter(external_id="n1").exists()
    )


def test_the_command_line_creates_the_clips_of_answers_on_request_too(personas, tmp_path):
    path = tmp_path / "answers.csv"
    path.write_bytes(ANSWERS_CSV)
    call_command("import_preference_answers", str(personas.collection.pk), str(path),
                 "--create-missing-clips", stdout=io.StringIO())  # fmt: skip
    assert set(Clip.objects.filter(audio="").values_list("external_id", flat=True)) >= {
        "q9", "n1", "n2", "n3", "n4",
    }  # fmt: skip


def test_an_export_that_is_not_utf8_is_refused_at_the_column_step_by_line(organiser, personas):
    export = EXPORT.replace(b"Service B", "Service é".encode("latin-1"))
    data = form_data({"format": "crowdflower"}, answers=("f.csv", export))
    response = organiser.post(post(organiser, personas.collection, "answers", data)["Location"])
    assert response.status_code == 400
    assert "f.csv, line 6: not UTF-8 text" in response.content.decode()
    assert not Job.objects.exists()
