"""A file with no data line is refused by every importer, naming the file, whatever the
format said: through the importer, the command line, the upload pages and the API.

"No data line" is a file of nothing but a UTF-8 byte-order mark, blank lines, comment
lines (``#``) — and for a CSV file, its header row. Such a file was accepted as an
empty import when a format was given explicitly (``format="qrels"``: no line was left
to detect the format from, so nothing noticed); every importer now shares one check
(:func:`common.files.inputs.check_has_data_lines`).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from common.files.inputs import NO_DATA_LINES
from crowd.models import Example
from crowd.services.examples import examples_import_csv
from ingest.importers import ImportFailed, judgments_import, metadata_import, runs_import
from ingest.importers.clips import clips_import
from pastanswers.importers.answers import AnswersImportError, preference_answers_import
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.importing import run_from_command_line, table_snapshot
from tests.helpers.uploads import form_data, post, run_jobs
from work.models import Job

pytestmark = pytest.mark.django_db

BOM = "\ufeff".encode()
NOTHING = {
    "a byte-order mark": BOM,
    "blank lines": b"\n  \n\t\r\n",
    "comments": b"# judged in 2011\n   # nothing else\n",
    "a byte-order mark and comments": BOM + b"# only this\n\n",
    "no byte at all": b"",
}
"""Text files without a data line."""
HEADER_ONLY = {
    "a byte-order mark, no header": BOM,
    "blank lines, no header": b"\n\r\n",
    "a header": b"%s\n",
    "a byte-order mark and a header": BOM + b"%s\r\n",
    "a header and blank lines": b"%s\n\n\n",
}
"""CSV files whose only line is their header (``%s``), or without even that."""

TEXT_IMPORTS = {
    "judgments as qrels": lambda c, p: judgments_import(collection=c, path=p, format="qrels"),
    "judgments as fine": lambda c, p: judgments_import(collection=c, path=p, format="fine"),
    "judgments, format detected": lambda c, p: judgments_import(collection=c, path=p),
    "runs as TREC": lambda c, p: runs_import(collection=c, path=p, format="trec"),
    "runs as ranked lists": lambda c, p: runs_import(collection=c, path=p, format="ranked"),
    "metadata": lambda c, p: metadata_import(collection=c, path=p),
}


@pytest.mark.parametrize("content", NOTHING.values(), ids=NOTHING.keys())
@pytest.mark.parametrize("importer", TEXT_IMPORTS.values(), ids=TEXT_IMPORTS.keys())
def test_every_text_importer_refuses_a_file_without_data(personas, tmp_path, importer, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    before = table_snapshot()
    with pytest.raises(ImportFailed) as refused:
        importer(personas.collection, path)
    assert str(refused.value) == f"empty.txt: {NO_DATA_LINES}"
    assert table_snapshot() == before


@pytest.mark.parametrize("content", HEADER_ONLY.values(), ids=HEADER_ONLY.keys())
def test_csv_importers_refuse_a_file_with_only_its_header(
    personas, crowd_collection, tmp_path, content
):
    meta = tmp_path / "meta.csv"
    meta.write_bytes(content.replace(b"%s", b"id,title,artist"))
    (tmp_path / "audio").mkdir()
    before = table_snapshot()
    with pytest.raises(ImportFailed) as refused:
        clips_import(collection=personas.collection, folder=tmp_path / "audio", metadata_csv=meta)
    assert str(refused.value) == f"meta.csv: {NO_DATA_LINES}"

    answers = content.replace(b"%s", b"query,list_a,list_b,answer,worker")
    with pytest.raises(AnswersImportError) as refused:
        preference_answers_import(collection=personas.collection, stream=answers, filename="a.csv")
    assert refused.value.messages == [f"a.csv: {NO_DATA_LINES}"]

    campaign = make_campaign(crowd_collection, traps=0, quiz_length=0)
    examples = Example.objects.count()
    with pytest.raises(ValidationError) as refused:
        examples_import_csv(campaign=campaign, text=content.replace(b"%s", b"query,list_a,list_b"))
    assert refused.value.messages == [f"examples.csv: {NO_DATA_LINES}"]
    assert Example.objects.count() == examples
    assert table_snapshot() == before


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("import_judgments", ["--format", "qrels"]),
        ("import_runs", ["--format", "trec"]),
        ("import_metadata", []),
    ],
)
def test_the_command_line_names_the_file_without_data(
    monkeypatch, capsys, personas, tmp_path, command, options
):
    path = tmp_path / "bom-only.tsv"
    path.write_bytes(BOM)
    status, stderr = run_from_command_line(
        monkeypatch, capsys, command, str(personas.collection.pk), str(path), *options
    )
    assert (status, stderr) == (1, f"CommandError: bom-only.tsv: {NO_DATA_LINES}\n")


@pytest.mark.usefixtures("upload_dirs")
@pytest.mark.parametrize(
    ("kind", "role", "options"),
    [
        ("judgments", "judgments", {"format": "qrels"}),
        ("runs", "runs", {"format": "trec"}),
        ("answers", "answers", {"format": "earshot"}),
    ],
)
def test_uploads_through_the_page_and_the_api_fail_their_job_naming_the_file(
    client, personas, kind, role, options
):
    client.force_login(personas.organiser)
    api = client_for(personas.organiser)
    url = f"/api/collections/{personas.collection.pk}/uploads/{kind}/"
    jobs = []
    for send in (
        lambda body: post(client, personas.collection, kind, body).status_code == 302,
        lambda body: api.post(url, body, format="multipart").status_code == 202,
    ):
        assert send(form_data(options, **{role: ("empty.txt", BOM + b"\n\r\n")}))
        jobs += run_jobs()
    assert [(j.state, j.error_file, j.error_line) for j in jobs] == [
        (Job.FAILED, "empty.txt", None)
    ] * 2
    assert all(j.error == NO_DATA_LINES for j in jobs), [j.error for j in jobs]
    page = client.get(f"/jobs/{jobs[0].pk}/result/").content.decode()
    assert NO_DATA_LINES in page and "Nothing was changed." in page


def test_the_examples_form_names_the_file_without_data(client, personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=0)
    client.force_login(personas.organiser)
    examples = Example.objects.count()
    upload = form_data(file=("examples.csv", BOM + b"query,list_a,list_b\n"))
    response = client.post(f"/campaigns/{campaign.pk}/examples/from-csv/", upload, follow=True)
    assert f"examples.csv: {NO_DATA_LINES}" in response.content.decode()
    assert Example.objects.count() == examples
