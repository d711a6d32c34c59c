"""Earshot's numerical library: measures, TREC-format I/O, statistics, satisfaction maps.

Pure Python + numpy + scipy, and pyarrow to read big TREC files fast. **No Django import
anywhere in this package**: it must import and run without settings, and it has a command
line of its own (``python -m evaluation.core --help``).
"""

from evaluation.core.evaluate import Results, evaluate
from evaluation.core.names import parse_measure, parse_measures
from evaluation.core.trec import FormatError, Qrels, Run, read_qrels, read_runs

__all__ = [
    "FormatError",
    "Qrels",
    "Results",
    "Run",
    "evaluate",
    "parse_measure",
    "parse_measures",
    "read_qrels",
    "read_runs",
]
