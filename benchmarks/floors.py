"""What the statistics cost done plainly: the floors ``bench_floors.py`` measures Earshot against.

Each floor is the same work written directly with numpy and pyarrow, with nothing for
messages, options or output: read the score table (pyarrow's CSV reader, systems and
queries dictionary-encoded, the scores scattered into a matrix), then

- ``permutation``: the sign-flip test of every pair (thesis eq. 5.5) with the given
  resamples, drawn as bits and applied to all pairs with one matrix product per chunk,
  and Holm's adjustment;
- ``bootstrap``: the shift-method bootstrap test of every pair (eq. 5.4) with its
  percentile intervals (``np.quantile``) and Holm's adjustment;
- ``reliability``: the G-study of the crossed design (eq. 6.3: the two-way ANOVA's mean
  squares into variance components) and the D-study's Eρ² and Φ (eqs. 6.4, 6.5) for 1 to
  twice the queries.

``read-run`` is the floor of the measures command line's reading alone: a TREC run
(``qid Q0 docno rank score tag``) read by pyarrow on one thread in 16 MiB blocks (the
cheapest of 1, 4, 16 and 64 MiB, with and without threads, 29 November 2026), its three columns that
the measures need (queries dictionary-encoded, documents as bytes, scores as floats) and
nothing else: no ranking, no judgments, no measure.

    python benchmarks/floors.py permutation|bootstrap|reliability TABLE [--resamples N]
    python benchmarks/floors.py read-run RUN

It prints one line of figures (a checksum of the p-values or the components), so that a
run can be seen to have done the work. Not part of Earshot: it validates nothing.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pyarrow as pa
import pyarrow.csv as csv


def read_matrix(path: str) -> np.ndarray:
    table = csv.read_csv(
        path,
        read_options=csv.ReadOptions(column_names=["system", "query", "score"]),
        parse_options=csv.ParseOptions(delimiter=" "),
        convert_options=csv.ConvertOptions(
            column_types={
                "system": pa.dictionary(pa.int32(), pa.string()),
                "query": pa.dictionary(pa.int32(), pa.string()),
                "score": pa.float64(),
            }
        ),
    )
    systems = table.column("system").combine_chunks()
    queries = table.column("query").combine_chunks()
    k, n = len(systems.dictionary), len(queries.dictionary)
    X = np.empty((k, n))
    X[systems.indices.to_numpy(), queries.indices.to_numpy()] = table.column("score").to_numpy()
    return X


def read_run(path: str) -> int:
    names = [f"f{i}" for i in range(6)]
    table = csv.read_csv(
        path,
        read_options=csv.ReadOptions(column_names=names, use_threads=False, block_size=1 << 24),
        parse_options=csv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False),
        convert_options=csv.ConvertOptions(
            include_columns=["f0", "f2", "f4"],
            column_types={
                "f0": pa.dictionary(pa.int32(), pa.binary()),
                "f2": pa.binary(),
                "f4": pa.float64(),
            },
            check_utf8=False,
        ),
    )
    return table.num_rows


def holm(p: np.ndarray) -> np.ndarray:
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return adjusted


def resampled(X: np.ndarray, kind: str, resamples: int, seed: int):
    """p-values (and percentile intervals for the bootstrap) of every pair."""
    k, n = X.shape
    i, j = np.triu_indices(k, 1)
    D = (X[i] - X[j]) / n
    observed = D.sum(axis=1)
    rng = np.random.default_rng(seed)
    chunk = max(1, (1 << 22) // n)
    hits = np.zeros(len(D))
    low, high = np.full(len(D), np.nan), np.full(len(D), np.nan)
    block = max(1, (256 << 20) // (8 * resamples))
    draws = []
    for a in range(0, resamples, chunk):
        rows = min(chunk, resamples - a)
        if kind == "permutation":
            draws.append(2.0 * rng.integers(0, 2, size=(rows, n)) - 1.0)
        else:
            idx = rng.integers(0, n, size=(rows, n)) + (np.arange(rows) * n)[:, None]
            draws.append(np.bincount(idx.ravel(), minlength=rows * n).reshape(rows, n) * 1.0)
    W = np.vstack(draws)
    for b in range(0, len(D), block):
        null = D[b : b + block] @ W.T
        if kind == "bootstrap":
            low[b : b + block], high[b : b + block] = np.quantile(null, [0.025, 0.975], axis=1)
            null -= null.mean(axis=1, keepdims=True)
        hits[b : b + block] = np.count_nonzero(
            np.abs(null) >= np.abs(observed[b : b + block])[:, None] - 1e-12, axis=1
        )
    p = hits / resamples
    return holm(p), low, high


def reliability(X: np.ndarray):
    k, n = X.shape
    grand = X.mean()
    rows, columns = X.mean(axis=1), X.mean(axis=0)
    ms_s = n * ((rows - grand) ** 2).sum() / (k - 1)
    ms_q = k * ((columns - grand) ** 2).sum() / (n - 1)
    ms_e = ((X - rows[:, None] - columns[None, :] + grand) ** 2).sum() / ((k - 1) * (n - 1))
    s2_s, s2_q, s2_e = max(0.0, (ms_s - ms_e) / n), max(0.0, (ms_q - ms_e) / k), ms_e
    sizes = np.arange(1, 2 * n + 1)
    erho2 = s2_s / (s2_s + s2_e / sizes)
    phi = s2_s / (s2_s + (s2_q + s2_e) / sizes)
    return (s2_s, s2_q, s2_e), erho2, phi


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", choices=("permutation", "bootstrap", "reliability", "read-run"))
    parser.add_argument("table")
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.work == "read-run":
        print("lines", read_run(args.table))
        return 0
    X = read_matrix(args.table)
    if args.work == "reliability":
        components, erho2, phi = reliability(X)
        print(X.shape, components, erho2[X.shape[1] - 1], phi[X.shape[1] - 1])
    else:
        p, low, high = resampled(X, args.work, args.resamples, args.seed)
        print(X.shape, float(p.sum()), float(np.nansum(low)), float(np.nansum(high)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
