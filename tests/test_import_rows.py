import pytest

from judging.importers import ImportFailed, read_rows
from tests.importing import write_lines


def test_it_reads_crlf_tabs_and_runs_of_spaces_and_skips_comments_and_blank_lines(tmp_path):
    path = write_lines(
        tmp_path,
        "runs.tsv",
        "# a comment",
        "S1\tq1\td1",
        "",
        "   ",
        "  # an indented comment",
        "S1   q1  d2",
    )

    assert list(read_rows(path)) == [(2, ["S1", "q1", "d1"]), (6, ["S1", "q1", "d2"])]


def test_it_reads_lf_line_ends_and_ignores_a_byte_order_mark(tmp_path):
    path = tmp_path / "runs.tsv"
    path.write_bytes("\ufeffS1 q1 d1\nS1 q1 d2\n".encode())

    assert list(read_rows(path)) == [(1, ["S1", "q1", "d1"]), (2, ["S1", "q1", "d2"])]


def test_it_keeps_spaces_inside_the_fields_of_a_tab_separated_line(tmp_path):
    path = write_lines(tmp_path, "metadata.tsv", "d1\tLed Zeppelin\tHard Rock ")

    assert list(read_rows(path)) == [(1, ["d1", "Led Zeppelin", "Hard Rock"])]


def test_it_names_the_file_and_line_of_text_that_is_not_utf8(tmp_path):
    path = tmp_path / "runs.tsv"
    path.write_bytes(b"S1 q1 d1\r\nS1 q1 \xff\r\n")

    with pytest.raises(ImportFailed) as failed:
        list(read_rows(path))

    assert str(failed.value) == "runs.tsv, line 2: not UTF-8 text"


def test_it_names_a_missing_file(tmp_path):
    with pytest.raises(ImportFailed) as failed:
        list(read_rows(tmp_path / "missing.tsv"))

    assert str(failed.value) == "missing.tsv: no such file"


def test_an_import_failure_reads_file_comma_line_colon_problem(tmp_path):
    error = ImportFailed(tmp_path / "runs.tsv", 12, "duplicate document 'x'")

    assert str(error) == "runs.tsv, line 12: duplicate document 'x'"
    assert (error.path, error.line, error.message) == (
        tmp_path / "runs.tsv",
        12,
        "duplicate document 'x'",
    )
