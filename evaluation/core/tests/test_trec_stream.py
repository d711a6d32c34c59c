"""Runs read block by block score exactly as runs read whole, and fail with the same errors."""

import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core import FormatError, evaluate, read_qrels
from evaluation.core.evaluate import evaluate_files
from evaluation.core.trec import arrow, read_run_files, stream

MEASURES = ["map", "P@5", "nDCG@10", "ndcg", "recip_rank", "bpref", "num_ret", "num_rel_ret"]


@pytest.fixture
def streamed(monkeypatch):
    """Every file is big enough to stream; records the blocks each streamed run came in."""
    monkeypatch.setattr(arrow, "MIN_BYTES", 0)
    seen = []
    real = stream.run_blocks

    def spy(*args, **kwargs):
        blocks = []
        seen.append(blocks)
        for block in real(*args, **kwargs):
            blocks.append(block.query_ids)
            yield block

    monkeypatch.setattr(stream, "run_blocks", spy)
    return seen


def _whole(qrels, paths, **options):
    """What the command line computed before it streamed: every run read whole."""
    complete = options.pop("complete", False)
    try:
        return evaluate(qrels, read_run_files(paths, **options), MEASURES, complete=complete)
    except (FormatError, ValueError) as e:
        return e


def _streamed(qrels, paths, **options):
    try:
        return evaluate_files(qrels, paths, MEASURES, **options)
    except (FormatError, ValueError) as e:
        return e


def _same(a, b):
    if isinstance(a, Exception) or isinstance(b, Exception):
        assert str(a) == str(b)
    else:  # repr of every per-query value: equal to the last bit
        assert a.to_csv(per_query=True) == b.to_csv(per_query=True)


def _lines(rows):
    return "".join(f"{q} Q0 {d} {i} {s} {tag}\n" for i, (q, d, s, tag) in enumerate(rows))


QRELS = "".join(f"{q} 0 d{d} {(q * 7 + d) % 4 - 1}\n" for q in range(1, 9) for d in range(0, 40, 3))


@st.composite
def run_files(draw):
    """Rows of a TREC run: whole queries in random order, random depths and score ties."""
    queries = draw(st.lists(st.integers(1, 10), min_size=1, max_size=8, unique=True))
    rows = []
    for q in queries:
        docs = draw(st.lists(st.integers(0, 45), min_size=1, max_size=30, unique=True))
        scores = draw(st.lists(st.sampled_from(["1", "2.5", "-3", "0.125", "7e1"]),
                               min_size=len(docs), max_size=len(docs)))  # fmt: skip
        rows += [(q, f"d{d}", s, "sys") for d, s in zip(docs, scores, strict=True)]
    mischief = draw(st.sampled_from(["none", "none", "shuffle", "duplicate", "crlf", "tag"]))
    if mischief == "shuffle":  # a query's lines apart: read whole instead
        rows = draw(st.permutations(rows))
    elif mischief == "duplicate":  # a document ranked twice: the error of the whole read
        rows.insert(draw(st.integers(0, len(rows))), rows[draw(st.integers(0, len(rows) - 1))])
    elif mischief == "tag":  # the run is named after the first line's tag
        rows = [(q, d, s, f"t{i % 3}") for i, (q, d, s, _) in enumerate(rows)]
    text = _lines(rows)
    return text.replace("\n", "\r\n") if mischief == "crlf" else text


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(run_files(), min_size=1, max_size=3),
    block=st.sampled_from([64, 100, 256, 4096]),
    complete=st.booleans(),
    keep_order=st.sampled_from([None, True]),
    workers=st.sampled_from([0, 2]),
)
def test_streamed_runs_score_bit_for_bit_as_runs_read_whole(
    texts, block, complete, keep_order, workers
):
    # workers: blocks parsed by two threads (a machine with cores to spare) or inline
    minimum, size, chosen = arrow.MIN_BYTES, arrow.STREAM_BYTES, stream.workers
    arrow.MIN_BYTES, arrow.STREAM_BYTES, stream.workers = 0, block, lambda: workers
    try:
        with tempfile.TemporaryDirectory() as tmp:
            qrels = read_qrels(QRELS.encode())
            paths = []
            for i, text in enumerate(texts):
                paths.append(str(Path(tmp, f"run{i}.txt")))
                Path(paths[-1]).write_text(text, newline="")
            options = {"complete": complete, "keep_order": keep_order}
            _same(_whole(qrels, paths, **options), _streamed(qrels, paths, **options))
    finally:
        arrow.MIN_BYTES, arrow.STREAM_BYTES, stream.workers = minimum, size, chosen


def test_a_grouped_regular_run_is_read_in_blocks_of_whole_queries(streamed, tmp_path, monkeypatch):
    monkeypatch.setattr(arrow, "STREAM_BYTES", 200)  # each query's lines span two reads
    rows = [(q, f"d{d}", f"{40 - d}.5", "sys") for q in (3, 1, 2) for d in range(12)]
    path = tmp_path / "run.txt"
    path.write_text(_lines(rows))
    qrels = read_qrels(QRELS.encode())
    _same(_whole(qrels, [str(path)]), _streamed(qrels, [str(path)]))
    (blocks,) = streamed
    assert blocks == [("3",), ("1",), ("2",)]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda t: t.replace("\n", "\r\n"), "CRLF"),
        (lambda t: t.replace("\n", "\r", 1), "a line ended by a CR alone"),
        (lambda t: t.replace(" d3 ", " d\t3 ", 1), "a tab inside an id"),
        (lambda t: t.replace(" sys\n", " sys\x0c\n", 1), "a form feed before the LF"),
        (lambda t: t.replace(" Q0 ", " Q0  ", 1), "two spaces"),
        (lambda t: t + "1 Q0 d99 0 1 sys\n", "query 1 again at the end"),
        (lambda t: "3 Q0 " + "x" * 300 + " 0 1 sys\n" + t, "a line longer than a block"),
    ],
)
def test_other_files_are_read_whole_with_the_same_result(
    streamed, tmp_path, monkeypatch, change, why
):
    monkeypatch.setattr(arrow, "STREAM_BYTES", 256)
    rows = [(q, f"d{d}", f"{d % 5}", "sys") for q in (1, 2, 3) for d in range(10)]
    path = tmp_path / "run.txt"
    path.write_text(change(_lines(rows)), newline="")
    qrels = read_qrels(QRELS.encode())
    _same(_whole(qrels, [str(path)]), _streamed(qrels, [str(path)]))


def test_a_document_ranked_twice_is_the_same_error_naming_the_line(streamed, tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(_lines([(1, "d1", "3", "s"), (1, "d2", "2", "s"), (1, "d1", "1", "s")]))
    error = _streamed(read_qrels(QRELS.encode()), [str(path)])
    assert isinstance(error, FormatError) and (error.path, error.line) == (str(path), 3)
    assert "document 'd1' ranked twice for query '1'" in str(error)


def test_blocks_keep_a_query_cut_by_a_block_boundary_whole(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(_lines([(q, f"d{d}", f"{d}", "s") for q in (1, 2) for d in range(30)]))
    blocks = list(stream.run_blocks(str(path), block_bytes=300))
    assert [b.query_ids for b in blocks][-1] == ("2",)
    assert [q for b in blocks for q in b.query_ids] == ["1", "2"]
    ranked = np.concatenate([b.docs for b in blocks])
    assert ranked.tolist()[:3] == [b"d29", b"d28", b"d27"]  # by score, descending


def test_ordered_map_gives_results_in_order_and_an_error_after_the_results_before_it():
    def work(i):
        if i == 5:
            raise ValueError("item 5")
        return i * i

    got = []
    with pytest.raises(ValueError, match="item 5"):
        for value in stream.ordered_map(work, range(10), workers=2, depth=3):
            got.append(value)
    assert got == [0, 1, 4, 9, 16]


def test_ordered_map_stopped_early_leaves_no_thread_working():
    import threading

    started = []

    def work(i):
        started.append(i)
        return i

    results = stream.ordered_map(work, range(1000), workers=2, depth=4)
    assert [next(results), next(results)] == [0, 1]
    results.close()  # cancels what has not started, waits for what has
    assert len(started) <= 2 + 4
    assert not [t for t in threading.enumerate() if t.name.startswith("read")]


def test_ordered_map_works_under_the_callers_numpy_errstate():
    def overflow(_):
        return np.float64(1e308) * 10  # warns, unless the caller's errstate says not to

    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(stream.ordered_map(overflow, range(3), workers=2)) == [np.inf] * 3


def test_a_parsed_block_keeps_its_values_when_the_next_is_read_into_the_same_buffer(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(_lines([(q, f"doc{q}-{d}", f"{d}.25", "s") for q in (1, 2) for d in range(9)]))
    with arrow.RegularFile(str(path), block_bytes=200) as file:
        first, second, *_ = (
            file.parse(span, 6, (0, 2, 4, 5), stream._KINDS) for span in file.spans()
        )
        assert first.strings(1)[:2].tolist() == [b"doc1-0", b"doc1-1"]
        assert first.numbers(2)[:2].tolist() == [0.25, 1.25]
        assert second.strings(1)[0] != first.strings(1)[0]


@pytest.mark.parametrize(
    ("cores", "load", "expected"),
    [(2, 0.5, 2), (2, 1.9, 2), (2, 2.0, 0), (2, 6.0, 0), (1, 0.0, 0), (8, 3.0, 2)],
)
def test_blocks_are_parsed_by_threads_only_when_a_core_is_free(monkeypatch, cores, load, expected):
    monkeypatch.setattr(stream.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(stream.os, "getloadavg", lambda: (load, load, load))
    assert stream.workers() == expected


def test_ordered_map_without_workers_works_inline():
    import threading

    where = []
    results = stream.ordered_map(
        lambda i: where.append(threading.current_thread()) or i, range(3), workers=0
    )
    assert list(results) == [0, 1, 2] and set(where) == {threading.current_thread()}
