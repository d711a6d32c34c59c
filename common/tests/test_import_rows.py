import pytest

from ingest.importers import ImportFailed, read_rows
from tests.helpers.importing import write_lines


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


def test_a_comma_separated_file_is_read_as_csv_and_its_header_row_skipped(tmp_path):
    """Issue 31: runs and judgments saved by a spreadsheet (commas, a header row, quotes)."""
    path = write_lines(
        tmp_path,
        "runs.csv",
        "qid,Q0,docno,rank,score,run_id",
        'q1,Q0,d1,1,0.5,"my run"',
        "q1 , Q0 , d2 , 2 , 0.4 , my run",
    )

    assert list(read_rows(path)) == [
        (2, ["q1", "Q0", "d1", "1", "0.5", "my run"]),
        (3, ["q1", "Q0", "d2", "2", "0.4", "my run"]),
    ]


def test_a_comma_inside_a_space_separated_line_stays_in_its_field(tmp_path):
    # More fields between spaces than between commas: the file is not comma-separated.
    path = write_lines(tmp_path, "run.txt", "q1 Q0 d,1 1 0.5 A", "q1 Q0 d2 2 0.4 A")

    assert next(iter(read_rows(path))) == (1, ["q1", "Q0", "d,1", "1", "0.5", "A"])


def test_only_a_first_line_that_names_columns_is_a_header(tmp_path):
    path = write_lines(tmp_path, "runs.tsv", "system query doc", "system query doc")

    assert list(read_rows(path)) == [(2, ["system", "query", "doc"])]
    data = write_lines(tmp_path, "data.tsv", "S1 q1 d1")
    assert list(read_rows(data)) == [(1, ["S1", "q1", "d1"])]


@pytest.mark.parametrize(
    ("first_bytes", "kind"),
    [(b"RIFF\x24\x08\x00\x00WAVEfmt ", "a WAV audio file"), (b"fLaC\x00\x00\x00\x22", "a FLAC audio file"),
     (b"PK\x03\x04\x14\x00\x06\x00", "a zip file (or an Excel or OpenDocument spreadsheet, which are zips)")],
)  # fmt: skip
def test_a_file_that_is_not_text_says_what_it_is(tmp_path, first_bytes, kind):
    path = tmp_path / "runs.txt"
    path.write_bytes(first_bytes + b"\xff\xfe\x00\n")

    with pytest.raises(ImportFailed) as failed:
        list(read_rows(path))

    assert str(failed.value) == f"runs.txt, line 1: not text but {kind}"
