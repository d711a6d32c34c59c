"""Compact letter display of all-pairwise comparisons (Piepho 2004, insert-absorb).

Two systems share a letter exactly when they are *not* significantly different; every
pair that is significantly different has no letter in common. Unlike blocks of systems
contiguous in the ranking, letters can overlap ("ab" shares with "a" and with "b"), so
the display says what the p-values say for every pair, not only for neighbours of a
block's leader.

References
----------
H.-P. Piepho (2004). An algorithm for a letter-based representation of all-pairwise
comparisons. *Journal of Computational and Graphical Statistics* 13(2), 456–466.
https://doi.org/10.1198/1061860043515 (the algorithm of R's ``multcompView``, which
does not perform the paper's optional "sweeping" step; neither does this module).
"""

from __future__ import annotations

import string

import numpy as np

__all__ = ["MAX_LETTER_COLUMNS", "compact_letters", "letter_names", "significant_pairs"]

MAX_LETTER_COLUMNS = 500
"""Insert-absorb can need many columns (letters) for tangled patterns of significance
(the maximal sets of systems not significantly different from one another); past this
many the display would be unreadable anyway, and the work is refused."""


def significant_pairs(adjusted: np.ndarray, *, alpha: float) -> np.ndarray:
    """``k × k`` booleans: which pairs are significantly different at level ``alpha``.

    A pair is significant when its adjusted p-value is below ``alpha``. A NaN p-value
    (a test that could not be computed, or p-values withheld for too few queries)
    counts as *not* significant; the diagonal is never significant. A one-sided
    matrix counts a pair as significant when either direction is.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    p = np.asarray(adjusted, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError(f"expected a square matrix of p-values, got shape {p.shape}")
    with np.errstate(invalid="ignore"):
        significant = p < alpha  # NaN < alpha is False
    significant = significant | significant.T
    np.fill_diagonal(significant, False)
    return significant


def letter_names(n: int) -> list[str]:
    """``n`` letter names: ``a`` … ``z``, then ``A`` … ``Z``, then ``.a`` … ``.Z``, ``..a`` …
    (multcompView's ``makeLtrs`` with its default ``Letters = c(letters, LETTERS, ".")``:
    past the 52 letters each round puts one more ``.`` *before* them).

    >>> letter_names(3), letter_names(54)[-3:]
    (['a', 'b', 'c'], ['Z', '.a', '.b'])
    """
    alphabet = string.ascii_lowercase + string.ascii_uppercase
    return ["." * (i // len(alphabet)) + alphabet[i % len(alphabet)] for i in range(n)]


def compact_letters(significant) -> list[str]:
    r"""Letters of ``k`` items from which pairs are significantly different (insert-absorb).

    Piepho's algorithm (2004, §3) keeps a set of *columns*, each a set of items that
    share a letter. It starts with one column holding every item; for each significant
    pair :math:`(i, j)` every column holding both is replaced by two copies, one without
    :math:`i` and one without :math:`j` (*insert*), and then every column that is a
    subset of another is removed (*absorb*). At the end

    .. math::

        \exists\,\text{column} \ni i, j \iff (i, j) \text{ is not significant}

    since a significant pair never survives in one column, and a pair that is not
    significant is always kept together in at least one maximal column.

    Letters are named in the order of the items: the column holding the first item gets
    ``a``, the next column (by its first item) ``b``, and so on, so with items ranked best
    first the best system's letters come first.

    Parameters
    ----------
    significant : array_like of bool, k × k
        Symmetric; ``True`` where the pair is significantly different
        (:func:`significant_pairs`).

    Returns
    -------
    list of str
        Each item's letters, e.g. ``["ab", "a", "b"]``.

    Examples
    --------
    multcompView's example ``dif3``: A–B and A–C not significant, B–C significant.

    >>> compact_letters([[False, False, False], [False, False, True], [False, True, False]])
    ['ab', 'a', 'b']
    """
    s = np.asarray(significant, dtype=bool)
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise ValueError(f"expected a square matrix, got shape {s.shape}")
    if not np.array_equal(s, s.T):
        raise ValueError("the matrix of significant pairs must be symmetric")
    k = s.shape[0]
    if k == 0:
        return []
    # columns as bit sets (bit i: item i); absorbed: none is a subset of another
    columns = [(1 << k) - 1]
    for i, j in zip(*np.nonzero(np.triu(s, 1)), strict=True):
        bi, bj = 1 << int(i), 1 << int(j)
        both = bi | bj
        kept = [c for c in columns if c & both != both]
        split = [c for c in columns if c & both == both]
        # a kept column is no subset of a split one, so none of the halves contains it:
        # only the halves need absorbing, against the kept columns and each other
        halves = sorted({h for c in split for h in (c & ~bi, c & ~bj)}, key=_size, reverse=True)
        added: list[int] = []
        for half in halves:
            if not any(half & ~other == 0 for other in (*kept, *added)):
                added.append(half)
        columns = kept + added
        if len(columns) > MAX_LETTER_COLUMNS:
            raise ValueError(
                f"the letter display needs more than {MAX_LETTER_COLUMNS} letters; "
                "read the p-values instead"
            )
    columns.sort(key=lambda c: [n for n in range(k) if c >> n & 1])
    names = letter_names(len(columns))
    return [
        "".join(name for name, c in zip(names, columns, strict=True) if c >> i & 1)
        for i in range(k)
    ]


def _size(column: int) -> int:
    return bin(column).count("1")
