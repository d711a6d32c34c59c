from functools import partial

import pytest

from catalog.models import Clip
from common.files.inputs import NO_DATA_LINES
from ingest.importers import metadata_import
from tests.helpers import importing as helpers
from tests.helpers.importing import collection_make, table_snapshot, write_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3")


import_failure = partial(helpers.import_failure, metadata_import)


def metadata() -> dict[str, tuple[str, str]]:
    return {
        external_id: (artist, genre)
        for external_id, artist, genre in Clip.objects.values_list("external_id", "artist", "genre")
    }


def test_it_sets_artist_and_genre_of_the_clips(collection, tmp_path):
    path = write_lines(
        tmp_path,
        "metadata.tsv",
        "# doc artist genre",
        "d1\t898f04\t282918",
        "d2\tLed Zeppelin\tHard Rock",
        "d3   a3   g3",
    )

    summary = metadata_import(collection=collection, path=path)

    assert (summary.lines, summary.clips_updated, summary.clips_created) == (3, 3, 0)
    assert metadata() == {
        "d1": ("898f04", "282918"),
        "d2": ("Led Zeppelin", "Hard Rock"),
        "d3": ("a3", "g3"),
    }


def test_it_rejects_an_unknown_document(collection, tmp_path):
    path = write_lines(tmp_path, "metadata.tsv", "d1 a g", "d9 a g")

    assert import_failure(collection, path) == (
        "metadata.tsv, line 2: unknown document 'd9': not a clip of collection 'test'"
    )


def test_it_creates_a_clip_for_an_unknown_document_when_asked(collection, tmp_path):
    path = write_lines(tmp_path, "metadata.tsv", "d9 a9 g9")

    summary = metadata_import(collection=collection, path=path, create_missing_clips=True)

    assert summary.clips_created == 1
    assert metadata()["d9"] == ("a9", "g9")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["d1 a g", "d2 a"], "metadata.tsv, line 2: expected 3 fields (doc artist genre), found 2"),
        (
            ["d1 a g", "d1 b h"],
            "metadata.tsv, line 2: duplicate document 'd1' (first on line 1)",
        ),
        (["# empty"], f"metadata.tsv: {NO_DATA_LINES}"),
        (
            ["d1\t" + "x" * 301 + "\tg"],
            "metadata.tsv, line 1: artist '" + "x" * 40 + "'… is longer than 300 characters (301)",
        ),
    ],
)
def test_it_rejects_bad_input_naming_file_line_and_problem(collection, tmp_path, lines, message):
    path = write_lines(tmp_path, "metadata.tsv", *lines)

    assert import_failure(collection, path) == message


def test_a_bad_line_at_the_end_leaves_the_database_unchanged(collection, tmp_path):
    before = table_snapshot()
    path = write_lines(tmp_path, "metadata.tsv", "d1 a g", "new a g", "d2 a")

    import_failure(collection, path, create_missing_clips=True)

    assert table_snapshot() == before


def test_importing_the_same_file_twice_changes_nothing(collection, tmp_path):
    path = write_lines(tmp_path, "metadata.tsv", "d1 a1 g1", "d2 a2 g2", "new a g")
    metadata_import(collection=collection, path=path, create_missing_clips=True)
    before = table_snapshot()

    summary = metadata_import(collection=collection, path=path, create_missing_clips=True)

    assert table_snapshot() == before
    assert (summary.clips_created, summary.clips_updated, summary.clips_present) == (0, 0, 3)
