"""Ordered groups into a collection (issue 32): a groups file ``NAME QUERY DOC GROUP`` and
a past pairwise study, all or nothing, errors naming file and line (ingest/importers/groups.py)."""

from __future__ import annotations

from functools import partial

import pytest

from catalog.models import JudgmentSource, OrderedGroupEntry
from catalog.selectors import source_groups, source_groups_text
from evaluation.core.ordered_groups import read_groups
from ingest.importers import judgments_import
from ingest.importers.groups import groups_import, past_study_import
from tests.helpers import importing as helpers
from tests.helpers.importing import write_lines
from tests.helpers.ordered_groups import GROUPS_FILE, groups_collection

pytestmark = pytest.mark.django_db

import_failure = partial(helpers.import_failure, groups_import)


@pytest.fixture
def collection():
    return groups_collection()


def stored(name: str = "experts") -> dict[str, list[list[str]]]:
    return source_groups(source=JudgmentSource.objects.get(name=name))


def groups_file(tmp_path, text: str = GROUPS_FILE, name: str = "groups.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_it_stores_each_querys_groups_in_the_source_named_on_its_lines(collection, tmp_path):
    summary = groups_import(collection=collection, path=groups_file(tmp_path))

    assert stored() == {"q1": [["d1", "d2"], ["d3"]], "q2": [["d4"], ["d1", "d5"]]}
    source = JudgmentSource.objects.get(name="experts")
    assert (source.kind, source.status, source.origin) == ("groups", "official", "groups.txt")
    assert (summary.sources, summary.queries_created, summary.clips_written) == (("experts",), 2, 6)


def test_the_same_file_twice_changes_nothing(collection, tmp_path):
    groups_import(collection=collection, path=groups_file(tmp_path))
    before = list(OrderedGroupEntry.objects.order_by("pk").values_list())

    summary = groups_import(collection=collection, path=groups_file(tmp_path))

    assert (summary.queries_created, summary.queries_unchanged, summary.clips_written) == (0, 2, 0)
    assert list(OrderedGroupEntry.objects.order_by("pk").values_list()) == before


def test_other_groups_for_a_query_need_replace_and_then_replace_that_query_whole(
    collection, tmp_path
):
    groups_import(collection=collection, path=groups_file(tmp_path))
    changed = groups_file(tmp_path, "experts q1 d3 1\nexperts q1 d1 2\n", "new.txt")

    message = import_failure(collection, changed)
    assert message.startswith(
        "new.txt: source 'experts' already holds other groups for 1 query (q1)"
    )
    assert stored()["q1"] == [["d1", "d2"], ["d3"]]

    summary = groups_import(collection=collection, path=changed, replace=True)
    assert (summary.queries_replaced, summary.queries_kept) == (1, 1)
    assert stored() == {"q1": [["d3"], ["d1"]], "q2": [["d4"], ["d1", "d5"]]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GROUPS_FILE + "experts q2 d9 1\n",
         "bad.txt, line 7: unknown document 'd9': not a clip of collection 'ADR study'"),
        ("experts q7 d1 1\n",
         "bad.txt, line 1: unknown query 'q7': not a query of collection 'ADR study'"),
        (GROUPS_FILE + "experts q1 d2 2\n",
         "bad.txt, line 7: document 'd2' of query 'q1' in 'experts' is already in group 1 "
         "(line 2); a document is in one group"),
        ("experts q1 d1 0\n", "bad.txt, line 1: group '0' is not a whole number from 1"),
        ("experts q1 d1 1\nexperts q1 d2 3\n",
         "bad.txt, line 2: query 'q1' in 'experts' has group 3 but no group 2"),
        ("experts q1 d1\n", "bad.txt, line 1: expected 4 fields (NAME QUERY DOC GROUP), found 3"),
        (GROUPS_FILE + 'experts q1 =HYPERLINK("http://evil") 2\n',
         "bad.txt, line 7: unknown document '=HYPERLINK(\"http://evil\")'"),
        ("experts q1 d1 1\nexperts q1 \x01d2 2\n", "bad.txt, line 2: document id '\\x01d2' contains a control character"),
        (b"experts q1 d1 1\nexperts q1 d\xff 2\n".decode("latin-1"), "bad.txt, line 2: the line is not UTF-8 text"),
        ("", "bad.txt: no groups found"),
    ],
)  # fmt: skip
def test_a_hostile_file_is_refused_with_its_line_and_nothing_is_written(
    collection, tmp_path, text, message
):
    path = tmp_path / "bad.txt"
    path.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode("utf-8"))

    assert import_failure(collection, path).startswith(message)
    assert not OrderedGroupEntry.objects.exists()
    assert not JudgmentSource.objects.exists()


def test_a_formula_in_the_ground_truths_name_is_kept_as_text_and_exported_harmless(
    collection, tmp_path
):
    text = GROUPS_FILE.replace("experts", "=cmd|'/c:calc'!A1")
    groups_import(collection=collection, path=groups_file(tmp_path, text))
    source = JudgmentSource.objects.get()
    assert source.name == "=cmd|'/c:calc'!A1"

    exported = source_groups_text(source=source)

    assert exported.splitlines()[0] == "'=cmd|'/c:calc'!A1 q1 d1 1"  # a spreadsheet shows text


def test_the_groups_never_go_into_a_source_of_relevance_judgments(collection, tmp_path):
    judgments_import(collection=collection, path=write_lines(tmp_path, "j.txt", "q1 d1 50"),
                     source="experts")  # fmt: skip

    message = import_failure(collection, groups_file(tmp_path))

    assert message == (
        "groups.txt: the source 'experts' holds relevance judgments; give the import another "
        "source name"
    )
    assert not OrderedGroupEntry.objects.exists()


def test_relevance_judgments_never_go_into_a_source_of_groups(collection, tmp_path):
    groups_import(collection=collection, path=groups_file(tmp_path))

    message = helpers.import_failure(
        judgments_import, collection, write_lines(tmp_path, "j.txt", "q1 d1 50"), source="experts"
    )

    assert message == (
        "j.txt: the source 'experts' holds ordered groups; give the import another source name"
    )


def test_export_then_import_gives_the_same_groups(collection, tmp_path):
    groups_import(collection=collection, path=groups_file(tmp_path), source="the experts' groups")
    source = JudgmentSource.objects.get()
    exported = source_groups_text(source=source)
    assert read_groups(exported.encode())["the_experts'_groups"] == {
        "q1": [["d1", "d2"], ["d3"]], "q2": [["d4"], ["d1", "d5"]]
    }  # fmt: skip

    other = groups_collection(owner_name="another", name="copy")
    groups_import(collection=other, path=groups_file(tmp_path, exported, "export.txt"))

    copy = JudgmentSource.objects.get(collection=other)
    assert source_groups(source=copy) == source_groups(source=source)
    assert source_groups_text(source=copy) == exported


def test_a_file_with_two_ground_truths_makes_two_sources_and_refuses_one_source_name(
    collection, tmp_path
):
    path = groups_file(tmp_path, GROUPS_FILE + "crowd q1 d3 1\ncrowd q1 d1 2\n")
    message = import_failure(collection, path, source="one")
    assert (
        "holds 2 ground truths (crowd, experts)" in message and not JudgmentSource.objects.exists()
    )

    summary = groups_import(collection=collection, path=path, status="pilot")

    assert set(summary.sources) == {"experts", "crowd"}
    assert stored("crowd") == {"q1": [["d3"], ["d1"]]}
    assert set(JudgmentSource.objects.values_list("status", flat=True)) == {"pilot"}


# A hand-made pairwise study (Urbano, Morato, Marrero and Martín 2010's three-way QuickSort,
# margin 2), in Mechanical Turk's batch results layout:
#   q1: d2 is paired with d1 and with d3, so it is the pivot. d1 vs d2: 3 answers prefer d1,
#       none d2 → d1 − d2 = 3 ≥ 2: d1 above. d3 vs d2: 2 prefer d2, 1 equal → 2 ≥ 2: d3
#       below. Groups: [d1], [d2], [d3].
#   q2: one pair, d1 vs d3: 1 prefers d1, 1 equal (a third answer, w3's, is of a rejected
#       assignment and left out) → 1 < 2: equal. Groups: [d1 d3].
#       With margin 1, 1 ≥ 1: d1 above d3 → [d1], [d3].
MTURK = """\
HITId,AssignmentStatus,WorkerId,Input.query,Input.doc_a,Input.doc_b,Answer.answer
h1,Approved,w1,q1,d1,d2,A
h1,Approved,w2,q1,d2,d1,B
h1,Approved,w3,q1,d1,d2,A
h2,Approved,w1,q1,d3,d2,B
h2,Approved,w2,q1,d2,d3,A
h2,Approved,w3,q1,d3,d2,equal
h3,Approved,w1,q2,d1,d3,A
h3,Approved,w2,q2,d3,d1,same
h3,Rejected,w3,q2,d3,d1,A
"""


def test_a_past_pairwise_study_gives_the_groups_worked_out_by_hand_as_a_pilot(collection, tmp_path):
    path = groups_file(tmp_path, MTURK, "batch.csv")

    summary = past_study_import(collection=collection, path=path)

    assert stored("batch.csv") == {"q1": [["d1"], ["d2"], ["d3"]], "q2": [["d1", "d3"]]}
    source = JudgmentSource.objects.get()
    assert (source.kind, source.status) == ("pairwise", "pilot")
    assert (summary.answers, summary.rejected) == (8, 1)

    past_study_import(collection=collection, path=path, margin=1, source="margin 1")
    assert stored("margin 1")["q2"] == [["d1"], ["d3"]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (MTURK + "h4,Approved,w1,q2,d1,d9,A\n", "bad.csv, line 11: unknown document 'd9'"),
        (MTURK + "h4,Approved,w1,q2,d1,d3,maybe\n",
         "bad.csv, line 11: answer 'maybe' is not one of A, B, equal"),
        (MTURK + "h4,Approved,w1,q2,d1,d3,B\n",
         "bad.csv, line 11: worker 'w1' already answered the pair 'd1', 'd3' of query 'q2' (line 8)"),
        ("query,doc_a,answer,worker\nq1,d1,A,w1\n", "bad.csv, line 1: no doc_b column"),
    ],
)  # fmt: skip
def test_a_hostile_past_study_is_refused_with_its_line(collection, tmp_path, text, message):
    path = groups_file(tmp_path, text, "bad.csv")

    assert helpers.import_failure(past_study_import, collection, path).startswith(message)
    assert not JudgmentSource.objects.exists()
