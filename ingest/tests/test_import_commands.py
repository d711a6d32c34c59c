"""The import_* commands: thin wrappers that print a summary, or the importer's message on
stderr with exit status 1."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import Clip, Collection, RelevanceJudgment
from common.roles import is_organiser
from tests.helpers.audio_files import tone
from tests.helpers.importing import (
    collection_make,
    mirex_folder,
    mirex_folder_write,
    run_from_command_line,
    write_lines,
)

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_import_mirex_prints_the_counts_and_a_second_run_nothing_new():
    folder = str(mirex_folder())

    first = run("import_mirex", folder)
    second = run("import_mirex", folder)

    # Expected counts: the data README (18 × 100 × 5 = 9,000 rows, 6,322 judgments,
    # 7,000 metadata rows) plus 23 retrieved ids that metadata.tsv does not list.
    lines = first.splitlines()
    assert "runs.tsv in ranked format, judgments.tsv in fine format" in lines[0]
    assert lines[2].split() == ["clips", "7,023", "0"]
    assert lines[3].split() == ["queries", "100", "0"]
    assert lines[4].split() == ["systems", "18", "0"]
    assert lines[5].split() == ["run", "entries", "9,000", "0"]
    assert lines[6].split() == ["judgments", "6,322", "0"]
    assert "7,000 clips have an artist and a genre" in first
    assert second.splitlines()[4].split() == ["systems", "0", "18"]
    assert second.splitlines()[-1] == "Nothing new: everything was already imported."


def test_import_mirex_gives_the_collection_to_an_organiser_when_no_owner_is_named(tmp_path):
    run("import_mirex", str(mirex_folder_write(tmp_path / "tiny")))

    collection = Collection.objects.get(name="tiny")
    assert collection.owner.username == "organiser"
    assert is_organiser(collection.owner)
    assert not collection.owner.has_usable_password()


def test_import_mirex_gives_the_collection_to_the_named_owner(tmp_path):
    alice = get_user_model().objects.create(username="alice")

    run(
        "import_mirex",
        str(mirex_folder_write(tmp_path / "tiny")),
        "--owner",
        "alice",
        "--name",
        "T",
    )

    assert Collection.objects.get(name="T").owner == alice


def test_import_mirex_refuses_an_unknown_owner(tmp_path):
    with pytest.raises(CommandError, match="no user 'nobody'"):
        run("import_mirex", str(mirex_folder_write(tmp_path / "tiny")), "--owner", "nobody")


def test_import_mirex_exits_with_status_1_and_the_message_on_stderr(monkeypatch, capsys, tmp_path):
    folder = mirex_folder_write(tmp_path / "bad", judgments=("q1\ta\t80", "q9\tb\t40"))

    status, stderr = run_from_command_line(monkeypatch, capsys, "import_mirex", str(folder))

    assert status == 1
    assert stderr == (
        "CommandError: judgments.tsv, line 2: unknown query 'q9': not a query of collection 'bad' "
        "(query ids become queries when runs that rank them are imported — so runs come first — "
        "or when you choose to make query ids into queries)\n"
    )
    assert not Collection.objects.exists()


def test_import_runs_exits_with_status_1_and_the_message_on_stderr(monkeypatch, capsys, tmp_path):
    collection = collection_make(clips="d1 d2", queries="q1")
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "S q1 d2", "S q1 d1")

    status, stderr = run_from_command_line(
        monkeypatch, capsys, "import_runs", str(collection.pk), str(path)
    )

    assert status == 1
    assert stderr == (
        "CommandError: runs.tsv, line 3: duplicate document 'd1' in the ranked list of system "
        "'S' for query 'q1' (first on line 1)\n"
    )


def test_import_runs_prints_what_it_read_and_created(tmp_path):
    collection_make(name="AMS", clips="d1 d2", queries="q1")
    path = write_lines(tmp_path, "run.A", "q1 Q0 d1 1 0.5 A", "q1 Q0 d2 2 0.4 A")

    out = run("import_runs", "AMS", str(path))

    assert out.splitlines()[0].startswith("Read 2 lines (trec format) into collection 'AMS'")
    assert out.splitlines()[2].split() == ["systems", "1", "0"]
    assert out.splitlines()[4].split() == ["run", "entries", "2", "0"]


def test_import_judgments_prints_what_it_read_and_created(tmp_path):
    collection = collection_make(clips="d1 d2", queries="q1")
    path = write_lines(tmp_path, "qrels", "q1 0 d1 2", "q1 0 d2 0")

    out = run("import_judgments", str(collection.pk), str(path), "--source", "trec")

    assert out.splitlines()[0].startswith(
        "Read 2 judgments (qrels format, broad scale) into source 'trec' (a new source)"
    )
    assert sorted(RelevanceJudgment.objects.values_list("broad", flat=True)) == [0, 2]


def test_import_judgments_before_the_runs_names_the_next_step_or_makes_the_queries(tmp_path):
    collection = collection_make(clips="q2 d1 d2", queries="q1")
    path = write_lines(tmp_path, "qrels", "q2 0 d1 2")

    with pytest.raises(CommandError, match=r"unknown query 'q2'.*so runs come first"):
        run("import_judgments", str(collection.pk), str(path))
    out = run("import_judgments", str(collection.pk), str(path), "--create-missing-queries")

    assert "also made 1 clip into queries" in out
    assert collection.queries.count() == 2


def test_import_judgments_exits_with_status_1_on_a_relevance_out_of_range(
    monkeypatch, capsys, tmp_path
):
    collection = collection_make(clips="d1", queries="q1")
    path = write_lines(tmp_path, "judgments.tsv", "q1 d1 250")

    status, stderr = run_from_command_line(
        monkeypatch, capsys, "import_judgments", str(collection.pk), str(path)
    )

    assert status == 1
    assert "judgments.tsv, line 1: Fine score '250' is out of range" in stderr


def test_import_metadata_prints_what_it_changed(tmp_path):
    collection = collection_make(clips="d1")
    path = write_lines(tmp_path, "metadata.tsv", "d1 a g", "d2 b h")

    out = run("import_metadata", str(collection.pk), str(path), "--create-missing-clips")

    assert "1 clips created, 1 updated, 0 already up to date" in out


def test_import_clips_prints_what_it_stored(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    collection = collection_make()
    folder = tmp_path / "audio"
    folder.mkdir()
    (folder / "a.mp3").write_bytes(tone(".mp3"))
    csv = write_lines(tmp_path, "clips.csv", "id,artist", "a,Ann")

    out = run("import_clips", str(collection.pk), str(folder), "--metadata", str(csv))

    assert "1 clips created, 0 updated, 0 already up to date; 1 files stored" in out
    assert Clip.objects.get(collection=collection).artist == "Ann"


def test_a_collection_name_shared_by_two_owners_must_be_given_by_id(tmp_path):
    first = collection_make(name="AMS", owner_name="one")
    second = collection_make(name="AMS", owner_name="two")
    path = write_lines(tmp_path, "metadata.tsv", "d1 a g")

    with pytest.raises(CommandError) as failed:
        run("import_metadata", "AMS", str(path))

    assert str(failed.value) == (
        f"several collections are named 'AMS' (ids {first.pk}, {second.pk}): give the id"
    )


def test_an_unknown_collection_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no collection with id or name 'nope'"):
        run("import_metadata", "nope", str(tmp_path / "metadata.tsv"))
