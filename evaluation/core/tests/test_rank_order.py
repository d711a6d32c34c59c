"""Ranking a run's rows as trec_eval does: query, score descending, document id descending.

The reference is the plain definition, ``np.lexsort((docs, scores, -codes))[::-1]`` on the
ids' bytes (what the reader did before ties were put in order run by run); the fast paths
(only the runs of tied scores sorted, integer words of the ids) must give the same order
in every case, equal rows (a document ranked twice) included.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core.trec import read_runs
from evaluation.core.trec.model import _rank_order, id_words, rank_order
from evaluation.core.trec.tokens import FormatError


def plain(codes, scores, docs):
    return np.lexsort((docs, scores, -codes))[::-1]


rows = st.lists(
    st.tuples(
        st.integers(0, 3),  # query code
        st.sampled_from([3.0, 2.0, 2.0, 1.0, 0.5, float("nan")]),  # ties are likely
        st.binary(min_size=1, max_size=19).filter(lambda b: b"\0" not in b),
    ),
    min_size=0,
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(
    rows=rows, grouped=st.booleans(), prefix=st.binary(max_size=9).filter(lambda b: b"\0" not in b)
)
def test_every_order_is_the_plain_lexsort(rows, grouped, prefix):
    # prefix: ids that share their first 8 bytes take the slower path of whole ids
    if grouped:  # the common file: grouped by query, scores descending, ties in any order
        rows = sorted(rows, key=lambda r: (r[0], -r[1] if r[1] == r[1] else 0))
    codes = np.array([r[0] for r in rows], dtype=np.int64)
    scores = np.array([r[1] for r in rows])
    docs = np.array([prefix + r[2] for r in rows], dtype=bytes) if rows else np.array([], "S1")
    order = _rank_order(codes, scores, docs)
    expected = plain(codes, scores, docs) if len(rows) else np.arange(0)
    if order is None:  # said to be ranked already: the plain order is the file's
        np.testing.assert_array_equal(expected, np.arange(len(rows)))
    else:
        np.testing.assert_array_equal(order, expected)


def test_a_tie_is_ordered_by_document_id_descending_and_nothing_else_moves():
    codes = np.array([0, 0, 0, 0, 1, 1])
    scores = np.array([9.0, 5.0, 5.0, 5.0, 2.0, 2.0])
    docs = np.array([b"z", b"d10", b"d9", b"d100", b"a", b"b"])
    order = rank_order(codes, docs, scores, keep_order=False)
    # d9 > d100 > d10 byte by byte; b > a
    assert docs[order].tolist() == [b"z", b"d9", b"d100", b"d10", b"b", b"a"]


def test_integer_words_keep_the_byte_order_of_ids():
    ids = np.array([b"doc-000000012", b"doc-00000001", b"doc-0000000120", b"\xffx", b"~"])
    words = id_words(ids)
    as_tuples = list(zip(*[w.tolist() for w in words], strict=True))
    assert sorted(range(len(ids)), key=as_tuples.__getitem__) == np.argsort(ids).tolist()


def test_a_document_three_times_in_a_tie_is_reported_at_the_same_line(tmp_path):
    # Equal rows keep the plain order's reverse file order, so the duplicate found (and
    # the line named) is the one the plain order gave: the last of the three.
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 2 x\n1 Q0 a 3 2 x\n1 Q0 c 4 1 x\n1 Q0 a 5 2 x\n")
    try:
        read_runs(path)
    except FormatError as error:
        assert str(error) == f"{path}:5: document 'a' ranked twice for query '1'"
    else:  # pragma: no cover
        raise AssertionError("a document ranked twice was read")
