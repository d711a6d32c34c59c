"""A past pairwise study read from its answers CSV (Mechanical Turk's batch results
among others) gives back the groups of the hand-made study of pairwise_study.py."""

import pytest

from evaluation.core.ordered_groups import past_study_groups, read_past_study
from evaluation.core.tests import pairwise_study as study
from evaluation.core.tests.file_errors import read_error
from evaluation.core.tests.pairwise_study import mturk_csv
from evaluation.core.trec import FormatError


def test_importing_the_study_as_mturk_batch_results_reproduces_its_groups(tmp_path):
    path = tmp_path / "Batch_123_batch_results.csv"
    path.write_text(mturk_csv(rejected=5), encoding="utf-8")
    past = read_past_study(path)
    assert (past.answers, past.rejected) == (120, 5)
    assert past_study_groups(past) == {study.QUERY: study.GROUPS}


def test_rejected_assignments_are_left_out():
    # five rejected answers preferring e would have put e above f (3+5 against 4)
    past = read_past_study(mturk_csv(rejected=5))
    assert past.votes[study.QUERY].count("e", "f") == (3, 4, 3)


def test_a_plain_csv_and_other_column_names_read_the_same():
    rows = ["query,doc_a,doc_b,answer,worker"] + [
        f"{study.QUERY},{a},{b},{answer},w{i % 10}"
        for i, (a, b, answer) in enumerate(study.answers())
    ]
    assert past_study_groups(read_past_study("\n".join(rows) + "\n")) == {study.QUERY: study.GROUPS}
    renamed = "\n".join(rows).replace(
        "query,doc_a,doc_b,answer,worker", "seed,left,right,which,who"
    )
    columns = {
        "query": "seed",
        "doc_a": "left",
        "doc_b": "right",
        "answer": "which",
        "worker": "who",
    }
    past = read_past_study(renamed + "\n", columns=columns)
    assert past_study_groups(past) == {study.QUERY: study.GROUPS}


def test_a_file_with_a_byte_order_mark_reads_the_same(tmp_path):
    path = tmp_path / "answers.csv"
    path.write_bytes(b"\xef\xbb\xbf" + mturk_csv().encode())
    assert past_study_groups(read_past_study(path)) == {study.QUERY: study.GROUPS}


HEADER = "query,doc_a,doc_b,answer,worker\n"


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        ("query,doc_a,doc_b,worker\nq,a,b,w\n", 1, "no answer column: expected one of answer"),
        (HEADER + "q,a,b,A,w1\nq,a,b,maybe,w2\n", 3, "answer 'maybe' is not one of A, B, equal"),
        (HEADER + "q,a,a,A,w1\n", 2, "candidate 'a' is compared with itself"),
        (HEADER + "q,a,,A,w1\n", 2, "doc_b '' is empty or has spaces"),
        (HEADER + "q,a b,c,A,w1\n", 2, "doc_a 'a b' is empty or has spaces"),
        (HEADER + "q,a,b,A\n", 2, "expected 5 fields, found 4"),
        (
            HEADER + "q,a,b,A,w1\nq,c,d,A,w1\nq,b,a,B,w1\n",
            4,
            "worker 'w1' already answered the pair 'b', 'a' of query 'q' (line 2)",
        ),
        (HEADER + 'q,a,b,"A,w1\n', 2, "not a CSV row"),
    ],
)
def test_a_bad_row_is_named_with_its_file_and_line(tmp_path, content, line, problem):
    path, message = read_error(read_past_study, tmp_path, content, "answers.csv")
    assert message.startswith(f"{path}:{line}: {problem}")


def test_files_without_answers_or_not_text_are_named(tmp_path):
    empty, header_only, binary = (tmp_path / n for n in ("empty.csv", "header.csv", "bin.csv"))
    empty.write_bytes(b"")
    header_only.write_text(HEADER)
    binary.write_bytes(b"query,doc_a\n\xff\xfe\x00")
    for path, problem in [
        (empty, "empty file: expected a header row"),
        (header_only, "no answers found"),
        (binary, "not UTF-8 text"),
    ]:
        with pytest.raises(FormatError) as error:
            read_past_study(path)
        assert str(error.value).startswith(f"{path}: {problem}")


def test_a_query_whose_answers_stop_early_is_named():
    rows = [HEADER.strip()] + [
        f"q9,{a},{b},{answer},w{i % 10}"
        for i, (a, b, answer) in enumerate(study.answers(study.ROUNDS[:1]))
    ]
    with pytest.raises(ValueError, match="query 'q9': the answers stop before the sort is done"):
        past_study_groups(read_past_study("\n".join(rows) + "\n"))
