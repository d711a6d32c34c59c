"""Hostile files against the command line: only clean errors, never a traceback.

Property-based (hypothesis): judgments, runs and score tables made of random bytes,
bad encodings, wrong field counts, huge numbers, NaN and infinities, empty files,
blank lines, CRLF, lone CR, NUL bytes and very long ids, given to ``evaluate``,
``compare``, ``reliability`` and ``--scores``, in-process. Whatever the input, the
command either succeeds (status 0, no error output) or prints one line
``error: FILE[:LINE]: PROBLEM`` naming a file given to it and exits with the
command's status for bad input (``evaluate``: 2; ``compare``/``reliability``: 1).
Any other exception, and any warning (which would be printed too), fails the test.

The number of examples comes from the ``cli-fuzz`` hypothesis profile below (raise it
with ``CLI_FUZZ_EXAMPLES=2000`` for a long run); ``pytest --hypothesis-show-statistics``
shows how many examples ended in a clean error and how many succeeded.
"""

import contextlib
import io
import os
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from evaluation.core.cli import main
from evaluation.core.trec import arrow

settings.register_profile(
    "cli-fuzz",
    max_examples=int(os.environ.get("CLI_FUZZ_EXAMPLES", "60")),
    deadline=None,  # the first call imports pyarrow and scipy
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
FUZZ = settings.get_profile("cli-fuzz")

# --- hostile files: a well-formed collection, then a few mutations ---------------

QUERIES = ["1", "2", "3", "10"]
DOCS = [f"d{i}" for i in range(8)]
HOSTILE_NUMBERS = ["nan", "NaN", "inf", "-inf", "1e400", "-1e400", "1e-400", "9" * 400,
                   "0x10", "1_0", "abc", "1,5", "+-1", ".", "--1", "1e", "∞", "١", "-0"]  # fmt: skip
HOSTILE_IDS = ["d\xff1", "q\xc3", "x" * 5000, "é", "😀", "d\x7f", "\u2028", "a\u00a0b"]


@st.composite
def collection(draw):
    """Judgments, runs and a score table that all fit together (the starting point)."""
    queries = draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=4, unique=True))
    qrels = [
        f"{q} 0 {d} {draw(st.sampled_from(['0', '1', '2', '-1']))}\n"
        for q in queries
        for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=5, unique=True))
    ]
    runs = []
    for name in draw(st.lists(st.sampled_from("ABC"), min_size=1, max_size=3, unique=True)):
        lines = []
        for q in queries:
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=6, unique=True))
            lines += [f"{q} Q0 {d} {r + 1} {len(docs) - r}.5 {name}\n" for r, d in enumerate(docs)]
        runs.append("".join(lines))
    scores = "".join(
        f"{s} {q} {draw(st.floats(0, 1)):.3f}\n" for s in ["A", "B", "C"] for q in queries
    )
    return "".join(qrels), runs, scores


def _replace_field(data: bytes, index: int, value: bytes, which: int) -> bytes:
    lines = data.split(b"\n")
    fields = lines[index % len(lines)].split(b" ")
    fields[which % len(fields)] = value
    lines[index % len(lines)] = b" ".join(fields)
    return b"\n".join(lines)


MUTATIONS = {
    "random bytes": lambda d, r: d[: r.integers(len(d) + 1)] + bytes(r.integers(0, 256, 40)),
    "empty": lambda d, r: b"",
    "blank lines": lambda d, r: d.replace(b"\n", b"\n\n\n"),
    "CRLF": lambda d, r: d.replace(b"\n", b"\r\n"),
    "lone CR": lambda d, r: d.replace(b"\n", b"\r"),
    "NUL": lambda d, r: d.replace(b" ", b"\x00", 1) + b"\x00",
    "tabs and spaces": lambda d, r: d.replace(b" ", b"\t", 2).replace(b" ", b"  ", 1),
    "BOM": lambda d, r: b"\xef\xbb\xbf" + d,
    "UTF-16": lambda d, r: d.decode(errors="replace").encode("utf-16"),
    "latin-1": lambda d, r: d.decode(errors="replace").encode("latin-1", "replace") + b"\xe9 x y\n",
    "truncated": lambda d, r: d[: r.integers(len(d) + 1)],
    "duplicate line": lambda d, r: d + d.split(b"\n")[0] + b"\n",
    "field too many": lambda d, r: d.replace(b"\n", b" extra\n", 1),
    "field too few": lambda d, r: d.replace(b" ", b"", 1),
    "hostile number": lambda d, r: _replace_field(
        d, r.integers(99), HOSTILE_NUMBERS[r.integers(len(HOSTILE_NUMBERS))].encode(), -1
    ),
    "hostile number in a run": lambda d, r: _replace_field(
        d, r.integers(99), HOSTILE_NUMBERS[r.integers(len(HOSTILE_NUMBERS))].encode(), 4
    ),
    "hostile id": lambda d, r: _replace_field(
        d, r.integers(99), HOSTILE_IDS[r.integers(len(HOSTILE_IDS))].encode("utf-8", "ignore"), 0
    ),
    "undecodable id": lambda d, r: _replace_field(d, r.integers(99), b"q\xff\xfe", r.integers(3)),
    "hostile doc id": lambda d, r: _replace_field(
        d, r.integers(99), HOSTILE_IDS[r.integers(len(HOSTILE_IDS))].encode("utf-8", "ignore"), 2
    ),
}


@st.composite
def hostile(draw, text: str) -> bytes:
    """``text`` as UTF-8 bytes after 0 to 3 random mutations (each named in the statistics)."""
    data = text.encode()
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    for name in draw(st.lists(st.sampled_from(sorted(MUTATIONS)), max_size=3)):
        event(f"mutation: {name}")
        data = MUTATIONS[name](data, rng)
    return data


MEASURES = st.sampled_from(["P@2", "nDCG@10", "map", "recip_rank", "bpref", "CG(scale=fine)@5"])


@st.composite
def inputs(draw, max_runs: int) -> list[bytes]:
    qrels, runs, _ = draw(collection())
    return [draw(hostile(qrels)), *[draw(hostile(run)) for run in runs[:max_runs]]]


@contextlib.contextmanager
def _reader(fast: bool, block: int):
    """Small files read as big ones are when ``fast``: by pyarrow, block by block."""
    saved = arrow.MIN_BYTES, arrow.STREAM_BYTES
    if fast:
        arrow.MIN_BYTES, arrow.STREAM_BYTES = 0, block
    try:
        yield
    finally:
        arrow.MIN_BYTES, arrow.STREAM_BYTES = saved


READERS = st.tuples(st.booleans(), st.sampled_from([64, 200, 4096]))


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("error")  # a warning would reach the user's terminal too
        try:
            code = main(args)
        except SystemExit as e:  # argparse: a usage error
            code = e.code
    return code, out.getvalue(), err.getvalue()


def _run_slowly(args: list[str]) -> tuple[int, str, str]:
    with _reader(False, 0):
        return _run(args)


def _check(args: list[str], paths: list[str], bad_input_status: int) -> str:
    """Run the command; ``"success"`` or ``"clean error"``, or fail the test."""
    code, _, err = _run(args)
    if code == 0:
        assert err == "", err
        return "success"
    assert code == bad_input_status, (code, err)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    names_a_file = any(path in err for path in paths)
    assert names_a_file or "needs at least 2 systems and 2 queries" in err, err
    return "clean error"


def _write(tmp: str, contents: list[bytes]) -> list[str]:
    paths = []
    for i, data in enumerate(contents):
        paths.append(str(Path(tmp, f"f{i}.txt")))
        Path(paths[-1]).write_bytes(data)
    return paths


@FUZZ
@given(files=inputs(max_runs=2), measure=MEASURES, block=READERS.map(lambda r: r[1]))
def test_evaluate_survives_hostile_files_and_reads_them_alike_both_ways(files, measure, block):
    with tempfile.TemporaryDirectory() as tmp:
        paths = _write(tmp, files)
        args = [*paths, "-m", measure, "-q"]
        event(_check(args, paths, 2))
        with _reader(True, block):  # pyarrow and blocks: the same output, or the same error
            assert _run(args) == _run_slowly(args)


@FUZZ
@given(
    command=st.sampled_from(["compare", "reliability"]),
    files=inputs(max_runs=3),
    measure=MEASURES,
    reader=READERS,
)
def test_compare_and_reliability_survive_hostile_files(command, files, measure, reader):
    with tempfile.TemporaryDirectory() as tmp, _reader(*reader):
        paths = _write(tmp, files)
        event(_check([command, *paths, "-m", measure, "--format", "json"], paths, 1))


@FUZZ
@given(command=st.sampled_from(["compare", "reliability"]), data=st.data())
def test_score_tables_survive_hostile_files(command, data):
    scores = data.draw(hostile(data.draw(collection())[2]))
    with tempfile.TemporaryDirectory() as tmp:
        paths = _write(tmp, [scores])
        event(_check([command, "--scores", paths[0]], paths, 1))


@pytest.mark.parametrize("command", ["evaluate", "compare", "reliability"])
def test_a_missing_file_or_a_directory_is_one_clean_line(command, tmp_path):
    missing, folder = str(tmp_path / "missing.txt"), str(tmp_path)
    run = tmp_path / "a.run"
    run.write_text("1 Q0 d1 1 1 A\n")
    for args in ([missing, str(run), str(run)], [folder, str(run), str(run)]):
        status = 2 if command == "evaluate" else 1
        assert _check([command, *args, "-m", "P@1"], args[:1], status) == "clean error"
