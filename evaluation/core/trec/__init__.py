"""TREC- and MIREX-format judgments and runs: reading, detection, in-memory building.

>>> qrels = read_qrels(b"1 0 d1 1\\n1 0 d2 0\\n")
>>> runs = read_runs(b"1 Q0 d2 1 2.0 sys\\n1 Q0 d1 2 1.0 sys\\n")
>>> runs["sys"].ranking("1")
['d2', 'd1']
"""

from evaluation.core.trec.model import Qrels, Run, sort_queries
from evaluation.core.trec.readers import read_qrels, read_run_files, read_runs
from evaluation.core.trec.tokens import FormatError

__all__ = [
    "FormatError",
    "Qrels",
    "Run",
    "read_qrels",
    "read_run_files",
    "read_runs",
    "sort_queries",
]
