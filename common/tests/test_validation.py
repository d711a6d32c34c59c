"""common.validation: one rule for names, ids and texts, the same on SQLite and PostgreSQL.

On PostgreSQL a NUL byte or a value longer than its column used to end in a
``DataError`` traceback after the work was done, while SQLite stored it silently; now
every entry point refuses them first, with a message naming the field (and the file
and line for importers).
"""

from urllib.parse import quote

import pytest
from django.core.exceptions import ValidationError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import Clip, RunEntry, System
from common.validation import check_text, text_problem
from crowd.models import Worker
from ingest.importers import ImportFailed, judgments_import, metadata_import, runs_import
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.importing import collection_make, table_snapshot, write_lines


@pytest.mark.parametrize(
    ("value", "kind", "problem"),
    [
        ("GoodEar / v2", "name", None),
        ("d00042", "identifier", None),
        ("Ünïcödé 音楽", "name", None),
        ("line one\nline two\ttabbed", "text", None),
        ("a\x00b", "name", "contains a NUL character"),
        ("a\x00b", "text", "contains a NUL character"),
        ("a\x07b", "text", "contains a control character (U+0007)"),
        ("a\x9bb", "name", "contains a control character (U+009B)"),
        ("two\nlines", "name", "contains a tab or line break (U+000A)"),
        (
            "lone \ud800 surrogate",
            "text",
            "contains an invalid character (a lone surrogate, U+D800)",
        ),
        ("evil\u202eexe.mp3", "name", "contains a bidirectional control character (U+202E)"),
        (
            "a b",
            "identifier",
            "contains whitespace (U+0020); ids are written between spaces in TREC files",
        ),
        ("   ", "name", "is empty"),
        (42, "name", "is not text"),
    ],
)
def test_each_kind_of_value_has_one_rule(value, kind, problem):
    assert text_problem(value, kind=kind) == problem


def test_lengths_count_characters_as_postgresql_varchar_does():
    # 200 four-byte characters are 800 bytes but fit a varchar(200).
    assert text_problem("🎵" * 200, max_length=200) is None
    assert text_problem("🎵" * 201, max_length=200) == "is longer than 200 characters (201)"


def test_check_text_names_the_field_and_shows_the_value_escaped():
    with pytest.raises(ValidationError) as error:
        check_text("x\x00y", what="system name", max_length=200)
    assert error.value.messages == ["system name 'x\\x00y' contains a NUL character"]


# --- importers --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_run_creating_a_clip_with_a_nul_byte_is_refused_with_file_and_line(tmp_path):
    collection = collection_make(clips="d1", queries="q1")
    before = table_snapshot()
    path = write_lines(tmp_path, "runs.tsv", "S1\tq1\td1", "S1\tq1\td\x002")
    with pytest.raises(ImportFailed) as failed:
        runs_import(collection=collection, path=path, create_missing_clips=True)
    assert str(failed.value) == "runs.tsv, line 2: document id 'd\\x002' contains a NUL character"
    assert table_snapshot() == before


@pytest.mark.django_db
def test_a_system_name_with_a_control_character_is_refused(tmp_path):
    collection = collection_make(clips="d1", queries="q1")
    path = write_lines(tmp_path, "runs.tsv", "S\x1b[31m\tq1\td1")
    with pytest.raises(ImportFailed, match=r"line 1: system name .* control character \(U\+001B\)"):
        runs_import(collection=collection, path=path)
    assert not System.objects.exists()


@pytest.mark.django_db
def test_metadata_with_a_nul_byte_is_refused(tmp_path):
    collection = collection_make(clips="d1", queries="q1")
    path = write_lines(tmp_path, "metadata.tsv", "d1\tThe \x00 Band\trock")
    with pytest.raises(ImportFailed, match="line 1: artist 'The \\\\x00 Band' contains a NUL"):
        metadata_import(collection=collection, path=path)
    assert Clip.objects.get(external_id="d1").artist == ""


@pytest.mark.django_db
def test_a_judgment_of_a_300_character_document_is_refused(tmp_path):
    collection = collection_make(clips="d1", queries="q1")
    path = write_lines(tmp_path, "j.tsv", f"q1\t{'d' * 300}\t50")
    with pytest.raises(ImportFailed, match=r"line 1: document id .* longer than 200 characters"):
        judgments_import(collection=collection, path=path, create_missing_clips=True)
    assert not RunEntry.objects.exists() and Clip.objects.count() == 2


# --- the REST API and the crowd task link -----------------------------------------------


def api_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("clips/create/", {"clips": [{"external_id": "a\x00b"}]}, "external_id"),
        ("clips/create/", {"clips": [{"external_id": "c9", "artist": "x\x07"}]}, "artist"),
        ("clips/create/", {"clips": [{"external_id": "has space"}]}, "external_id"),
        ("systems/create/", {"name": "two\nlines"}, "name"),
        ("systems/create/", {"name": "s" * 201}, "name"),
        ("queries/create/", {"clips": ["c\x002"]}, "clips"),
        ("systems/{system}/run/replace/", {"rankings": {"c\x001": ["c2"]}}, "rankings"),
    ],
)
def test_the_api_refuses_bad_names_and_ids_with_a_400(personas, url, body, field):
    system = personas.collection.systems.get()
    api = api_for(personas.organiser)
    before = table_snapshot()
    response = api.post(
        f"/api/collections/{personas.collection.pk}/{url.format(system=system.pk)}",
        body,
        format="json",
    ) if "replace" not in url else api.put(
        f"/api/collections/{personas.collection.pk}/{url.format(system=system.pk)}",
        body,
        format="json",
    )  # fmt: skip
    assert response.status_code == 400, response.content
    assert f'"{field}"' in response.content.decode()  # the error names the field
    assert table_snapshot() == before


@pytest.mark.django_db
def test_the_api_refuses_a_collection_name_with_a_nul(personas):
    response = api_for(personas.organiser).post(
        "/api/collections/create/", {"name": "a\x00"}, format="json"
    )
    assert response.status_code == 400 and "name" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("worker", ["w\x00", "w\x1b", "w" * 300, "w\u202e"])
def test_a_task_link_with_a_bad_worker_id_is_a_400_and_creates_no_worker(
    client, crowd_collection, worker
):
    campaign = make_campaign(crowd_collection)
    response = client.get(f"/t/{campaign.token}/?worker={quote(worker)}")
    assert response.status_code == 400
    assert not Worker.objects.exists()
