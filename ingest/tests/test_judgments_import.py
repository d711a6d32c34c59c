from functools import partial

import pytest

from catalog.models import RelevanceJudgment
from common.files.inputs import NO_DATA_LINES
from ingest.importers import judgments_import
from tests.helpers import importing as helpers
from tests.helpers.importing import collection_make, table_snapshot, write_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3", queries="q1 q2")


import_failure = partial(helpers.import_failure, judgments_import)


def stored() -> dict[tuple[str, str], tuple[int | None, int | None]]:
    """(query, doc) → (broad, fine) of every judgment."""
    return {
        (query, doc): (broad, fine)
        for query, doc, broad, fine in RelevanceJudgment.objects.values_list(
            "query__clip__external_id", "clip__external_id", "broad", "fine"
        )
    }


def test_it_imports_fine_scores_from_three_fields(collection, tmp_path):
    path = write_lines(
        tmp_path, "judgments.tsv", "# query doc fine", "q1\td1\t18", "q1\td2\t100", "q2 d3 0"
    )

    summary = judgments_import(collection=collection, path=path)

    assert (summary.format, summary.scale, summary.judgments_created) == ("fine", "fine", 3)
    assert stored() == {
        ("q1", "d1"): (None, 18),
        ("q1", "d2"): (None, 100),
        ("q2", "d3"): (None, 0),
    }


def test_it_imports_fine_and_broad_scores_from_four_fields(collection, tmp_path):
    path = write_lines(tmp_path, "judgments.tsv", "q1 d1 75 2", "q1 d2 10 0", "q2 d3 40")

    summary = judgments_import(collection=collection, path=path)

    assert summary.format == "fine"
    assert stored() == {("q1", "d1"): (2, 75), ("q1", "d2"): (0, 10), ("q2", "d3"): (None, 40)}


def test_it_stores_qrels_on_the_broad_scale_by_default(collection, tmp_path):
    path = write_lines(tmp_path, "qrels.txt", "# qid iter docno rel", "q1 0 d1 2", "q1 0 d2 0")

    summary = judgments_import(collection=collection, path=path)

    assert (summary.format, summary.scale) == ("qrels", "broad")
    assert stored() == {("q1", "d1"): (2, None), ("q1", "d2"): (0, None)}


def test_it_stores_qrels_on_the_fine_scale_when_told(collection, tmp_path):
    path = write_lines(tmp_path, "qrels.txt", "q1 Q0 d1 85", "q2 Q0 d1 5")

    summary = judgments_import(collection=collection, path=path, scale="fine")

    assert (summary.format, summary.scale) == ("qrels", "fine")
    assert stored() == {("q1", "d1"): (None, 85), ("q2", "d1"): (None, 5)}


def test_it_reads_three_fields_on_the_broad_scale_when_told(collection, tmp_path):
    path = write_lines(tmp_path, "broad.tsv", "q1 d1 1")

    judgments_import(collection=collection, path=path, scale="broad")

    assert stored() == {("q1", "d1"): (1, None)}


def test_it_reads_a_four_field_file_as_the_format_it_is_told(tmp_path):
    # Auto-detection would take "q1 0 d1 2" for qrels; told "fine", "0" is a document id.
    zero = collection_make(name="zero", clips="0", queries="q1")
    path = write_lines(tmp_path, "judgments.tsv", "q1 0 50 1")

    summary = judgments_import(collection=zero, path=path, format="fine")

    assert summary.format == "fine"
    judgment = RelevanceJudgment.objects.get(query__collection=zero)
    assert (judgment.clip.external_id, judgment.broad, judgment.fine) == ("0", 1, 50)


def test_it_names_the_source_after_the_file_unless_told(collection, tmp_path):
    path = write_lines(tmp_path, "judgments.tsv", "q1 d1 10")

    judgments_import(collection=collection, path=path)
    judgments_import(collection=collection, path=path, source="evalutron")

    assert sorted(RelevanceJudgment.objects.values_list("source__name", "assessor")) == [
        ("evalutron", None),
        ("judgments.tsv", None),
    ]
    assert set(collection.judgment_sources.values_list("kind", flat=True)) == {"import"}


@pytest.mark.parametrize(
    ("lines", "options", "message"),
    [
        (
            ["q1 d1 10", "q1 d2 101"],
            {},
            "judgments.tsv, line 2: Fine score '101' is out of range: expected an integer "
            "from 0 to 100",
        ),
        (
            ["q1 d1 -1"],
            {},
            "judgments.tsv, line 1: Fine score '-1' is out of range: expected an integer "
            "from 0 to 100",
        ),
        (
            ["q1 d1 45.5"],
            {},
            "judgments.tsv, line 1: Fine score '45.5' is out of range: expected an integer "
            "from 0 to 100",
        ),
        (["q1 d1 high"], {}, "judgments.tsv, line 1: Fine score 'high' is not a number"),
        (
            ["q1 d1 50 3"],
            {},
            "judgments.tsv, line 1: Broad score '3' is out of range: expected an integer "
            "from 0 to 2",
        ),
        (
            ["q1 0 d1 1", "q1 0 d2 3"],
            {},
            "judgments.tsv, line 2: Broad score '3' is out of range: expected an integer "
            "from 0 to 2",
        ),
        (
            ["q1 0 d1 -1"],
            {},
            "judgments.tsv, line 1: Broad score '-1' is out of range: expected an integer "
            "from 0 to 2",
        ),
        (
            ["q1 0 d1 1", "q1 0 d2"],
            {},
            "judgments.tsv, line 2: expected 4 fields (qid iter docno rel), found 3",
        ),
        (
            ["q1 d1 10", "q1 d2 10 1 extra"],
            {},
            "judgments.tsv, line 2: expected 3 or 4 fields (query doc fine [broad]), found 5",
        ),
        (
            ["q1 d1"],
            {},
            "judgments.tsv, line 1: not judgments: found 2 fields (“q1 d1”). Judgments' lines "
            "are qid iter docno rel (TREC qrels) or query doc fine [broad]",
        ),
        (["", "# nothing"], {}, f"judgments.tsv: {NO_DATA_LINES}"),
        (
            ["q1 d1 10", "d1 d2 10"],
            {},
            "judgments.tsv, line 2: unknown query 'd1': not a query of collection 'test' "
            "(query ids become queries when runs that rank them are imported — so runs come "
            "first — or when you choose to make query ids into queries)",
        ),
        (
            ["q1 d1 10", "q1 d9 10"],
            {},
            "judgments.tsv, line 2: unknown document 'd9': not a clip of collection 'test'",
        ),
        (
            ["q1 d1 10", "q2 d1 10", "q1 d1 10"],
            {},
            "judgments.tsv, line 3: duplicate judgment of document 'd1' for query 'q1' "
            "(first on line 1)",
        ),
    ],
)
def test_it_rejects_bad_input_naming_file_line_and_problem(
    collection, tmp_path, lines, options, message
):
    path = write_lines(tmp_path, "judgments.tsv", *lines)

    assert import_failure(collection, path, **options) == message


def test_it_creates_a_clip_for_an_unknown_document_when_asked(collection, tmp_path):
    path = write_lines(tmp_path, "judgments.tsv", "q1 new 10")

    summary = judgments_import(collection=collection, path=path, create_missing_clips=True)

    assert summary.clips_created == 1
    assert stored() == {("q1", "new"): (None, 10)}


def test_a_bad_line_at_the_end_leaves_the_database_unchanged(collection, tmp_path):
    judgments_import(collection=collection, path=write_lines(tmp_path, "judgments.tsv", "q1 d1 10"))
    before = table_snapshot()
    path = write_lines(tmp_path, "judgments.tsv", "q1 d1 20", "q1 new 30", "q2 d1 200")

    import_failure(collection, path, create_missing_clips=True)

    assert table_snapshot() == before


def test_importing_the_same_file_twice_changes_nothing(collection, tmp_path):
    path = write_lines(tmp_path, "judgments.tsv", "q1 d1 10 0", "q1 d2 90 2", "q2 d3 50")
    judgments_import(collection=collection, path=path)
    before = table_snapshot()

    summary = judgments_import(collection=collection, path=path)

    assert table_snapshot() == before  # including every updated_at
    assert (summary.judgments_created, summary.judgments_updated, summary.judgments_present) == (
        0,
        0,
        3,
    )


def test_importing_a_corrected_file_changes_only_the_changed_judgments_with_replace(
    collection, tmp_path
):
    judgments_import(
        collection=collection, path=write_lines(tmp_path, "judgments.tsv", "q1 d1 10", "q1 d2 90")
    )
    untouched = RelevanceJudgment.objects.get(clip__external_id="d2")
    changed = RelevanceJudgment.objects.get(clip__external_id="d1")
    corrected = write_lines(tmp_path, "judgments.tsv", "q1 d1 15", "q1 d2 90")

    # Without replace, the import says what it would change and changes nothing.
    assert import_failure(collection, corrected) == (
        "judgments.tsv: 1 judgment(s) already in source 'judgments.tsv' would change "
        "(line 1: q1 d1 Fine 10 → 15): give replace (--replace) to change them, "
        "or another source name to keep both"
    )
    summary = judgments_import(collection=collection, path=corrected, replace=True)

    assert (summary.judgments_created, summary.judgments_updated, summary.judgments_present) == (
        0,
        1,
        1,
    )
    assert stored() == {("q1", "d1"): (None, 15), ("q1", "d2"): (None, 90)}
    untouched_after = RelevanceJudgment.objects.get(pk=untouched.pk)
    changed_after = RelevanceJudgment.objects.get(pk=changed.pk)
    assert untouched_after.updated_at == untouched.updated_at
    assert changed_after.updated_at > changed.updated_at
