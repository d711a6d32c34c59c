"""pyarrow's fast path for regular files gives what the numpy tokenizer gives, or steps aside."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core import FormatError, evaluate, read_qrels, read_runs
from evaluation.core.trec import arrow
from evaluation.core.trec.tokens import read_buffer


@pytest.fixture
def fast(monkeypatch):
    """Every input is big enough for the fast path; records which tables it read."""
    monkeypatch.setattr(arrow, "MIN_BYTES", 0)
    seen = []
    real = arrow.read_regular

    def spy(*args, **kwargs):
        table = real(*args, **kwargs)
        seen.append(table is not None)
        return table

    monkeypatch.setattr("evaluation.core.trec.readers.read_regular", spy)
    return seen


def _numpy_only(monkeypatch):
    monkeypatch.setattr("evaluation.core.trec.readers.read_regular", lambda *a, **k: None)


def _same_run(a, b):
    assert (a.name, a.query_ids) == (b.name, b.query_ids)
    assert a.offsets.tolist() == b.offsets.tolist()
    assert a.docs.tolist() == b.docs.tolist()
    np.testing.assert_array_equal(a.scores, b.scores)  # NaN equal to NaN


RUN = b"".join(
    b"%d Q0 d%d %d %s sys\n" % (q, (q * 7 + i) % 13, i, s)
    for q, i, s in [(2, 0, b"3.5"), (2, 1, b"-1e2"), (10, 0, b"7"), (10, 1, b"0.1"),
                    (1, 0, b"2.50"), (2, 2, b"3.5"), (1, 1, b"nan"), (1, 2, b"inf")]
)  # fmt: skip
QRELS = b"2 0 d1 1\n2 0 d3 2\n10 0 d5 0\n10 0 d6 -1\n1 0 d7 3\n1 0 d8 1\n"


def test_fast_path_and_fallback_give_identical_runs_qrels_and_results(fast, monkeypatch):
    runs, qrels = read_runs(RUN), read_qrels(QRELS)
    assert fast == [True, True]
    measures = ["map", "P@2", "nDCG@10", "recip_rank", "bpref", "num_rel_ret"]
    fast_results = evaluate(qrels, runs, measures).to_csv()
    _numpy_only(monkeypatch)
    slow_runs, slow_qrels = read_runs(RUN), read_qrels(QRELS)
    _same_run(runs["sys"], slow_runs["sys"])
    assert qrels.to_dict() == slow_qrels.to_dict() and qrels.query_ids == slow_qrels.query_ids
    assert evaluate(slow_qrels, slow_runs, measures).to_csv() == fast_results


def test_tab_separated_files_take_the_fast_path(fast):
    run = read_runs(RUN.replace(b" ", b"\t"))["sys"]
    assert fast == [True]
    assert run.ranking("2") == ["d3", "d1", "d2"]  # by score, ties by docno descending


@pytest.mark.parametrize(
    "text",
    [
        RUN.replace(b"\n", b"\r\n"),  # CRLF
        RUN.replace(b"Q0 ", b"Q0  ", 1),  # two spaces
        RUN.replace(b"Q0", b"Q0\t", 1).replace(b"Q0\t ", b"Q0\t", 1),  # a tab among spaces
        RUN + b"\n",  # a blank line
        b" " + RUN,  # leading whitespace
        RUN.replace(b" sys\n", b" sys \n", 1),  # trailing whitespace
        RUN.replace(b"2.50 sys", b"2.50\rsys"),  # a lone CR
        RUN.replace(b"7 sys", b"1_0 sys"),  # a number float() reads and pyarrow does not
    ],
)
def test_irregular_files_fall_back_and_read_the_same(fast, monkeypatch, text):
    runs = read_runs(text)
    assert fast == [False]
    _numpy_only(monkeypatch)
    _same_run(runs["sys"], read_runs(text)["sys"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"1 Q0 a 1 3 x\n1 Q0 b 2 x\n", "<bytes>:2: expected 6 fields, found 5"),
        (b"1 Q0 a 1 3 x\n1 Q0 b 2 high x\n", "<bytes>:2: score 'high' is not a number"),
        (b"1 Q0 a 1 3 x\n1 Q0 b 2 2 x\n1 Q0 a 3 1 x\n", "<bytes>:3: document 'a' ranked twice"),
        (b"1 Q0 a 1 3 x\n1  a 2 2 x\n", "<bytes>:2: expected 6 fields, found 5"),
        (b"1 Q0 a 1 3 x\r1 Q0 b 2 1 x\n", "<bytes>:1: expected 6 fields, found 12"),
    ],
)
def test_errors_still_name_the_line(fast, text, message):
    with pytest.raises(FormatError, match=message):
        read_runs(text)


def test_a_file_read_by_the_fast_path_names_the_line_of_a_duplicate(fast, tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(b"1 Q0 a 1 3 x\n1 Q0 b 2 2 x\n1 Q0 a 3 1 x\n")
    with pytest.raises(FormatError) as error:
        read_runs(path)
    assert fast == [True]
    assert (error.value.path, error.value.line) == (str(path), 3)
    path.write_bytes(b"1 0 a 1\n2 0 a 1\n1 0 a 0\n")
    with pytest.raises(FormatError, match=r"run.txt:3: document 'a' judged twice"):
        read_qrels(path)


def test_queries_keep_their_order_of_first_appearance_across_blocks(fast, monkeypatch):
    monkeypatch.setattr(arrow, "_BLOCK_SIZE", 64)  # many pyarrow blocks, each with its dictionary
    lines = [
        b"%d Q0 d%d 1 %d.5 r\n" % (q, i, i) for i, q in enumerate([5, 3, 5, 9, 3, 1, 9, 5] * 9)
    ]
    run = read_runs(b"".join(lines))["r"]
    assert fast == [True]
    assert run.query_ids == ("5", "3", "9", "1")
    assert run.ranking("1") == [f"d{i}" for i in range(69, 0, -8)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=30),
       st.sampled_from(["%.6f", "%.3f", "%g", "%r", "%.0f", "%.17g", "%e"]))  # fmt: skip
def test_fast_path_numbers_equal_float_exactly(values, fmt):
    text = [(fmt % v).encode() if fmt != "%r" else repr(v).encode() for v in values]
    lines = b"".join(b"1 Q0 d%d 1 %s t\n" % (i, t) for i, t in enumerate(text))
    minimum, arrow.MIN_BYTES = arrow.MIN_BYTES, 0
    try:
        table = arrow.read_regular(
            read_buffer(lines), 6, (0, 2, 4), ("factor", "strings", "number")
        )
    finally:
        arrow.MIN_BYTES = minimum
    assert table is not None or any(b"inf" in t for t in text)
    if table is not None:
        assert table.numbers(2).tolist() == [float(t) for t in text]


@pytest.mark.parametrize("ids", [b"D%09d", b"d%d"])  # fixed-width ids are copied, others gathered
def test_ids_across_many_blocks_read_as_the_numpy_tokenizer_reads_them(fast, monkeypatch, ids):
    monkeypatch.setattr(arrow, "_BLOCK_SIZE", 256)
    text = b"".join(
        b"%d Q0 " % (i // 40) + ids % (i * 7919 % 1000) + b" %d %d.25 r\n" % (i, i % 9)
        for i in range(400)
    )
    runs = read_runs(text)
    assert fast == [True]
    _numpy_only(monkeypatch)
    _same_run(runs["r"], read_runs(text)["r"])
