"""64-bit keys for (query, document) pairs, to match and de-duplicate millions of rows.

Comparing fixed-width byte strings is slow in bulk, so rows are first compared by a
64-bit hash of their bytes; every equality the hash suggests is then confirmed on the
bytes themselves, so a hash collision can cost time but never change a result.
"""

from __future__ import annotations

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
    raw[:, :width] = docs.view(np.uint8).reshape(n, width)
    return raw.view("<u8")


_BLOCK = 1 << 16  # rows per block: the work arrays of one block stay in cache


def doc_hashes(docs: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each document id (``S<n>`` array).

    The same id has the same hash whatever the width of its array (the zero padding
    is not hashed), so ids of judgments and runs compare by hash. Computed block by
    block in place, so the temporaries stay in cache.
    """
    words = _words(docs)
    n = len(words)
    out = np.empty(n, dtype=np.uint64)
    scratch = np.empty(min(n, _BLOCK), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for lo in range(0, n, _BLOCK):
            block = words[lo : lo + _BLOCK]
            h, tmp = out[lo : lo + _BLOCK], scratch[: len(block)]
            np.multiply(block[:, 0], _M1, out=h)
            for j in range(1, words.shape[1]):  # zero words (padding) change nothing
                word = block[:, j]
                np.multiply(word, _M2, out=tmp)
                tmp ^= h
                step = (tmp << np.uint64(31)) | (tmp >> np.uint64(33))
                np.copyto(h, step, where=word != 0)
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
    sorted_keys = pair_keys(codes, docs, hashes)
    sorted_keys.sort()
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return None  # no equal keys, so certainly no equal pairs
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


def _exact_duplicate(codes, docs):
    order = np.lexsort((docs, codes))
    c, d = codes[order], docs[order]
    same = np.flatnonzero((c[1:] == c[:-1]) & (d[1:] == d[:-1]))
    if len(same) == 0:
        return None
    i, j = sorted((int(order[same[0]]), int(order[same[0] + 1])))
    return i, j


def lookup(table_codes, table_docs, codes, docs, hashes=None) -> np.ndarray:
    """For each (code, doc) row, the index of the equal row in the table, or -1.

    The table must not hold a pair twice. Rows with a negative code match nothing.

    The table is an open-addressing hash table with one region per code (a power of
    two at least four times the code's rows, probed linearly), so rows that come code
    by code look up one small region at a time. Equal hashes are confirmed on the
    bytes, so a collision costs a probe, never a wrong match.
    """
    codes = np.asarray(codes, dtype=np.int64)
    table_codes = np.asarray(table_codes, dtype=np.int64)
    out = np.full(len(docs), -1, dtype=np.int64)
    if len(table_docs) == 0 or len(docs) == 0:
        return out
    n_codes = int(max(table_codes.max(), codes.max(initial=-1))) + 1
    counts = np.bincount(table_codes, minlength=n_codes)
    region = 1 << int(4 * counts.max() - 1).bit_length()
    if n_codes * region <= 8 * len(table_codes) + 1024:  # one size fits all codes
        sizes = np.full(n_codes, region, dtype=np.int64)
    else:
        sizes = np.left_shift(1, np.ceil(np.log2(np.maximum(4 * counts, 1))).astype(np.int64))
    masks = (sizes - 1).astype(np.uint64)
    bases = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.uint64)
    table_hashes = doc_hashes(table_docs)
    slots = _build_table(int(sizes.sum()), table_codes, table_hashes, bases, masks)
    slot_hashes = np.where(slots >= 0, table_hashes[slots], 0)
    hashes = doc_hashes(docs) if hashes is None else hashes
    with np.errstate(over="ignore"):
        for lo in range(0, len(docs), _BLOCK):
            c, h = codes[lo : lo + _BLOCK], hashes[lo : lo + _BLOCK]
            where = bases[c] + (h & masks[c])  # a negative code reads a slot, then is ignored
            found = slots[where]
            same = slot_hashes[where] == h
            same &= c >= 0
            candidates = np.flatnonzero(same)
            done = candidates[table_docs[found[candidates]] == docs[lo + candidates]]
            out[lo + done] = found[done]
            more = (found >= 0) & (c >= 0)
            more[done] = False  # the rest probe on: a different document is in the slot
            rows = np.flatnonzero(more) + lo
            step = np.uint64(1)
            while len(rows):
                c = codes[rows]
                where = bases[c] + ((hashes[rows] + step) & masks[c])
                found = slots[where]
                taken = found >= 0
                rows, found, where = rows[taken], found[taken], where[taken]
                same = np.flatnonzero(slot_hashes[where] == hashes[rows])
                if len(same):
                    done = same[table_docs[found[same]] == docs[rows[same]]]
                    out[rows[done]] = found[done]
                    rows = np.delete(rows, done)
                step += np.uint64(1)
    return out


def _build_table(size, codes, hashes, bases, masks) -> np.ndarray:
    """Slots holding table row indices (-1 where empty), placed by linear probing."""
    slots = np.full(size, -1, dtype=np.int64)
    pending = np.arange(len(codes))
    steps = np.zeros(len(codes), dtype=np.uint64)
    while len(pending):
        c = codes[pending]
        where = bases[c] + ((hashes[pending] + steps[pending]) & masks[c])
        free = slots[where] < 0
        slots[where[free]] = pending[free]  # one of the rows aiming at a slot wins it
        placed = np.zeros(len(pending), dtype=bool)
        placed[free] = slots[where[free]] == pending[free]
        pending = pending[~placed]
        steps[pending] += np.uint64(1)
    return slots
