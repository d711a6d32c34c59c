"""Segment-based retrieval measures (Aly, Eskevich, Ordelman, Jones 2013).

Results and judgments are segments ``(document, start, end)`` of a longer item (a video,
a recording). Three ways of deciding whether a retrieved segment is relevant turn the
ranking into a binary relevance vector, on which the usual P@n, MAP and Judged@n are
computed (§2 of the report):

``overlap`` (§2.1)
    Relevant if it overlaps a segment judged relevant that no higher-ranked result
    overlapped; judged if it overlaps any judged segment. Each relevant segment is
    credited once, to the first result that reaches it.
``bin`` (§2.2), bin size ``BS``
    Segments are reduced to the bin ``floor(start / BS)`` their start falls in; a
    result is relevant if its bin holds the start of a relevant segment, and a result
    whose bin already appeared higher in the ranking is merged into it (dropped).
``tol`` (§2.3), window ``l``
    The user watches ``[start, start + l)``; the result is relevant if that window
    overlaps a relevant segment not already seen through a higher-ranked result.

Counting each relevant segment once keeps the measures in [0, 1], as the report's §2
requires of every measure (:math:`m: \\mathcal{V}^l \\to [0, 1]`): at most
:math:`|R_q|` results are relevant, so AP (normalised by :math:`|R_q|`) is at most 1.
The report notes that plain overlap relevance counts one relevant segment several times
(§2.1, results 2 and 4 of its Figure 1) and calls that a disadvantage; counted that way,
three results overlapping the only relevant segment would give AP = 3 and P@5 = 0.6.
Here they give AP = 1 and P@5 = 0.2, as the binned and tolerance variants would.

Reference: R. Aly, M. Eskevich, R. Ordelman, G. J. F. Jones, "Adapting binary
information retrieval evaluation metrics for segment-based retrieval tasks",
arXiv:1312.1913, 2013.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from evaluation.core.measures.binary import average_precision, precision

METHODS = ("overlap", "bin", "tol")


@dataclass(frozen=True)
class SegmentJudgments:
    """Relevance and judged flags of each query's ranked segments, as 0/1 matrices."""

    queries: tuple[str, ...]
    relevant: np.ndarray
    judged: np.ndarray
    retrieved: np.ndarray
    num_rel: np.ndarray


def _arrays(segments):
    docs = np.array([str(s[0]) for s in segments], dtype=object)
    start = np.array([float(s[1]) for s in segments], dtype=np.float64)
    end = np.array([float(s[2]) for s in segments], dtype=np.float64)
    return docs, start, end


def _overlap(docs, start, end, jdocs, jstart, jend):
    """``(n_results, n_judged)``: same document and intervals intersect."""
    return (
        (docs[:, None] == jdocs[None, :])
        & (start[:, None] < jend[None, :])
        & (jstart[None, :] < end[:, None])
    )


def _one_query(results, judgments, method, bin_size, window):
    docs, start, end = _arrays(results)
    jdocs, jstart, jend = _arrays(judgments)
    jrel = np.array([float(j[3]) > 0 for j in judgments], dtype=bool)
    if method == "bin":
        result_bins = list(zip(docs.tolist(), np.floor(start / bin_size).tolist(), strict=True))
        judged_bins = list(zip(jdocs.tolist(), np.floor(jstart / bin_size).tolist(), strict=True))
        relevant_bins = {b for b, r in zip(judged_bins, jrel, strict=True) if r}
        seen: set = set()
        kept = []
        for b in result_bins:
            if b not in seen:
                seen.add(b)
                kept.append(b)
        relevant = np.array([b in relevant_bins for b in kept], dtype=bool)
        judged = np.array([b in set(judged_bins) for b in kept], dtype=bool)
        return relevant, judged, len(relevant_bins)
    if method == "tol":
        end = start + window
    hits = _overlap(docs, start, end, jdocs, jstart, jend)
    judged = hits.any(axis=1)
    # a relevant segment reached by a higher-ranked result was already seen
    seen_before = (np.cumsum(hits, axis=0) - hits) > 0
    relevant = (hits & jrel[None, :] & ~seen_before).any(axis=1)
    return relevant, judged, int(jrel.sum())


def segment_judgments(
    judgments: Mapping[str, Sequence[tuple]],
    results: Mapping[str, Sequence[tuple]],
    *,
    method: str = "overlap",
    bin_size: float = 60.0,
    window: float = 60.0,
) -> SegmentJudgments:
    """Binary relevance of ranked segments under one of Aly et al.'s three user models.

    Parameters
    ----------
    judgments:
        ``{query: [(document, start, end, relevance), ...]}``; relevance > 0 is relevant.
    results:
        ``{query: [(document, start, end), ...]}`` in rank order. Queries without
        judgments are left out.
    method:
        ``"overlap"``, ``"bin"`` (with ``bin_size``) or ``"tol"`` (with ``window``).
    """
    if method not in METHODS:
        raise ValueError(f"unknown segment method {method!r}; valid: {', '.join(METHODS)}")
    queries = tuple(sorted(q for q in results if q in judgments))
    rows = [_one_query(results[q], judgments[q], method, bin_size, window) for q in queries]
    depth = max([len(r[0]) for r in rows], default=0)
    relevant = np.zeros((len(queries), depth))
    judged = np.zeros((len(queries), depth))
    for i, (rel, jud, _) in enumerate(rows):
        relevant[i, : len(rel)] = rel
        judged[i, : len(jud)] = jud
    return SegmentJudgments(
        queries,
        relevant,
        judged,
        np.array([len(r[0]) for r in rows], dtype=np.int64),
        np.array([r[2] for r in rows], dtype=np.int64),
    )


def segment_measures(
    judgments: Mapping[str, Sequence[tuple]],
    results: Mapping[str, Sequence[tuple]],
    *,
    cutoffs: Sequence[int] = (5, 10, 20),
    judged_cutoffs: Sequence[int] = (10, 20, 30),
    bin_size: float = 60.0,
    window: float = 60.0,
) -> dict[str, dict[str, float]]:
    """P@n, MAP and Judged@n in the plain, ``_bin`` and ``_tol`` variants, per query.

    Names follow the report's script: ``map``, ``P_5``, ``Judged_10``, ``map_bin``,
    ``P_5_tol``, ... plus ``num_ret``, ``num_rel``, ``num_rel_ret`` for each variant.
    Judged@n is the fraction of the top n results that overlap a judged segment.

    Returns ``{measure: {query: value}}``.
    """
    out: dict[str, dict[str, float]] = {}
    for method, suffix in (("overlap", ""), ("bin", "_bin"), ("tol", "_tol")):
        sj = segment_judgments(judgments, results, method=method, bin_size=bin_size, window=window)
        columns = {
            "num_ret": sj.retrieved.astype(np.float64),
            "num_rel": sj.num_rel.astype(np.float64),
            "num_rel_ret": sj.relevant.sum(axis=1),
            "map": average_precision(sj.relevant, k=None, normaliser=sj.num_rel),
        }
        for n in cutoffs:
            columns[f"P_{n}"] = precision(sj.relevant, k=n)
        for n in judged_cutoffs:
            columns[f"Judged_{n}"] = precision(sj.judged, k=n)
        for name, values in columns.items():
            out[name + suffix] = dict(zip(sj.queries, values.tolist(), strict=True))
    return out
