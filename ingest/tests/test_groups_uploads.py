"""Ordered groups and past pairwise studies arrive as uploads from the page and the API
(background jobs) and from the command line; another organiser reaches none of it (issue 32)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import JudgmentSource, OrderedGroupEntry
from catalog.selectors import source_groups
from ingest.models import Upload
from tests.helpers.clients import client_for
from tests.helpers.ordered_groups import GROUPS_FILE, groups_collection
from tests.helpers.uploads import counts, form_data, run_jobs
from work.models import Job

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dirs")]

STUDY = "query,doc_a,doc_b,answer,worker\nq1,d1,d2,A,w1\nq1,d2,d1,B,w2\nq2,d4,d5,equal,w1\n"
"""q1: d1 over d2 by 2 votes (margin 2): [d1], [d2]; q2: one 'equal': [d4 d5]."""


@pytest.fixture
def collection(personas):
    return groups_collection(owner_name=personas.organiser.username)


def test_a_groups_upload_through_the_api_answers_202_and_its_job_stores_the_groups(
    personas, collection
):
    api = client_for(personas.organiser)
    data = form_data({"status": "official"}, groups=("groups.txt", GROUPS_FILE.encode()))

    response = api.post(
        f"/api/collections/{collection.pk}/uploads/groups/", data, format="multipart"
    )

    assert response.status_code == 202, response.json()
    (job,) = run_jobs()
    assert job.state == "done", job.error
    assert counts(job)["queries with new groups"] == 2
    assert source_groups(source=JudgmentSource.objects.get(name="experts"))["q1"] == [
        ["d1", "d2"],
        ["d3"],
    ]


def test_a_bad_groups_file_fails_its_job_with_the_file_and_line(personas, collection):
    api = client_for(personas.organiser)
    data = form_data(groups=("groups.txt", b"experts q1 d1 1\nexperts q1 d9 2\n"))
    api.post(f"/api/collections/{collection.pk}/uploads/groups/", data, format="multipart")

    (job,) = run_jobs()

    assert (job.state, job.error_file, job.error_line) == ("failed", "groups.txt", 2)
    assert "unknown document 'd9'" in job.error
    assert not OrderedGroupEntry.objects.exists()


def test_a_past_study_upload_from_the_page_is_a_pilot_by_default(client, personas, collection):
    client.force_login(personas.organiser)
    page = client.get(f"/collections/{collection.pk}/uploads/pairwise/")
    assert page.status_code == 200 and "Margin of votes" in page.content.decode()

    response = client.post(
        f"/collections/{collection.pk}/uploads/pairwise/",
        form_data(answers=("study.csv", STUDY.encode())),
    )

    assert response.status_code == 302
    (job,) = run_jobs()
    assert job.state == "done", job.error
    source = JudgmentSource.objects.get()
    assert (source.name, source.kind, source.status) == ("study.csv", "pairwise", "pilot")
    assert source_groups(source=source) == {"q1": [["d1"], ["d2"]], "q2": [["d4", "d5"]]}


def test_the_margin_is_checked_before_anything_is_stored(personas, collection):
    api = client_for(personas.organiser)
    data = form_data({"margin": "0"}, answers=("study.csv", STUDY.encode()))

    response = api.post(
        f"/api/collections/{collection.pk}/uploads/pairwise/", data, format="multipart"
    )

    assert response.status_code == 400 and "margin" in response.json()  # the field named
    assert not Upload.objects.exists() and not Job.objects.exists()


def test_another_organiser_can_neither_upload_into_nor_export_from_the_collection(
    client, personas, collection, tmp_path
):
    groups_collection_upload = form_data(groups=("groups.txt", GROUPS_FILE.encode()))
    other = client_for(personas.other_organiser)
    for kind in ("groups", "pairwise"):
        url = f"/api/collections/{collection.pk}/uploads/{kind}/"
        assert other.post(url, groups_collection_upload, format="multipart").status_code == 404
    client.force_login(personas.other_organiser)
    assert client.get(f"/collections/{collection.pk}/uploads/groups/").status_code == 404
    assert not Upload.objects.exists()
    # Groups the owner imported stay out of the other organiser's reach, page and API.
    (tmp_path / "groups.txt").write_text(GROUPS_FILE, encoding="utf-8")
    call_command(
        "import_groups", str(collection.pk), str(tmp_path / "groups.txt"), stdout=StringIO()
    )
    source = JudgmentSource.objects.get()
    assert (
        client.get(
            f"/collections/{collection.pk}/judgment-sources/{source.pk}/groups.txt"
        ).status_code
        == 404
    )
    assert (
        other.get(
            f"/api/collections/{collection.pk}/judgment-sources/{source.pk}/groups/"
        ).status_code
        == 404
    )
    # Nor may they name the source through their own collection.
    theirs = groups_collection(owner_name=personas.other_organiser.username, name="theirs")
    assert (
        other.get(f"/api/collections/{theirs.pk}/judgment-sources/{source.pk}/groups/").status_code
        == 404
    )


def test_the_commands_import_groups_and_a_past_study_and_stop_on_a_bad_line(tmp_path, collection):
    groups = tmp_path / "groups.txt"
    groups.write_text(GROUPS_FILE, encoding="utf-8")
    out = StringIO()
    call_command("import_groups", str(collection.pk), str(groups), stdout=out)
    assert "into source 'experts' (official)" in out.getvalue()
    assert "queries with new groups             2" in out.getvalue()

    study = tmp_path / "study.csv"
    study.write_text(STUDY, encoding="utf-8")
    out = StringIO()
    call_command("import_past_study", str(collection.pk), str(study), "--margin", "1", stdout=out)
    assert "3 answers read" in out.getvalue() and "(pilot)" in out.getvalue()
    assert source_groups(source=JudgmentSource.objects.get(name="study.csv"))["q2"] == [
        ["d4", "d5"]
    ]

    bad = tmp_path / "bad.txt"
    bad.write_text("experts q1 d1 1\nexperts q1 d1 2\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"bad.txt, line 2: document 'd1' of query 'q1'"):
        call_command("import_groups", str(collection.pk), str(bad), stdout=StringIO())
