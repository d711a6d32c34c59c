import pytest
from django.contrib.auth import get_user_model

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from ingest.importers import ImportFailed, mirex_import
from tests.helpers.importing import mirex_folder, mirex_folder_write, table_snapshot, write_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return get_user_model().objects.create(username="organiser")


def test_it_imports_the_mirex_2011_collection_with_the_counts_of_its_readme(owner):
    summary = mirex_import(owner=owner, folder=mirex_folder())

    collection = Collection.objects.get(pk=summary.collection_id)
    assert collection.name == "mirex2011-ams"
    # From the data README: 18 systems × 100 queries × top 5 = 9,000 rows of runs.tsv,
    # 6,322 judgment lines, 7,000 metadata lines.
    assert System.objects.filter(collection=collection).count() == summary.systems_created == 18
    assert Query.objects.filter(collection=collection).count() == summary.queries_created == 100
    assert RunEntry.objects.filter(system__collection=collection).count() == 9_000
    assert summary.run_entries_created == 9_000
    assert RelevanceJudgment.objects.filter(query__collection=collection).count() == 6_322
    assert summary.judgments_created == 6_322
    assert summary.clips_with_artist_and_genre == 7_000
    # runs.tsv names 4,018 distinct ids, 23 of them absent from metadata.tsv (counted with
    # cut | sort -u | comm on the files): 7,000 + 23 clips.
    assert Clip.objects.filter(collection=collection).count() == summary.clips_created == 7_023
    assert (summary.runs_format, summary.judgments_format) == ("ranked", "fine")


def test_it_keeps_the_rank_order_fine_scores_and_metadata_of_the_files(owner):
    summary = mirex_import(owner=owner, folder=mirex_folder())
    collection = Collection.objects.get(pk=summary.collection_id)

    # The first lines of runs.tsv: c1d55b's list for query 948320 begins 6f8033, 913a47, 454644.
    top3 = RunEntry.objects.filter(
        system__name="c1d55b", query__clip__external_id="948320", rank__lte=3
    ).order_by("rank")
    assert [entry.clip.external_id for entry in top3] == ["6f8033", "913a47", "454644"]
    # The first line of judgments.tsv: 001a6a 0a6d04 18; Broad is absent from the data.
    judgment = RelevanceJudgment.objects.get(
        query__clip__external_id="001a6a", clip__external_id="0a6d04"
    )
    assert (judgment.fine, judgment.broad, judgment.source.name) == (18, None, "judgments.tsv")
    # The first line of metadata.tsv: 0001e0 898f04 282918.
    clip = Clip.objects.get(collection=collection, external_id="0001e0")
    assert (clip.artist, clip.genre) == ("898f04", "282918")
    # The README: every document retrieved in a system's top 5 for a query is judged.
    judged = set(RelevanceJudgment.objects.values_list("query_id", "clip_id"))
    retrieved = set(RunEntry.objects.values_list("query_id", "clip_id"))
    assert retrieved <= judged


def test_a_second_import_creates_nothing_and_changes_no_row(owner):
    first = mirex_import(owner=owner, folder=mirex_folder())
    before = table_snapshot()

    second = mirex_import(owner=owner, folder=mirex_folder())

    assert table_snapshot() == before  # including every judgment's updated_at
    assert second.collection_id == first.collection_id
    assert not second.created_anything
    assert (second.clips_present, second.queries_present, second.systems_present) == (
        7_023,
        100,
        18,
    )
    assert (second.run_entries_present, second.judgments_present) == (9_000, 6_322)


def test_it_imports_a_small_folder_under_the_given_name(owner, tmp_path):
    folder = mirex_folder_write(tmp_path / "tiny")

    summary = mirex_import(owner=owner, folder=folder, name="Tiny AMS")

    assert summary.collection_name == "Tiny AMS"
    assert (summary.systems_created, summary.queries_created) == (2, 2)
    assert (summary.run_entries_created, summary.judgments_created) == (8, 5)
    # a, b, c and q1 from metadata.tsv; q2 and "unlisted" only from runs.tsv.
    assert (summary.clips_created, summary.clips_with_artist_and_genre) == (6, 4)


def test_a_bad_judgment_line_at_the_end_leaves_the_database_unchanged(owner, tmp_path):
    folder = mirex_folder_write(tmp_path / "bad", judgments=("q1\ta\t80", "q1\tb\t140"))
    before = table_snapshot()

    with pytest.raises(ImportFailed) as failed:
        mirex_import(owner=owner, folder=folder)

    assert str(failed.value) == (
        "judgments.tsv, line 2: Fine score '140' is out of range: expected an integer from 0 to 100"
    )
    assert table_snapshot() == before
    assert not Collection.objects.exists()


def test_it_names_a_missing_file_of_the_folder(owner, tmp_path):
    folder = tmp_path / "incomplete"
    folder.mkdir()
    write_lines(folder, "runs.tsv", "S\tq\td")

    with pytest.raises(ImportFailed) as failed:
        mirex_import(owner=owner, folder=folder)

    assert str(failed.value) == "judgments.tsv: no such file in incomplete"
