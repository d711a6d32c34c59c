"""MIREX 2011 as the low-cost tests use it: pool, truth and metadata, read once."""

from functools import lru_cache

from evaluation.core.lowcost import Pool, read_metadata
from evaluation.core.trec import read_qrels, read_runs
from tests.helpers.shared_data import MIREX2011, require


@lru_cache(maxsize=1)
def mirex2011(depth: int = 5):
    require(MIREX2011)
    qrels = read_qrels(MIREX2011 / "judgments.tsv")
    runs = read_runs(MIREX2011 / "runs.tsv")
    metadata = read_metadata(MIREX2011 / "metadata.tsv")
    pool = Pool.from_runs(runs, depth=depth, qrels=qrels)
    return qrels, runs, metadata, pool, pool.judgments(qrels)
