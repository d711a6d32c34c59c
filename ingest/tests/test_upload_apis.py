"""The REST API does what the upload pages do (ingest/apis.py): multipart in, a job out."""

from __future__ import annotations

import json

import pytest

from catalog.models import RelevanceJudgment
from ingest.models import AnswerColumnMapping, Upload
from tests.helpers.clients import client_for
from tests.helpers.uploads import BUNDLE, EXPORT, counts, form_data, run_jobs, zip_of
from work.models import Job

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dirs")]


@pytest.fixture
def api(personas):
    return client_for(personas.organiser)


def url(personas, kind: str) -> str:
    return f"/api/collections/{personas.collection.pk}/uploads/{kind}/"


def test_a_judgments_upload_answers_202_with_its_job_which_the_job_api_follows(api, personas):
    data = form_data({"source": "qrels 2012", "scale": "fine"},
                     judgments=("q.qrels", b"c1 0 c2 60\nc1 0 c3 30\n"))  # fmt: skip
    response = api.post(url(personas, "judgments"), data, format="multipart")
    assert response.status_code == 202, response.json()
    job = response.json()
    assert (job["kind"], job["state"], job["url"]) == (
        "upload_judgments",
        "queued",
        f"/jobs/{job['id']}/",
    )
    run_jobs()
    done = api.get(f"/api/jobs/{job['id']}/").json()
    assert done["state"] == "done" and dict(done["result"]["counts"])["judgments created"] == 2
    assert set(RelevanceJudgment.objects.values_list("fine", flat=True)) == {60, 30}


def test_a_mirex_bundle_as_one_zip(api, personas):
    bundle = zip_of(*BUNDLE.values())
    response = api.post(url(personas, "mirex"), form_data(bundle=("mirex.zip", bundle)),
                        format="multipart")  # fmt: skip
    assert response.status_code == 202
    (job,) = run_jobs()
    assert job.state == "done" and counts(job)["judgments created"] == 3


def test_a_zip_missing_a_bundle_file_names_it(api, personas):
    bundle = zip_of(BUNDLE["runs"], BUNDLE["judgments"])
    api.post(url(personas, "mirex"), form_data(bundle=("m.zip", bundle)), format="multipart")
    (job,) = run_jobs()
    assert (job.error_file, job.error) == ("m.zip", "no metadata.tsv in the zip")


def test_refusals_are_400_or_413_with_a_message(api, personas, settings):
    only_runs = form_data(runs=BUNDLE["runs"])
    response = api.post(url(personas, "mirex"), only_runs, format="multipart")
    assert response.status_code == 400
    assert "runs.tsv, judgments.tsv and metadata.tsv" in response.json()["detail"]
    settings.EARSHOT_UPLOAD_MAX_BYTES = 100
    big = form_data(judgments=("j.tsv", b"c1 c2 50\n" * 10_000))
    response = api.post(url(personas, "judgments"), big, format="multipart")
    assert response.status_code == 413 and "at most 100 bytes" in response.json()["detail"]
    assert not Upload.objects.exists() and not Job.objects.exists()


def test_another_organisers_collection_is_a_404(personas):
    other = client_for(personas.other_organiser)
    data = form_data(judgments=("j.tsv", b"c1 c2 50\n"))
    assert other.post(url(personas, "judgments"), data, format="multipart").status_code == 404
    assert not Upload.objects.exists()


def test_a_crowdflower_export_through_the_api_proposal_then_upload(api, personas):
    proposal = api.post(url(personas, "answers/columns"),
                        form_data({"format": "crowdflower"}, answers=("f.csv", EXPORT)),
                        format="multipart").json()  # fmt: skip
    assert proposal["header"][:3] == ["_unit_id", "_created_at", "_golden"]
    columns = proposal["proposal"]
    assert (columns["query"], columns["list_a"], columns["fine_b"]) == (
        "q",
        ["d1a", "d2a"],
        ["f1b", "f2b"],
    )
    assert columns["answer_values"] == {"System A": "a_better", "Both are good": "both_good",
                                        "Service B": "b_better"}  # fmt: skip
    assert columns["skip_when_true"] == ["_golden", "_tainted"]
    assert not Upload.objects.exists()  # a proposal imports nothing and keeps nothing

    wrong = {**columns, "list_b": ["d1b"]}
    response = api.post(url(personas, "answers"),
                        form_data({"format": "crowdflower", "columns": json.dumps(wrong)},
                                  answers=("f.csv", EXPORT)), format="multipart")  # fmt: skip
    assert (
        response.status_code == 400
        and "list_a has 2 column(s) and list_b 1" in (response.json()["detail"])
    )
    response = api.post(url(personas, "answers"),
                        form_data({"format": "crowdflower", "campaign": "CF",
                                   "columns": json.dumps(columns)}, answers=("f.csv", EXPORT)),
                        format="multipart")  # fmt: skip
    assert response.status_code == 202
    (job,) = run_jobs()
    assert counts(job)["answers created"] == 3
    assert AnswerColumnMapping.objects.get().campaign_name == "CF"


def test_the_schema_lists_the_upload_endpoints(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for kind in ("clips", "runs", "judgments", "mirex", "answers", "answers/columns"):
        body = paths[f"/api/collections/{{collection_id}}/uploads/{kind}/"]["post"]["requestBody"]
        assert "multipart/form-data" in body["content"]
    assert "/api/jobs/{job_id}/retry/" in paths
