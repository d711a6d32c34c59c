"""Big regular score tables are read by pyarrow; anything irregular by the exact reader.

The reference is the exact line-by-line reader (``_read_any_table``), which names the file
and line of every problem. Tables here are over ``arrow.MIN_BYTES`` (lowered from 1 MB to
4 KB for the tests, to keep them quick), so the fast path is tried; whatever it reads must be the exact reader's matrix to the last bit, and
every malformed table of ``test_cli_stats``/``test_cli_errors`` — made big by valid lines
before the problem — must give the exact reader's message, line included.
"""

import numpy as np
import pytest

from evaluation.core.cli import scoretable
from evaluation.core.cli.scoretable import InputError, read_score_table
from evaluation.core.trec import arrow

SYSTEMS, QUERIES = 12, 150  # 1,800 lines, about 40 KB


@pytest.fixture(autouse=True)
def small_tables_are_big(monkeypatch):
    monkeypatch.setattr(arrow, "MIN_BYTES", 4096)
    monkeypatch.setattr(scoretable, "BLOCK_BYTES", 5000)  # many blocks, lines cut at ends


def big_table(*, sep=" ", header="", shuffle=False, seed=0) -> tuple[bytes, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.random((SYSTEMS, QUERIES)) * rng.choice([1, 1e-7, 1e5], (SYSTEMS, QUERIES))
    cells = [(i, j) for i in range(SYSTEMS) for j in range(QUERIES)]
    if shuffle:
        cells = [cells[c] for c in rng.permutation(len(cells))]
    lines = [f"sys-{i:02d}é{sep}q{j}{sep}{float(X[i, j])!r}" for i, j in cells]
    data = (header + "\n".join(lines) + "\n").encode()
    assert len(data) > arrow.MIN_BYTES
    return data, X


def exact(path) -> scoretable.ScoreMatrix:
    return scoretable._read_any_table(path, path.read_bytes(), "score")


@pytest.mark.parametrize(
    ("sep", "header", "shuffle"),
    [
        (" ", "", False),
        ("\t", "", True),
        (" ", "system query score\n", True),
        ("\t", "System\tQuery\tScore\n", False),
    ],
)
def test_a_big_regular_table_is_read_by_pyarrow_into_the_same_matrix(
    tmp_path, monkeypatch, sep, header, shuffle
):
    data, X = big_table(sep=sep, header=header, shuffle=shuffle)
    path = tmp_path / "scores.tsv"
    path.write_bytes(data)
    reference = exact(path)
    rows = [int(s[4:6]) for s in reference.systems]  # first appearance: maybe not 0, 1, …
    columns = [int(q[1:]) for q in reference.queries]
    np.testing.assert_array_equal(reference.scores, X[np.ix_(rows, columns)])  # repr() is exact

    def refuse(*args):  # the fast path must not fall back for a regular table
        raise AssertionError("read line by line")

    monkeypatch.setattr(scoretable, "_read_any_table", refuse)
    fast = read_score_table(path)
    assert fast.systems == reference.systems and fast.queries == reference.queries
    np.testing.assert_array_equal(fast.scores, reference.scores)  # float() and pyarrow agree


# The malformed tables of test_cli_stats and test_cli_errors, each after valid lines (so
# the line named is far down a big file), and what else only the exact reader handles.
BAD = [
    b"s1 q1 0.5\ns1 q2\n",
    b"s1 q1 0.5\ns1 q2 high\n",
    b"s1 q1 0.5\ns1 q1 0.7\n",
    b"s1 q1 nan\n",
    b"s1 q1 0.5\ns2 q2 0.5\n",
    b"A q1 0.5\nB q1 0.7\nA q\xff2 0.1\nB q2 0.3\n",
    b"s1 q1 inf\n",
    b"s1 q1 1e400\n",
    b"s1 q1 1_5\n",  # float() reads 15.0, pyarrow does not: the exact reader decides
    b"s1 q1 0x1p3\n",
    b"s1 q1 .\n",
    b"s1 q1 -\n",
    b"s1 q1 1e\n",
    b"#s1 q1 0.5\n",  # a comment line, skipped
    b"s1 q1 0.5\r\n",
    b"s1 q1  0.5\n",
    b"s1 q1 0.5\n\n",
    b"s1\x01q1 0.5\n",
]


@pytest.mark.parametrize("tail", BAD)
def test_every_irregular_or_malformed_table_gets_the_exact_readers_answer(tmp_path, tail):
    data, _ = big_table()
    path = tmp_path / "scores.tsv"
    path.write_bytes(data + tail)
    try:
        expected = exact(path)
    except InputError as error:
        with pytest.raises(InputError) as raised:
            read_score_table(path)
        assert str(raised.value) == str(error)
        assert f"{path}:" in str(error)
    else:
        got = read_score_table(path)
        assert (got.systems, got.queries) == (expected.systems, expected.queries)
        np.testing.assert_array_equal(got.scores, expected.scores)


def test_a_missing_cell_or_a_cell_given_twice_names_them_as_before(tmp_path):
    data, _ = big_table()
    lines = data.splitlines(keepends=True)
    path = tmp_path / "scores.tsv"
    path.write_bytes(b"".join(lines[:-1]))  # the last cell missing
    with pytest.raises(
        InputError, match=f"system 'sys-11é' has no score for query 'q{QUERIES - 1}'"
    ):
        read_score_table(path)
    path.write_bytes(b"".join(lines[:-1]) + lines[5])  # k·n lines, one of them twice
    with pytest.raises(InputError, match=f"{path}:{len(lines)}: second score for system 'sys-00é'"):
        read_score_table(path)
