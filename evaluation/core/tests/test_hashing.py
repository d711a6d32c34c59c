"""Matching (query, document) rows by hash: the same answers as a dictionary, collisions or not."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core.trec import hashing

pairs = st.lists(st.tuples(st.integers(0, 5), st.sampled_from([b"a", b"b", b"doc-17", b"x" * 20])))


def _reference(table, rows):
    index = {pair: i for i, pair in enumerate(table)}
    return [index.get(pair, -1) for pair in rows]


def _hashes(docs, collide):
    # collide: every document hashes alike, so only the bytes tell them apart
    return np.zeros(len(docs), dtype=np.uint64) if collide else hashing.doc_hashes(docs)


@pytest.mark.parametrize("collide", [False, True])
@settings(max_examples=100, deadline=None)
@given(
    table=pairs, rows=st.lists(st.tuples(st.integers(-1, 6), st.sampled_from([b"a", b"b", b"c"])))
)
def test_matching_pairs_equals_a_dictionary(table, rows, collide):
    table = list(dict.fromkeys(table))  # a table holds a pair once
    docs = np.array([d for _, d in table], dtype="S20")
    probes = np.array([d for _, d in rows], dtype="S1")
    found = hashing.match_pairs(
        np.array([c for c, _ in table], dtype=np.int64),
        docs,
        _hashes(docs, collide),
        np.array([c for c, _ in rows], dtype=np.int64),
        probes,
        _hashes(probes, collide),
    )
    assert found.tolist() == _reference(table, rows)


@pytest.mark.parametrize("collide", [False, True])
@settings(max_examples=100, deadline=None)
@given(table=pairs)
def test_a_pair_held_twice_is_found_with_both_rows(table, collide):
    first = {}
    repeated = [(first.setdefault(pair, i), i) for i, pair in enumerate(table)]
    repeated = [(i, j) for i, j in repeated if i != j]
    docs = np.array([d for _, d in table], dtype="S20")
    codes = np.array([c for c, _ in table], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    try:
        hashing.match_pairs(codes, docs, _hashes(docs, collide), empty, docs[:0], empty)
    except hashing.RepeatedPair as e:
        assert table[e.first] == table[e.second] and e.first < e.second
    else:
        assert repeated == []


def test_an_id_hashes_alike_in_arrays_of_any_width():
    docs = [b"a", b"doc-1", b"0123456789abcdef", b"0123456789abcdefX"]
    for width in (17, 24, 40):
        assert (
            hashing.doc_hashes(np.array(docs, dtype=f"S{width}"))
            == hashing.doc_hashes(np.array(docs))
        ).all()


def _whole_array_hashes(docs):
    """The hash of each id computed on the zero-padded copy of the ids (``_words``)."""
    words = hashing._words(np.ascontiguousarray(docs))
    with np.errstate(over="ignore"):
        h = words[:, 0] * hashing._M1
        for j in range(1, words.shape[1]):
            step = h ^ (words[:, j] * hashing._M2)
            step = (step << np.uint64(31)) | (step >> np.uint64(33))
            h = np.where(words[:, j] != 0, step, h)
        return hashing._mix(h)


def test_blocked_hashing_equals_the_whole_array_formula():
    docs = np.array([b"d%d" % i for i in range(200_000)] + [b"x" * 30], dtype="S30")
    assert (hashing.doc_hashes(docs) == _whole_array_hashes(docs)).all()


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(st.binary(min_size=1, max_size=40).map(lambda b: b.rstrip(b"\0") or b"x"),
                 min_size=1, max_size=50),
    extra_width=st.integers(0, 9),
    step=st.sampled_from([1, 2, -1]),
)  # fmt: skip
def test_ids_read_in_place_hash_as_their_zero_padded_copy(ids, extra_width, step):
    # ids at least 8 bytes wide are hashed from unaligned views of their bytes, the last
    # partial word shifted: the same hashes as the padded copy, at any width and stride
    docs = np.array(ids, dtype=f"S{max(map(len, ids)) + extra_width}")[::step]
    assert (hashing.doc_hashes(docs) == _whole_array_hashes(docs)).all()
    assert (hashing.doc_hashes(docs) == hashing.doc_hashes(np.array(docs.tolist()))).all()


@pytest.mark.parametrize("collide", [False, True])
@settings(max_examples=100, deadline=None)
@given(rows=pairs, grouped=st.booleans())
def test_first_duplicate_finds_a_repeated_pair_exactly_when_there_is_one(rows, collide, grouped):
    if grouped:  # as the readers call it: rows grouped by code
        rows = sorted(rows, key=lambda r: r[0])
    codes = np.array([c for c, _ in rows], dtype=np.int64)
    docs = np.array([d for _, d in rows], dtype="S20")
    found = hashing.first_duplicate(codes, docs, _hashes(docs, collide))
    if len(set(rows)) == len(rows):
        assert found is None
    else:
        i, j = found
        assert i < j and rows[i] == rows[j]
