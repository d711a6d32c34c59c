"""Reading TREC and MIREX files: detection, ordering, CRLF, and errors that name the line."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evaluation.core import FormatError, Qrels, Run, read_qrels, read_runs
from evaluation.core.trec import sort_queries
from tests.helpers.shared_data import MIREX2011

DATA = MIREX2011


def test_trec_runs_rank_by_score_descending_ties_by_docno_descending():
    runs = read_runs(b"1 Q0 a 1 2.0 sys\n1 Q0 c 2 3.0 sys\n1 Q0 b 3 2.0 sys\n")
    assert runs["sys"].ranking("1") == ["c", "b", "a"]  # trec_eval's order


def test_keep_order_uses_the_file_order():
    runs = read_runs(b"1 Q0 a 1 2.0 sys\n1 Q0 c 2 3.0 sys\n", keep_order=True)
    assert runs["sys"].ranking("1") == ["a", "c"]


def test_ranked_list_files_hold_one_run_per_system_in_file_order():
    runs = read_runs(b"s1\tq1\td2\r\ns2\tq1\td1\r\ns1\tq1\td1\r\n")
    assert sorted(runs) == ["s1", "s2"]
    assert runs["s1"].ranking("q1") == ["d2", "d1"]


def test_formats_are_detected():
    trec = read_qrels(b"1 0 d1 2\n1 0 d2 0\n")
    mirex = read_qrels(b"q\td1\t80\t2\r\nq\td2\t10\t0\r\n", scale="broad")
    assert trec.default == "raw"
    assert (mirex.default, sorted(mirex.columns)) == ("broad", ["broad", "fine"])
    assert read_qrels(b"q d1 80\n").default == "fine"


def test_the_mirex_2011_files_read_with_their_crlf_line_ends():
    qrels = read_qrels(f"{DATA}/judgments.tsv")
    runs = read_runs(f"{DATA}/runs.tsv")
    assert len(qrels.docs) == 6322  # README: 6,322 judgments
    assert len(runs) == 18  # 18 systems
    assert {len(run.query_ids) for run in runs.values()} == {100}
    assert all(len(run.docs) == 500 for run in runs.values())  # 100 queries x top 5


def test_a_duplicate_document_in_a_ranking_names_its_line():
    with pytest.raises(FormatError, match=r"<bytes>:4: document 'a' ranked twice for query '1'"):
        read_runs(b"1 Q0 a 1 3 x\n\n1 Q0 b 2 2 x\n1 Q0 a 3 1 x\n")


def test_malformed_lines_name_file_line_and_problem(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"1 Q0 a 1 3 x\n1 Q0 b 2 x\n")
    with pytest.raises(FormatError) as error:
        read_runs(path)
    assert (error.value.path, error.value.line) == (str(path), 2)
    assert "expected 6 fields, found 5" in str(error.value)
    with pytest.raises(FormatError, match="2: score 'high' is not a number"):
        read_runs(b"1 Q0 a 1 3 x\n1 Q0 b 2 high x\n")
    with pytest.raises(FormatError, match="judged twice"):
        read_qrels(b"1 0 a 1\n1 0 a 0\n")
    with pytest.raises(FormatError, match="2: expected 6 fields, found 5"):
        read_runs(b"1 Q0 a 1 3 x\n1  a 2 2 x\n")  # an empty field in a column not kept
    with pytest.raises(ValueError, match="valid: auto, trec, mirex"):
        read_runs(b"", format="csv")


def test_in_memory_building():
    qrels = Qrels.from_records([("q1", "a", 1), ("q1", "b", 0), ("q2", "a", 2)])
    assert qrels.query_ids == ("q1", "q2")
    assert qrels.to_dict() == {"q1": {"a": 1.0, "b": 0.0}, "q2": {"a": 2.0}}
    run = Run.from_records([("q1", "a", 1.0), ("q1", "b", 5.0)])
    assert run.ranking("q1") == ["b", "a"]
    assert Run.from_ranked_lists({"q1": ["a", "b"]}).ranking("q1") == ["a", "b"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=40),
       st.sampled_from(["%.6f", "%.3f", "%g", "%r", "%.0f", "%.17g"]))  # fmt: skip
def test_bulk_number_parsing_equals_float_exactly(values, fmt):
    text = [(fmt % v).encode() if fmt != "%r" else repr(v).encode() for v in values]
    lines = b"".join(b"1 Q0 d%d 1 %s t\n" % (i, t) for i, t in enumerate(text))
    run = read_runs(lines, keep_order=True)["t"]
    assert run.scores.tolist() == [float(t) for t in text]


def test_big_files_read_block_by_block_give_the_same_rows_and_line_numbers(tmp_path, monkeypatch):
    from evaluation.core.trec import tokens

    monkeypatch.setattr(tokens, "_CHUNK", 300)  # many blocks, mapped file, padded tail
    lines = [
        b"%d Q0 doc%d %d %d.%d run" % (i // 50, i, i % 50, 1000 - i, i % 7) for i in range(2000)
    ]
    lines[777] = lines[777].replace(b" ", b"\t", 2) + b"\r"  # an irregular block
    path = tmp_path / "run.txt"
    path.write_bytes(b"\n".join(lines))  # no final newline
    run = read_runs(path)["run"]
    assert len(run.docs) == 2000
    assert run.ranking("0")[:2] == ["doc0", "doc1"]
    assert run.scores[:2].tolist() == [1000.0, 999.1]
    path.write_bytes(b"\n".join([*lines[:1500], b"1 Q0 x 1 2", *lines[1500:]]))
    with pytest.raises(FormatError, match=r"run.txt:1501: expected 6 fields, found 5"):
        read_runs(path)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("0123456789٣५²½x\n -"), max_size=4), max_size=6))
@example(["10", "٣", "9"])  # an Arabic-Indic three is a decimal digit: sorted as 3
@example(["10", "²"])  # a superscript two is a digit but not a decimal one: sorted as text
@example(["1", "2\n"])
def test_queries_sort_by_number_exactly_when_re_finds_only_digits(queries):
    # the definition sort_queries had (re's \d+, Unicode digits included) kept as the reference
    import re

    numeric = all(re.fullmatch(r"\d+", q) for q in queries)
    expected = sorted(queries, key=lambda q: (int(q), q)) if numeric else sorted(queries)
    assert sort_queries(queries) == expected
