"""Earshot's numerical library: measures, TREC-format I/O, statistics, satisfaction maps.

Pure Python + numpy + scipy. **No Django import anywhere in this package**: it must
import and run without settings, and it has a command line of its own
(``python -m evaluation.core --help``).
"""
