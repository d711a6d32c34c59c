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


def doc_hashes(docs: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each document id (``S<n>`` array)."""
    words = _words(docs)
    with np.errstate(over="ignore"):
        h = words[:, 0] * _M1
        for j in range(1, words.shape[1]):
            h ^= words[:, j] * _M2
            h = (h << np.uint64(31)) | (h >> np.uint64(33))
        return _mix(h)


def pair_keys(codes: np.ndarray, docs: np.ndarray, hashes: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit key per row: the query code in the top 24 bits, a document hash below.

    Keys of one query are contiguous once sorted, so looking up rows that come query
    by query touches one small region of the sorted table at a time. ``hashes`` are
    the :func:`doc_hashes` of ``docs`` if already known.
    """
    h = doc_hashes(docs) if hashes is None else hashes
    codes = np.asarray(codes, dtype=np.uint64)
    if len(codes) and int(codes.max()) >= 1 << 24:
        with np.errstate(over="ignore"):
            return _mix(h ^ (codes * _GOLDEN))
    return (codes << np.uint64(40)) | (h >> np.uint64(24))


def first_duplicate(
    codes: np.ndarray, docs: np.ndarray, hashes: np.ndarray | None = None
) -> tuple[int, int] | None:
    """Rows ``(i, j)``, ``i < j``, of the first repeated (code, doc) pair found, or ``None``."""
    if len(docs) < 2:
        return None
    keys = pair_keys(codes, docs, hashes)
    sorted_keys = np.sort(keys)
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return None  # no equal keys, so certainly no equal pairs
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

    The table must not hold a pair twice.
    """
    out = np.full(len(docs), -1, dtype=np.int64)
    if len(table_docs) == 0 or len(docs) == 0:
        return out
    table_keys = pair_keys(table_codes, table_docs)
    order = np.argsort(table_keys)
    sorted_keys = table_keys[order]
    keys = pair_keys(codes, docs, hashes)
    if (sorted_keys[1:] == sorted_keys[:-1]).any():  # a collision inside the table
        return _exact_lookup(table_codes, table_docs, codes, docs)
    pos = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    hit = np.flatnonzero(sorted_keys[pos] == keys)
    rows = order[pos[hit]]
    real = (table_codes[rows] == codes[hit]) & (table_docs[rows] == docs[hit])
    out[hit[real]] = rows[real]
    return out


def _exact_lookup(table_codes, table_docs, codes, docs):
    index = {
        (int(c), bytes(d)): i for i, (c, d) in enumerate(zip(table_codes, table_docs, strict=True))
    }
    return np.array(
        [index.get((int(c), bytes(d)), -1) for c, d in zip(codes, docs, strict=True)],
        dtype=np.int64,
    )
