"""Deterministic synthetic TREC collection for the measures benchmark.

    python benchmarks/generate.py [--queries 10000] [--depth 1000] [--judged 100] [--seed 0]
                                  [--ties N]

writes ``benchmarks/data/run.txt`` (queries x depth lines, ``qid Q0 docno rank score tag``)
and ``benchmarks/data/qrels.txt`` (~``judged`` graded judgments per query, levels 0–3,
60% of them on retrieved documents). With ``--ties N`` it also writes
``benchmarks/data/run_ties.txt``: the same documents, N consecutive ranks sharing one
score, shuffled within each tie (what a ranker that rounds its scores writes; trec_eval
orders a tie by document id descending). ``--scores SxQ`` writes only a score table
``benchmarks/data/scores_SxQ.txt`` (``system query score``, one line per cell). Fixed-width fields let numpy write the bytes
directly: 10 million lines take a few seconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"


def _digits(values: np.ndarray, width: int) -> np.ndarray:
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    return ((values[:, None] // powers) % 10 + 48).astype(np.uint8)


def _lines(fields: list[np.ndarray | bytes], n: int) -> bytes:
    """Concatenate per-row fields (uint8 digit matrices or constant bytes) into lines."""
    parts = []
    for f in fields:
        if isinstance(f, bytes):
            parts.append(np.broadcast_to(np.frombuffer(f, np.uint8), (n, len(f))))
        else:
            parts.append(f)
    return np.hstack(parts).tobytes()


def generate(
    queries: int, depth: int, judged: int, seed: int, out: Path = DATA, ties: int = 0
) -> tuple[Path, ...]:
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    q = np.repeat(np.arange(1, queries + 1), depth)
    rank = np.tile(np.arange(1, depth + 1), queries)
    # distinct documents per query: an arithmetic progression from a random start
    start = rng.integers(0, 10**8, size=queries)
    docs = (start[:, None] + 997 * np.arange(depth)[None, :]) % 10**9
    # strictly decreasing scores with 6 decimals: (depth - rank) + u, u < 0.9
    micro = (depth - rank) * 10**6 + rng.integers(0, 900_000, size=queries * depth)
    run = _lines(
        [_digits(q, 5), b" Q0 D", _digits(docs.ravel(), 9), b" ", _digits(rank, 4), b" ",
         _digits(micro // 10**6, 3), b".", _digits(micro % 10**6, 6), b" bench\n"],
        queries * depth,
    )  # fmt: skip
    run_path = out / "run.txt"
    run_path.write_bytes(run)
    tied_paths = ()
    if ties:
        tied = np.random.default_rng(seed + 1).permuted(
            docs.reshape(queries, depth // ties, ties), axis=2
        ).ravel()  # fmt: skip
        level = (depth - rank) // ties * 10**6  # one score for each N ranks
        tied_run = _lines(
            [_digits(q, 5), b" Q0 D", _digits(tied, 9), b" ", _digits(rank, 4), b" ",
             _digits(level // 10**6, 3), b".", _digits(level % 10**6, 6), b" bench\n"],
            queries * depth,
        )  # fmt: skip
        tied_paths = (out / "run_ties.txt",)
        tied_paths[0].write_bytes(tied_run)
    # judgments: 60% on retrieved documents (biased to the top), 40% on others
    on_run = int(judged * 0.6)
    drawn = np.sort(rng.choice(depth, size=(queries, on_run)) ** 2 // depth, axis=1)
    flat = np.unique(drawn + depth * np.arange(queries)[:, None])  # distinct per query
    qj, ranks = flat // depth, flat % depth
    judged_docs = docs[qj, ranks]
    off = judged - on_run
    q_off = np.repeat(np.arange(queries), off)
    other = (start[q_off] + 997 * (depth + np.tile(np.arange(off), queries))) % 10**9
    all_q = np.concatenate([qj, q_off]) + 1
    all_d = np.concatenate([judged_docs, other])
    top = np.concatenate([ranks, np.full(len(other), depth)])
    p_rel = np.clip(0.9 - top / depth, 0.05, 0.9)
    level = (rng.random(len(all_d)) < p_rel) * rng.integers(1, 4, size=len(all_d))
    order = np.lexsort((all_d, all_q))
    qrels = _lines(
        [_digits(all_q[order], 5), b" 0 D", _digits(all_d[order], 9), b" ",
         _digits(level[order], 1), b"\n"],
        len(order),
    )  # fmt: skip
    qrels_path = out / "qrels.txt"
    qrels_path.write_bytes(qrels)
    return (qrels_path, run_path, *tied_paths)


def score_table(systems: int, queries: int, seed: int = 0, out: Path = DATA) -> Path:
    """``scores_<systems>x<queries>.txt``: ``system query score`` lines, one per cell, in
    system order; scores with 6 decimals, systems of close quality (a system effect of sd
    0.03, a query effect and noise), as a per-query score table of a measure in [0, 1]."""
    rng = np.random.default_rng(seed)
    scores = (
        rng.normal(0.4, 0.03, (systems, 1)) + rng.normal(0, 0.15, (1, queries))
        + rng.normal(0, 0.1, (systems, queries))
    )  # fmt: skip
    micro = np.rint(np.clip(scores, 0, 0.999999) * 10**6).astype(np.int64).ravel()
    n = systems * queries
    table = _lines(
        [b"s", _digits(np.repeat(np.arange(systems), queries), 4), b" q",
         _digits(np.tile(np.arange(queries), systems), 5), b" 0.", _digits(micro, 6), b"\n"],
        n,
    )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"scores_{systems}x{queries}.txt"
    path.write_bytes(table)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--judged", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ties", type=int, default=0, help="also a run tied in N-rank groups")
    parser.add_argument(
        "--scores", metavar="SxQ", help="only a score table of S systems × Q queries"
    )
    args = parser.parse_args()
    if args.scores:
        systems, queries = (int(x) for x in args.scores.split("x"))
        path = score_table(systems, queries, args.seed)
        print(path, path.stat().st_size, "bytes")
        return
    for path in generate(args.queries, args.depth, args.judged, args.seed, ties=args.ties):
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
