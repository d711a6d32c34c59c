"""The CrowdFlower column mapping and translation (pastanswers/importers/crowdflower.py): pure Python."""

from __future__ import annotations

import ast
import csv
import io
from pathlib import Path

import pytest

from common.files.csvfile import csv_records
from pastanswers.importers import crowdflower
from pastanswers.importers.crowdflower import (
    ColumnMapping,
    MappingError,
    TranslationError,
    answers_csv_write,
    mapping_propose,
)
from tests.helpers.shared_data import THESIS, require
from tests.helpers.uploads import EXPORT

HEADER = next(csv.reader(io.StringIO(EXPORT.decode())))


def translate(export: bytes, mapping: ColumnMapping) -> tuple[list[str], crowdflower.Translation]:
    out = io.StringIO()
    done = answers_csv_write(csv_records(export, path="f.csv"), mapping, out)
    return out.getvalue().split("\n"), done


def test_the_module_imports_no_django():
    tree = ast.parse(Path(crowdflower.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(
        name and name.split(".")[0] in ("django", "common", "catalog", "crowd", "ingest", "judging")
        for name in imported
    )


def test_the_proposal_reads_the_thesis_study_columns():
    mapping = mapping_propose(HEADER, ["System A", "Both are good", "Service B", "Neither is good"])
    assert (mapping.query, mapping.worker, mapping.answer) == (
        "q", "_worker_id", "what_service_gives_better_results",
    )  # fmt: skip
    assert (mapping.list_a, mapping.list_b) == (["d1a", "d2a"], ["d1b", "d2b"])
    assert (mapping.fine_a, mapping.broad_a) == (["f1a", "f2a"], [])
    assert (mapping.answered_at, mapping.started_at, mapping.comment) == (
        "_created_at", "_started_at", "comments",
    )  # fmt: skip
    assert mapping.answer_values == {"System A": "a_better", "Both are good": "both_good",
                                     "Service B": "b_better", "Neither is good": "both_bad"}  # fmt: skip


def test_ranks_are_ordered_by_number_not_by_column_order():
    header = ["d10a", "d2a", "d1a", "d1b", "d2b", "d10b"]
    assert mapping_propose(header).list_a == ["d1a", "d2a", "d10a"]


def test_each_answer_keeps_its_export_line_and_left_out_rows_are_counted():
    mapping = mapping_propose(HEADER, ["System A", "Both are good", "Service B"])
    lines, done = translate(EXPORT, mapping)
    assert done.answers == 3 and done.left_out == {"_golden": 1, "_tainted": 0}
    # Export lines: 1 header, 2 row 101, 3 row 102 (trap: blank), 4–5 row 103, 6 row 104.
    assert lines[0].startswith("query,list_a,list_b,answer,worker")
    assert lines[1].startswith(
        "q9,n1 n2,n3 n4,a_better,7,90 80,10 20,,,2012-01-23T10:11:12+00:00,60,"
    )
    assert lines[2] == ""
    assert lines[3].startswith("q9,n3 n4,n1 n2,both_good,9,") and lines[4] == 'songs"'
    assert lines[5].startswith("q9,n1 n2,n3 n4,b_better,10,")


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        ((b",System A,\n", b",Maybe,\n"), 2, "'Maybe' has no meaning in the column mapping"),
        ((b"90,80,10,20,Service B", b"90,,10,20,Service B"), 6, "fine_a: column(s) f2a empty"),
        ((b"n1,n2,n3,n4,90,80,10,20,System A,\n", b"n1,n 2,n3,n4,90,80,10,20,System A,\n"), 2,
         "list_a: a value holds a space"),
        ((b"1/23/2012 10:10:12", b"1/23/2012 10:12:00"), 2, "_started_at is after _created_at"),
    ],
)  # fmt: skip
def test_a_row_that_cannot_be_translated_names_its_line(change, line, message):
    mapping = mapping_propose(HEADER, ["System A", "Both are good", "Service B"])
    with pytest.raises(TranslationError) as error:
        translate(EXPORT.replace(*change, 1), mapping)
    assert error.value.line == line and message in error.value.message


def test_a_mapping_that_does_not_fit_the_file_says_every_problem():
    mapping = ColumnMapping(query="qq", answer="", worker="_worker_id", list_a=["d1a"],
                            list_b=["d1b", "d2b"], fine_a=["f1a", "f2a"],
                            answer_values={"x": "maybe"})  # fmt: skip
    with pytest.raises(MappingError) as error:
        mapping.check(HEADER)
    assert error.value.problems == [
        "choose the column(s) of answer",
        "query: the file has no column 'qq'",
        "list_a has 1 column(s) and list_b 2: both lists have the same length",
        "fine_a has 2 column(s) for 1 documents of list_a",
        "answers must be one of a_better, b_better, both_good, both_bad, not maybe",
    ]


def test_a_stored_mapping_of_the_wrong_shape_is_refused_not_trusted():
    with pytest.raises(MappingError, match="list_a must be a list of column names"):
        ColumnMapping.from_dict({"list_a": "d1a", "query": "q"})
    with pytest.raises(MappingError, match="unknown part"):
        ColumnMapping.from_dict({"query": "q", "evil": 1})
    mapping = mapping_propose(HEADER)
    assert ColumnMapping.from_dict(mapping.to_dict()) == mapping


def test_a_header_naming_a_column_twice_is_refused():
    export = EXPORT.replace(b"comments\n", b"q\n", 1)
    with pytest.raises(TranslationError, match="names column"):
        translate(export, mapping_propose(HEADER))


def test_the_module_says_whose_answers_its_columns_are_and_the_thesis_own_figures():
    # The ISMIR 2012 answers (2,200) are not the thesis' chapter 3–4 data; what the
    # docstring says of the thesis' study must be what the thesis says (§3.2.3).
    doc = " ".join(crowdflower.__doc__.split())
    assert "analysed in ch. 4" not in doc
    assert "ISMIR 2012 answers: a CrowdFlower study of 2,200 answers" in doc
    require(THESIS)
    thesis = " ".join(THESIS.read_text(encoding="utf-8").split())
    for figure in ("11,042 answers", "9,373", "4,115"):
        assert figure in doc and figure in thesis, figure
