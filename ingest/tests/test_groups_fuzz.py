"""Property-based fuzzing of the ordered-groups importers (issue 32): a groups file
``NAME QUERY DOC GROUP`` and a past pairwise study's answers CSV, as ``tests/test_fuzz.py``
fuzzes every other importer: each case is accepted or a clean
:class:`~ingest.importers.ImportFailed`, never a traceback, and a clean error leaves the
database exactly as it was (:func:`tests.helpers.fuzzing.run_case`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.importers import ImportFailed
from ingest.importers.groups import groups_import, past_study_import
from tests.helpers.fuzzing import (
    FUZZ,
    hostile_text,
    lines_of,
    near,
    row,
    run_case,
    same_cases_whatever_is_imported,
)
from tests.helpers.importing import collection_make

pytestmark = pytest.mark.django_db

IDS = ["q1", "q2", "d1", "d2", "d3", "T", "T2", "1", "2"]
QUERY, DOC = near("q1", "q2"), near("d1", "d2", "d3", "new")
fields = st.lists(hostile_text(known=IDS), max_size=7)

same_cases_in_every_run = pytest.fixture(autouse=True)(same_cases_whatever_is_imported)


def valid_lines(*lines: str) -> st.SearchStrategy[bytes]:
    """A file of some of ``lines``, each at most once (so that it imports)."""
    return st.lists(st.sampled_from(lines), min_size=1, unique=True).map(
        lambda chosen: "".join(f"{line}\r\n" for line in chosen).encode()
    )


def csv_text(cells: st.SearchStrategy[str], header: st.SearchStrategy[list[str]]):
    """A CSV file: a header, up to six rows of ``cells``, one of three line ends."""
    line = st.lists(cells, max_size=6).map(",".join)
    return st.tuples(header, st.lists(line, max_size=6), st.sampled_from(["\n", "\r\n", "\r"])).map(
        lambda parts: (
            parts[2].join([",".join(parts[0]), *parts[1]]).encode("utf-8", "surrogatepass")
        )
    )


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3", queries="q1 q2")


group_lines = st.one_of(row(near("T", "T2"), QUERY, DOC, near("1", "2", "3")), fields)


@FUZZ
@given(
    data=st.one_of(valid_lines("T\tq1\td1\t1", "T\tq1\td2\t2", "T\tq2\td3\t1", "T2 q1 d3 1"),
                   lines_of(group_lines)),
    options=st.fixed_dictionaries({
        "source": st.one_of(st.none(), hostile_text(known=IDS)),
        "status": st.sampled_from([None, "official", "pilot"]), "replace": st.booleans(),
    }),
)  # fmt: skip
def test_groups_import(collection, tmp_path_factory, data, options):
    path = tmp_path_factory.mktemp("groups") / "groups.txt"
    path.write_bytes(data)
    run_case("import_groups", lambda: groups_import(collection=collection, path=path,
             **options), clean=(ImportFailed,))  # fmt: skip


STUDY = b"query,doc_a,doc_b,answer,worker\n" + b"".join(
    f"q1,{a},{b},{answer},w{w}\n".encode()
    for a, b, answer in (("d1", "d2", "A"), ("d3", "d2", "B"), ("d1", "d3", "A"))
    for w in (1, 2)
)
"""A small study that gives groups: d1 above d2 above d3 for q1, two workers each."""


@FUZZ
@given(
    data=st.one_of(st.just(STUDY), csv_text(near("q1", "d1", "d2", "d3", "A", "B", "equal", "w1"),
                  st.sampled_from([["query", "doc_a", "doc_b", "answer", "worker"],
                                   ["Input.query", "Input.a", "Input.b", "Answer.choice",
                                    "WorkerId", "AssignmentStatus"],
                                   ["query", "doc_a", "answer"], ["query", "query"]]))),
    margin=st.sampled_from([0, 1, 2, 101]),
)  # fmt: skip
def test_past_study_import(collection, tmp_path_factory, data, margin):
    path = tmp_path_factory.mktemp("study") / "study.csv"
    path.write_bytes(data)
    run_case("import_past_study", lambda: past_study_import(collection=collection, path=path,
             margin=margin), clean=(ImportFailed,))  # fmt: skip
