"""64-bit keys for (query, document) pairs, to match and de-duplicate millions of rows.

Comparing fixed-width byte strings is slow in bulk, so rows are first compared by a
64-bit hash of their bytes; every equality the hash suggests is then confirmed on the
bytes themselves, so a hash collision can cost time but never change a result.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser (wrapping uint64 arithmetic)."""
    h ^= h >> np.uint64(33)
    h *= _M1
    h ^= h >> np.uint64(33)
    h *= _M2
    h ^= h >> np.uint64(33)
    return h


def _words(docs: np.ndarray) -> np.ndarray:
    """``(n, w)`` little-endian 64-bit words holding each id's bytes, zero-padded."""
    n, width = len(docs), docs.dtype.itemsize
    if width % 8 == 0 and docs.flags.c_contiguous:
        return docs.view("<u8").reshape(n, width // 8)
    raw = np.zeros((n, -(-width // 8) * 8), dtype=np.uint8)
    raw[:, :width] = np.ascontiguousarray(docs).view(np.uint8).reshape(n, width)
    return raw.view("<u8")


_BLOCK = 1 << 16  # rows per block: the work arrays of one block stay in cache


def _word_reader(docs: np.ndarray):
    """``word(lo, hi, j)``: word ``j`` of the ids of rows ``lo:hi``, as :func:`_words` has it.

    For ids at least 8 bytes wide the words are read in place, as (unaligned) views of
    the ids' bytes; the last, partial word is the 8 bytes that end the id, shifted
    right past the bytes of the word before (the same value as its zero-padded form).
    Shorter or non-contiguous ids are copied once, zero-padded (:func:`_words`).
    """
    width = docs.dtype.itemsize
    if width < 8 or not docs.flags.c_contiguous:
        words = _words(docs)
        return lambda lo, hi, j: words[lo:hi, j]
    raw = docs.view(np.uint8).reshape(-1)

    def word(lo: int, hi: int, j: int) -> np.ndarray:
        start = 8 * j if 8 * j + 8 <= width else width - 8
        view = np.ndarray((hi - lo,), "<u8", raw, lo * width + start, (width,))
        if start == 8 * j:
            return view
        return view >> np.uint64(8 * (8 * j + 8 - width))

    return word


def doc_hashes(docs: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each document id (``S<n>`` array).

    The same id has the same hash whatever the width of its array (the zero padding
    is not hashed), so ids of judgments and runs compare by hash. Computed block by
    block in place, so the temporaries stay in cache.
    """
    n, n_words = len(docs), -(-docs.dtype.itemsize // 8)
    word = _word_reader(docs)
    out = np.empty(n, dtype=np.uint64)
    scratch = np.empty(min(n, _BLOCK), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for lo in range(0, n, _BLOCK):
            hi = min(n, lo + _BLOCK)
            h, tmp = out[lo:hi], scratch[: hi - lo]
            np.multiply(word(lo, hi, 0), _M1, out=h)
            for j in range(1, n_words):  # zero words (padding) change nothing
                value = word(lo, hi, j)
                np.multiply(value, _M2, out=tmp)
                tmp ^= h
                step = (tmp << np.uint64(31)) | (tmp >> np.uint64(33))
                np.copyto(h, step, where=value != 0)
            _mix_in_place(h, tmp)
    return out


def _mix_in_place(h: np.ndarray, tmp: np.ndarray) -> None:
    """:func:`_mix` without temporaries (``tmp`` is scratch of the same length)."""
    for multiplier in (_M1, _M2, None):
        np.right_shift(h, np.uint64(33), out=tmp)
        h ^= tmp
        if multiplier is not None:
            h *= multiplier


def pair_keys(codes: np.ndarray, docs: np.ndarray, hashes: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit key per row: the query code in the top 24 bits, a document hash below.

    Keys of one query are contiguous once sorted, so looking up rows that come query
    by query touches one small region of the sorted table at a time. ``hashes`` are
    the :func:`doc_hashes` of ``docs`` if already known.
    """
    h = doc_hashes(docs) if hashes is None else hashes
    codes = np.asarray(codes)
    if len(codes) and int(codes.max()) >= 1 << 24:
        with np.errstate(over="ignore"):
            return _mix(h ^ (codes.astype(np.uint64) * _GOLDEN))
    out = np.empty(len(h), dtype=np.uint64)
    for lo in range(0, len(h), _BLOCK):  # in place, block by block
        keys = out[lo : lo + _BLOCK]
        np.right_shift(h[lo : lo + _BLOCK], np.uint64(24), out=keys)
        keys |= codes[lo : lo + _BLOCK].astype(np.uint64) << np.uint64(40)
    return out


def first_duplicate(
    codes: np.ndarray, docs: np.ndarray, hashes: np.ndarray | None = None
) -> tuple[int, int] | None:
    """Rows ``(i, j)``, ``i < j``, of the first repeated (code, doc) pair found, or ``None``."""
    if len(docs) < 2:
        return None
    hashes = doc_hashes(docs) if hashes is None else hashes
    if not _any_repeated(np.asarray(codes), docs, hashes):
        return None
    keys = pair_keys(codes, docs, hashes)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    candidates = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    a, b = order[candidates], order[candidates + 1]
    real = (codes[a] == codes[b]) & (docs[a] == docs[b])
    if not real.any():
        return _exact_duplicate(codes, docs)  # a hash collision: settle it exactly
    pairs = np.sort(np.stack([a[real], b[real]]), axis=0)
    first = int(np.argmin(pairs[1]))
    return int(pairs[0, first]), int(pairs[1, first])


def _any_repeated(codes: np.ndarray, docs: np.ndarray, hashes: np.ndarray) -> bool:
    """Whether a (code, doc) pair is held twice: :func:`match_pairs` on blocks of whole codes."""
    bounds = [0, len(codes)]
    if bool((codes[1:] >= codes[:-1]).all()):  # grouped by code: blocks of ~_BLOCK rows
        starts = np.unique(np.searchsorted(codes, codes[:: _BLOCK // 2]))
        bounds = [*starts.tolist(), len(codes)]
    work = np.empty(8 * max(np.diff(bounds)), dtype=np.int32)
    empty = np.zeros(0, dtype=np.int64)
    for lo, hi in pairwise(bounds):
        try:
            match_pairs(codes[lo:hi], docs[lo:hi], hashes[lo:hi], empty, docs[:0], empty, work=work)
        except RepeatedPair:
            return True
    return False


def _exact_duplicate(codes, docs):
    order = np.lexsort((docs, codes))
    c, d = codes[order], docs[order]
    same = np.flatnonzero((c[1:] == c[:-1]) & (d[1:] == d[:-1]))
    if len(same) == 0:
        return None
    i, j = sorted((int(order[same[0]]), int(order[same[0] + 1])))
    return i, j


class RepeatedPair(ValueError):
    """Two rows hold the same (code, document) pair: rows ``first < second``."""

    def __init__(self, first: int, second: int) -> None:
        self.first, self.second = first, second
        super().__init__(f"rows {first} and {second} hold the same pair")


def _homes(codes: np.ndarray, hashes: np.ndarray, bits: int) -> np.ndarray:
    """The first slot of each (code, hash) in a table of ``2**bits`` slots."""
    mixed = codes.astype(np.uint64)
    with np.errstate(over="ignore"):
        mixed *= _GOLDEN
    mixed ^= hashes.astype(np.uint64, copy=False)
    mixed >>= np.uint64(64 - bits)
    return mixed.view(np.int64)  # below 2**bits


def match_pairs(
    codes, docs, hashes, probe_codes, probe_docs, probe_hashes, *, work=None
) -> np.ndarray:
    """For each probe ``(code, doc)``, the index of the row holding the same pair, or -1.

    The rows go into an open-addressing table (linear probing, at most a quarter full)
    keyed by code and :func:`doc_hashes`; a pair held by two rows raises
    :class:`RepeatedPair`, so placing the rows is also their duplicate check. Equal
    hashes are confirmed on the bytes: a collision costs a probe, never a wrong match
    or a false duplicate. Made for blocks of up to ~10**5 rows, whose table stays in
    cache; ``hashes`` are the ``doc_hashes`` of ``docs`` (and likewise for the probes).
    ``work``, an int32 array of at least ``8 * len(codes)`` items, holds the table
    when given, so that calls on many blocks reuse one.
    """
    codes = np.asarray(codes, dtype=np.int64)
    probe_codes = np.asarray(probe_codes, dtype=np.int64)
    if len(codes) >= 1 << 31:
        raise ValueError("match_pairs works on blocks of fewer than 2**31 rows")
    bits = max(4, int(4 * len(codes) - 1).bit_length())
    mask = (1 << bits) - 1
    if work is None or len(work) < 1 << bits:
        work = np.empty(1 << bits, dtype=np.int32)
    table = work[: 1 << bits]
    table.fill(-1)
    pending = np.arange(len(codes), dtype=np.int32)
    where = _homes(codes, hashes, bits)
    table[where] = pending  # the first round, in an empty table: of the rows aiming at a
    while len(pending):  # slot, one wins; then one probe step per round
        holder = table[where]
        lost = np.flatnonzero(holder != pending)
        pending, where, holder = pending[lost], where[lost], holder[lost]
        same = np.flatnonzero(
            (hashes[holder] == hashes[pending]) & (codes[holder] == codes[pending])
        )
        real = same[docs[holder[same]] == docs[pending[same]]]
        if len(real):
            pair = sorted((int(holder[real[0]]), int(pending[real[0]])))
            raise RepeatedPair(*pair)
        where = (where + 1) & mask
        free = np.flatnonzero(table[where] < 0)
        table[where[free]] = pending[free]
    out = np.full(len(probe_codes), -1, dtype=np.int64)
    rows = np.arange(len(probe_codes))
    where = _homes(probe_codes, probe_hashes, bits)
    while len(rows):  # follow each probe's chain to its pair or an empty slot
        holder = table[where]
        filled = np.flatnonzero(holder >= 0)
        rows, where, holder = rows[filled], where[filled], holder[filled]
        same = np.flatnonzero(
            (hashes[holder] == probe_hashes[rows]) & (codes[holder] == probe_codes[rows])
        )
        found = same[docs[holder[same]] == probe_docs[rows[same]]]
        out[rows[found]] = holder[found]
        more = np.ones(len(rows), dtype=bool)
        more[found] = False
        rows, where = rows[more], (where[more] + 1) & mask
    return out
