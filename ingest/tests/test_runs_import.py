from functools import partial

import pytest

from catalog.models import Clip, Query, RunEntry, System
from common.files.inputs import NO_DATA_LINES
from ingest.importers import runs_import
from tests.helpers import importing as helpers
from tests.helpers.importing import collection_make, ranked_list, table_snapshot, write_lines

pytestmark = pytest.mark.django_db

CLIPS = "d1 d2 d3 d4"


@pytest.fixture
def collection():
    return collection_make(clips=CLIPS, queries="q1 q2")


import_failure = partial(helpers.import_failure, runs_import)


def test_it_imports_a_ranked_list_file_in_rank_order(collection, tmp_path):
    path = write_lines(
        tmp_path,
        "runs.tsv",
        "# system query doc, in rank order",
        "S1\tq1\td3",
        "S1\tq1\td1",
        "",
        "S1    q2  d2",
        "S2\tq1\td4",
    )

    summary = runs_import(collection=collection, path=path)

    assert summary.format == "ranked"
    assert (summary.systems_created, summary.run_entries_created) == (2, 4)
    assert ranked_list("S1", "q1") == [("d3", None), ("d1", None)]
    assert ranked_list("S1", "q2") == [("d2", None)]
    assert ranked_list("S2", "q1") == [("d4", None)]


def test_it_ranks_a_trec_run_by_score_with_ties_by_docno_descending(collection, tmp_path):
    # The expected order follows trec_eval's comp_sim_docno (form_res_rels.c): score
    # descending, then docno descending; the rank column is ignored.
    path = write_lines(
        tmp_path,
        "run.A",
        "# qid Q0 docid rank score tag",
        "q1 Q0 d1 1 0.5 A",
        "q1 Q0 d2 2 0.9 A",
        "q1\tQ0\td3\t3\t0.5\tA",
        "q1 Q0 d4 4 0.7 A",
        "q2 Q0 d1 1 -2.5e1 B",
    )

    summary = runs_import(collection=collection, path=path)

    assert summary.format == "trec"
    assert ranked_list("A", "q1") == [("d2", 0.9), ("d4", 0.7), ("d3", 0.5), ("d1", 0.5)]
    assert ranked_list("B", "q2") == [("d1", -25.0)]
    assert list(
        RunEntry.objects.filter(system__name="A").order_by("rank").values_list("rank", flat=True)
    ) == [1, 2, 3, 4]


@pytest.mark.parametrize(("format", "line"), [("trec", "q1 Q0 d1 1 0.5 A"), ("ranked", "A q1 d1")])
def test_it_reads_the_format_it_is_told(collection, tmp_path, format, line):
    path = write_lines(tmp_path, "run.txt", line)

    summary = runs_import(collection=collection, path=path, format=format)

    assert summary.format == format
    assert ranked_list("A", "q1")[0][0] == "d1"


def test_it_rejects_a_duplicate_document_in_one_ranked_list(collection, tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "# header", "S\tq1\td1", "S\tq1\td2", "S\tq1\td1")

    assert import_failure(collection, path) == (
        "runs.tsv, line 4: duplicate document 'd1' in the ranked list of system 'S' "
        "for query 'q1' (first on line 2)"
    )


def test_it_accepts_one_document_in_the_lists_of_two_systems_or_two_queries(collection, tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "T q1 d1", "S q2 d1")

    assert runs_import(collection=collection, path=path).run_entries_created == 3


def test_it_rejects_a_duplicate_document_in_a_trec_run(collection, tmp_path):
    path = write_lines(tmp_path, "run.A", "q1 Q0 d1 1 0.9 A", "q1 Q0 d1 2 0.5 A")

    assert import_failure(collection, path) == (
        "run.A, line 2: duplicate document 'd1' in the ranked list of system 'A' "
        "for query 'q1' (first on line 1)"
    )


def test_it_rejects_an_unknown_query(collection, tmp_path):
    # d1 is a clip of the collection but not one of its queries.
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "S d1 d2")

    assert import_failure(collection, path) == (
        "runs.tsv, line 2: unknown query 'd1': not a query of collection 'test' (choose to "
        "make query ids into queries, and this one becomes a query)"
    )


def test_it_makes_a_query_of_an_unknown_query_id_when_asked(collection, tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "S d1 d2")

    summary = runs_import(collection=collection, path=path, create_missing_queries=True)

    assert summary.queries_created == 1
    assert Query.objects.filter(collection=collection, clip__external_id="d1").exists()


def test_it_rejects_an_unknown_document(collection, tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "S q1 nowhere")

    assert import_failure(collection, path) == (
        "runs.tsv, line 2: unknown document 'nowhere': not a clip of collection 'test' (choose "
        "to create clips for unknown ids, or upload its audio first)"
    )


def test_it_creates_a_clip_for_an_unknown_document_when_asked(collection, tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "S q1 new")

    summary = runs_import(collection=collection, path=path, create_missing_clips=True)

    assert summary.clips_created == 1
    assert ranked_list("S", "q1") == [("d1", None), ("new", None)]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            ["S q1 d1", "S q1"],
            "runs.tsv, line 2: expected 3 fields (system query doc), found 2",
        ),
        (
            ["q1 Q0 d1 1 0.5 A", "q1 Q0 d2 2 0.4 A extra"],
            "runs.tsv, line 2: expected 6 fields (qid Q0 docid rank score tag), found 7",
        ),
        (["q1 Q0 d1 first 0.5 A"], "runs.tsv, line 1: rank 'first' is not an integer"),
        (["q1 Q0 d1 1 high A"], "runs.tsv, line 1: score 'high' is not a number"),
        (["q1 Q0 d1 1 nan A"], "runs.tsv, line 1: score 'nan' is not a finite number"),
        (
            ["# only a comment", "S q1 d1 0.5"],
            "runs.tsv, line 2: not a run: found 4 fields (“S q1 d1 0.5”). A run's lines are "
            "qid Q0 docid rank score tag (a TREC run) or system query doc (ranked lists)",
        ),
        (["# nothing but comments"], f"runs.tsv: {NO_DATA_LINES}"),
    ],
)
def test_it_rejects_a_malformed_line_naming_file_line_and_problem(
    collection, tmp_path, lines, message
):
    path = write_lines(tmp_path, "runs.tsv", *lines)

    assert import_failure(collection, path) == message


def test_it_names_a_missing_file(collection, tmp_path):
    assert import_failure(collection, tmp_path / "runs.tsv") == "runs.tsv: no such file"


def test_a_bad_line_at_the_end_leaves_the_database_unchanged(collection, tmp_path):
    before = table_snapshot()
    path = write_lines(tmp_path, "runs.tsv", "S q1 d1", "S q1 d2", "T q2 d3", "T q2 unknown")

    import_failure(collection, path, create_missing_queries=True)

    assert table_snapshot() == before


def test_importing_the_same_file_twice_changes_nothing(collection, tmp_path):
    path = write_lines(tmp_path, "run.A", "q1 Q0 d1 1 0.5 A", "q1 Q0 d2 2 0.25 A", "q2 Q0 d3 1 1 A")
    runs_import(collection=collection, path=path)
    before = table_snapshot()

    summary = runs_import(collection=collection, path=path)

    assert table_snapshot() == before
    assert (summary.systems_created, summary.lists_created, summary.run_entries_created) == (
        0,
        0,
        0,
    )
    assert (summary.systems_present, summary.lists_present, summary.run_entries_present) == (
        1,
        2,
        3,
    )


def test_it_adds_the_lists_of_a_second_file_to_an_existing_system(collection, tmp_path):
    runs_import(collection=collection, path=write_lines(tmp_path, "a.tsv", "S q1 d1"))

    summary = runs_import(collection=collection, path=write_lines(tmp_path, "b.tsv", "S q2 d2"))

    assert (summary.systems_present, summary.lists_created) == (1, 1)
    assert System.objects.filter(collection=collection).count() == 1
    assert ranked_list("S", "q1") == [("d1", None)]
    assert ranked_list("S", "q2") == [("d2", None)]


def test_it_refuses_to_overwrite_a_different_stored_list(collection, tmp_path):
    runs_import(collection=collection, path=write_lines(tmp_path, "a.tsv", "S q1 d1", "S q1 d2"))
    changed = write_lines(tmp_path, "b.tsv", "# reordered", "S q1 d2", "S q1 d1")

    assert import_failure(collection, changed) == (
        "b.tsv, line 2: the ranked list of system 'S' for query 'q1' is already stored "
        "with other documents or scores (import with replace to overwrite it)"
    )
    assert ranked_list("S", "q1") == [("d1", None), ("d2", None)]


def test_it_replaces_a_different_stored_list_when_asked(collection, tmp_path):
    runs_import(collection=collection, path=write_lines(tmp_path, "a.tsv", "S q1 d1", "S q1 d2"))
    changed = write_lines(tmp_path, "b.tsv", "S q1 d3")

    summary = runs_import(collection=collection, path=changed, replace=True)

    assert (summary.lists_replaced, summary.run_entries_deleted) == (1, 2)
    assert ranked_list("S", "q1") == [("d3", None)]


def test_it_only_reads_the_clips_and_queries_of_its_own_collection(collection, tmp_path):
    other = collection_make(name="other", clips="x1", queries="qx")
    path = write_lines(tmp_path, "runs.tsv", "S qx x1")

    assert import_failure(collection, path) == (
        "runs.tsv, line 1: unknown query 'qx': not a query of collection 'test' (choose to "
        "make query ids into queries, and this one becomes a query)"
    )
    assert Clip.objects.filter(collection=other).count() == 2


def test_judgments_given_as_ranked_lists_are_named_as_judgments(collection, tmp_path):
    # "q1 d1 40" has the three fields of ranked lists: read as system q1, query d1.
    path = write_lines(tmp_path, "runs.txt", "q1 d1 40", "q1 d2 10")

    assert import_failure(collection, path) == (
        "runs.txt, line 1: unknown query 'd1': not a query of collection 'test' (choose to "
        "make query ids into queries, and this one becomes a query); line 1 looks like "
        "judgments (query doc fine [broad]): if the file holds judgments, upload it as judgments"
    )
