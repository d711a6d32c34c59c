"""The groups file ``NAME QUERY DOC GROUP``: read, written, turned into judgments, and
every bad line named with its file and line."""

import pytest

from evaluation.core.ordered_groups import (
    group_levels,
    groups_qrels,
    groups_text,
    read_groups,
    write_groups,
)
from evaluation.core.tests.file_errors import read_error

TEXT = "gt 1 d1 1\ngt 1 d2 1\ngt 1 d3 2\ngt 2 x 1\ncrowd 1 d3 1\ncrowd 1 d1 2\n"


def test_it_reads_several_ground_truths_with_their_groups_in_order():
    truths = read_groups(TEXT.encode())
    assert truths == {
        "gt": {"1": [["d1", "d2"], ["d3"]], "2": [["x"]]},
        "crowd": {"1": [["d3"], ["d1"]]},
    }


def test_writing_then_reading_gives_the_same_groups(tmp_path):
    truths = read_groups(TEXT.encode())
    path = tmp_path / "groups.txt"
    write_groups(path, truths)
    assert read_groups(path) == truths


def test_the_written_file_lists_queries_groups_and_documents_in_order():
    # queries in numeric order (10 after 9), documents sorted inside a group
    truth = {"gt": {"10": [["b", "a"]], "9": [["z"], ["y", "x"]]}}
    assert groups_text(truth) == "gt 9 z 1\ngt 9 x 2\ngt 9 y 2\ngt 10 a 1\ngt 10 b 1\n"


def test_lines_in_any_order_with_tabs_and_crlf_give_the_same_groups():
    shuffled = b"gt\t1\td3\t2\r\n\r\ngt 1 d2 1\ngt  1  d1  1\n"
    assert read_groups(shuffled)["gt"]["1"] == [["d2", "d1"], ["d3"]]


def test_group_g_of_g_groups_is_level_g_minus_g_plus_1():
    # three groups: levels 3, 2, 1 (0 stays "not in the ground truth")
    assert group_levels([["a"], ["b", "c"], ["d"]]) == {"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0}
    qrels = groups_qrels({"q": [["a"], ["b", "c"], ["d"]], "r": [["x", "y"]]})
    assert qrels.to_dict() == {
        "q": {"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0},
        "r": {"x": 1.0, "y": 1.0},
    }


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"gt 1 d1 1\ngt 1 d2\n", 2, "expected 4 fields (NAME QUERY DOC GROUP), found 3"),
        (b"gt 1 d1 1 extra\n", 1, "expected 4 fields (NAME QUERY DOC GROUP), found 5"),
        (b"gt 1 d1 0\n", 1, "group '0' is not a whole number from 1 (1 = most similar)"),
        (b"gt 1 d1 -1\n", 1, "group '-1' is not a whole number from 1"),
        (b"gt 1 d1 1.0\n", 1, "group '1.0' is not a whole number from 1"),
        (b"gt 1 d1 \xd9\xa3\n", 1, "group '\u0663' is not a whole number from 1"),
        (b"gt 1 \xff 1\n", 1, "the line is not UTF-8 text"),
        (
            b"gt 1 d1 1\ngt 1 d2 2\ngt 1 d1 2\n",
            3,
            "document 'd1' of query '1' in 'gt' is already in group 1 (line 1)",
        ),
        (
            b"gt 1 d1 1\ngt 1 d2 3\ngt 1 d3 3\n",
            2,
            "query '1' in 'gt' has group 3 but no group 2: groups are numbered 1, 2, 3, … "
            "without gaps",
        ),
    ],
)
def test_a_bad_line_is_named_with_its_file_and_line(tmp_path, content, line, problem):
    path, message = read_error(read_groups, tmp_path, content, "groups.txt")
    assert message.startswith(f"{path}:{line}: {problem}")


def test_an_empty_file_is_named(tmp_path):
    path, message = read_error(read_groups, tmp_path, b"\n\n")
    assert message == f"{path}: no groups found (expected lines of NAME QUERY DOC GROUP)"


@pytest.mark.parametrize(
    ("truth", "problem"),
    [
        ({"gt": {"q": [["a b"]]}}, "document 'a b' cannot be written"),
        ({"my gt": {"q": [["a"]]}}, "name 'my gt' cannot be written"),
        ({"gt": {"q": [["a"], []]}}, "group 2 of query 'q' is empty"),
        ({"gt": {"q": [["a"], ["a"]]}}, "document 'a' of query 'q' is in two groups"),
    ],
)
def test_groups_a_file_could_not_hold_are_not_written(truth, problem):
    with pytest.raises(ValueError, match=problem):
        groups_text(truth)
