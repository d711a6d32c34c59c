"""Command line of ``evaluation.core``, usable on files alone (no Django, no database).

Sub-commands::

    python -m evaluation.core [evaluate] QRELS RUN [RUN ...] -m MEASURE ...   (effectiveness)
    python -m evaluation.core compare QRELS RUN RUN [RUN ...] -m MEASURE ...  (significance)
    python -m evaluation.core reliability QRELS RUN [RUN ...] -m MEASURE ...  (G-theory)

``evaluate`` is the default, so the first form reads like ``trec_eval``.
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = {
    "evaluate": "evaluation.core.cli.evaluate",
    "compare": "evaluation.core.cli.compare",
    "reliability": "evaluation.core.cli.reliability",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    name = args[0] if args and args[0] in SUBCOMMANDS else "evaluate"
    if args and args[0] == name:
        args = args[1:]
    module = importlib.import_module(SUBCOMMANDS[name])
    return module.main(args)
