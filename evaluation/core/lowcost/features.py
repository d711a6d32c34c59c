"""Features of a (query, document) pair that predict its relevance (thesis §7.2.3).

Output-based features need only the systems' rankings and the metadata, so they exist
before any judgment; judgment-based features summarise the judgments known so far.
Every feature is an ``(n_pairs,)`` float array aligned with :class:`~.pool.Pool` pairs,
NaN where it cannot be computed (unknown metadata, no judgment to average): a model
that needs a missing feature does not apply to that pair and the estimator falls back
to the next one (thesis §7.4).

Output-based (for document d and query q, within the pool depth k):

``fSYS``   fraction of systems that ranked d for q.
``fTEAM``  fraction of teams with a system that ranked d for q (each system is its own
           team when no teams are given, so fTEAM = fSYS).
``OV``     overlap among systems: distinct pairs / ranked documents (for complete top-k
           lists, :math:`n_R / (k\\, n_S\\, n_Q)`), one value for the whole pool.
``aRANK``  mean rank at which the systems that ranked d for q ranked it.
``sGEN``   1 if d has the genre of q, 0 if not (missing if either genre is unknown).
``fGEN``   fraction of the distinct documents ranked for q (of known genre) that share
           d's genre, d included.
``fART``   the same for d's artist.

Judgment-based (the judgment of d itself never counts, so the same definition serves
estimating unjudged pairs and fitting models on complete collections):

``aSYS``   mean over the systems that ranked d for q of each system's mean judged
           relevance over all the documents it ranked, for every query (as Allcea
           averages it; systems without judged documents are left out).
``aDOC``   mean judged relevance of the other documents ranked for q.
``aGEN``   the same, restricted to documents of d's genre.
``aART``   the same, restricted to documents of d's artist (missing for unknown artists
           and for "various artists", as in Allcea).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from evaluation.core.lowcost.pool import Metadata, Pool

OUTPUT_FEATURES = ("fSYS", "fTEAM", "OV", "aRANK", "sGEN", "fGEN", "fART")
JUDGMENT_FEATURES = ("aSYS", "aDOC", "aGEN", "aART")
FEATURES = OUTPUT_FEATURES + JUDGMENT_FEATURES
VARIOUS_ARTISTS = {"various artists", "various", "va"}


def output_features(
    pool: Pool, metadata: Metadata | None = None, *, teams: Mapping[str, str] | None = None
) -> dict[str, np.ndarray]:
    """fSYS, fTEAM, OV, aRANK, sGEN, fGEN and fART of every pair (thesis §7.2.3)."""
    metadata = metadata or Metadata.empty()
    n_sys = len(pool.systems)
    counts = pool.rank_counts
    n_ranked = counts.sum(axis=1)
    retrieved = pool.retrieved
    nan = np.where(retrieved, 0.0, np.nan)
    out: dict[str, np.ndarray] = {"fSYS": n_ranked / n_sys + nan}
    system, rank, pair = pool.entries
    team_of = teams or {}
    labels = [team_of.get(s, s) for s in pool.systems]
    team_names = sorted(set(labels))
    team_code = np.array([team_names.index(t) for t in labels], dtype=np.int64)
    seen = np.unique(pair * len(team_names) + team_code[system])
    out["fTEAM"] = (
        np.bincount(seen // len(team_names), minlength=pool.n_pairs) / len(team_names) + nan
    )
    out["OV"] = np.full(pool.n_pairs, retrieved.sum() / max(len(pair), 1)) + nan
    rank_sum = np.bincount(pair, weights=rank + 1.0, minlength=pool.n_pairs)
    out["aRANK"] = np.divide(
        rank_sum, n_ranked, out=np.full(pool.n_pairs, np.nan), where=n_ranked > 0
    )
    genre = metadata.codes(pool.pair_doc, "genre")
    artist = metadata.codes(pool.pair_doc, "artist")
    query_genre = metadata.codes(pool.queries, "genre")[pool.pair_query]
    known = (genre >= 0) & (query_genre >= 0) & retrieved
    out["sGEN"] = np.where(known, (genre == query_genre).astype(np.float64), np.nan)
    out["fGEN"] = _share(pool, genre)
    out["fART"] = _share(pool, artist)
    return out


def _share(pool: Pool, label: np.ndarray) -> np.ndarray:
    """Fraction of the query's ranked documents of known label that have the pair's label."""
    ok = (label >= 0) & pool.retrieved
    n_labels = int(label.max()) + 1 if ok.any() else 1
    key = pool.pair_query * n_labels + np.maximum(label, 0)
    same = np.bincount(key[ok], minlength=len(pool.queries) * n_labels)
    known = np.bincount(pool.pair_query[ok], minlength=len(pool.queries))
    share = same[key] / np.maximum(known[pool.pair_query], 1)
    return np.where(ok, share, np.nan)


def judgment_features(
    pool: Pool, judged: np.ndarray, metadata: Metadata | None = None, *, own: bool = False
) -> dict[str, np.ndarray]:
    """aSYS, aDOC, aGEN and aART of every pair from ``judged`` (NaN = not judged).

    By default a judged pair's own judgment is left out (leave-one-out means), which is
    what an unjudged pair sees. ``own=True`` counts it, as the thesis did to fit M_jud
    on complete collections: that reproduces Table 7.1's M_jud figures on MIREX 2011
    (RMSE 0.0969 against 0.0957 published; 0.177 leaving it out) but lets the judgment
    leak into its own features (see ``docs/low-cost-evaluation.md``).
    """
    metadata = metadata or Metadata.empty()
    judged = np.asarray(judged, dtype=np.float64)
    has = ~np.isnan(judged) & pool.retrieved
    value = np.where(has, judged, 0.0)
    mine = (np.zeros_like(value), np.zeros_like(has)) if own else (value, has)
    out = {"aSYS": _system_average(pool, value, has, mine)}
    whole_query = np.zeros(pool.n_pairs, dtype=np.int64)
    out["aDOC"] = _group_average(pool, whole_query, value, has, mine)
    genre = metadata.codes(pool.pair_doc, "genre")
    out["aGEN"] = _group_average(pool, genre, value, has, mine)
    artist = metadata.codes(pool.pair_doc, "artist")
    various = _various_artist_codes(metadata)
    artist = np.where(np.isin(artist, various), -1, artist)
    out["aART"] = _group_average(pool, artist, value, has, mine)
    return out


def _various_artist_codes(metadata: Metadata) -> np.ndarray:
    labels = sorted(set(metadata.artist.values()))
    return np.array(
        [i for i, label in enumerate(labels) if label.lower() in VARIOUS_ARTISTS], dtype=np.int64
    )


def _system_average(pool: Pool, value, has, mine) -> np.ndarray:
    system, _, pair = pool.entries
    n_sys = len(pool.systems)
    total = np.bincount(system, weights=value[pair], minlength=n_sys)
    count = np.bincount(system, weights=has[pair].astype(np.float64), minlength=n_sys)
    loo_total = total[system] - mine[0][pair]
    loo_count = count[system] - mine[1][pair]
    ok = loo_count > 0
    mean = np.divide(loo_total, loo_count, out=np.zeros_like(loo_total), where=ok)
    summed = np.bincount(pair[ok], weights=mean[ok], minlength=pool.n_pairs)
    systems = np.bincount(pair[ok], minlength=pool.n_pairs)
    return np.divide(summed, systems, out=np.full(pool.n_pairs, np.nan), where=systems > 0)


def _group_average(pool: Pool, group: np.ndarray, value, has, mine):
    """Mean judged value of the query's other ranked pairs in the pair's group (-1: none)."""
    ok = group >= 0
    n_groups = int(group.max()) + 1 if ok.any() else 1
    key = pool.pair_query * n_groups + np.maximum(group, 0)
    size = len(pool.queries) * n_groups
    use = has & ok
    total = np.bincount(key[use], weights=value[use], minlength=size)[key] - mine[0] * ok
    count = np.bincount(key[use], minlength=size)[key] - mine[1] * ok
    valid = ok & (count > 0) & pool.retrieved
    return np.divide(total, count, out=np.full(pool.n_pairs, np.nan), where=valid)


def all_features(
    pool: Pool,
    judged: np.ndarray | None = None,
    metadata: Metadata | None = None,
    *,
    teams: Mapping[str, str] | None = None,
    own: bool = False,
) -> dict[str, np.ndarray]:
    """Every feature of §7.2.3 (audio-based aSIM excepted: the core has no audio)."""
    judged = np.full(pool.n_pairs, np.nan) if judged is None else judged
    return {
        **output_features(pool, metadata, teams=teams),
        **judgment_features(pool, judged, metadata, own=own),
    }
