"""Matching (query, document) rows by hash: the same answers as a dictionary, collisions or not."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core.trec import hashing

pairs = st.lists(st.tuples(st.integers(0, 5), st.sampled_from([b"a", b"b", b"doc-17", b"x" * 20])))


def _reference(table, rows):
    index = {pair: i for i, pair in enumerate(table)}
    return [index.get(pair, -1) if pair[0] >= 0 else -1 for pair in rows]


@pytest.mark.parametrize("collide", [False, True])
@settings(max_examples=100, deadline=None)
@given(
    table=pairs, rows=st.lists(st.tuples(st.integers(-1, 6), st.sampled_from([b"a", b"b", b"c"])))
)
def test_lookup_equals_a_dictionary(table, rows, collide):
    table = list(dict.fromkeys(table))  # a table holds a pair once
    if collide:  # every document hashes alike: only the bytes tell them apart
        real = hashing.doc_hashes
        hashing.doc_hashes = lambda docs: np.zeros(len(docs), dtype=np.uint64)
    try:
        found = hashing.lookup(
            np.array([c for c, _ in table], dtype=np.int64),
            np.array([d for _, d in table], dtype="S20"),
            np.array([c for c, _ in rows], dtype=np.int64),
            np.array([d for _, d in rows], dtype="S1"),
        )
    finally:
        if collide:
            hashing.doc_hashes = real
    assert found.tolist() == _reference(table, rows)


def test_an_id_hashes_alike_in_arrays_of_any_width():
    docs = [b"a", b"doc-1", b"0123456789abcdef", b"0123456789abcdefX"]
    for width in (17, 24, 40):
        assert (
            hashing.doc_hashes(np.array(docs, dtype=f"S{width}"))
            == hashing.doc_hashes(np.array(docs))
        ).all()


def test_blocked_hashing_equals_the_whole_array_formula():
    docs = np.array([b"d%d" % i for i in range(200_000)] + [b"x" * 30], dtype="S30")
    words = hashing._words(docs)
    with np.errstate(over="ignore"):
        h = words[:, 0] * hashing._M1
        for j in range(1, words.shape[1]):
            step = h ^ (words[:, j] * hashing._M2)
            step = (step << np.uint64(31)) | (step >> np.uint64(33))
            h = np.where(words[:, j] != 0, step, h)
        expected = hashing._mix(h)
    assert (hashing.doc_hashes(docs) == expected).all()
