"""Command line of ``evaluation.core``, usable on files alone (no Django, no database).

Sub-commands::

    python -m evaluation.core [evaluate] QRELS RUN [RUN ...] -m MEASURE ...   (effectiveness)
    python -m evaluation.core compare QRELS RUN RUN [RUN ...] -m MEASURE ...  (significance)
    python -m evaluation.core reliability QRELS RUN [RUN ...] -m MEASURE ...  (G-theory)
    python -m evaluation.core leaderboard QRELS RUN RUN [RUN ...] -m MEASURE ...  (the
        results pages' leaderboard document: evaluation.core.results)
    python -m evaluation.core groups rankings|votes FILE ...  (ordered groups: a partially
        ordered ground truth from experts' rankings or pairwise preferences)
    python -m evaluation.core optimality QRELS RUN [RUN ...] [-m MEASURE ...]  (which test,
        measure and scale to trust: thesis ch. 5's split-half study)
    python -m evaluation.core distributions QRELS RUN [RUN ...] -m MEASURE  (which
        distribution describes the scores: thesis §4.2.2)
    python -m evaluation.core reliability --nested JUDGMENTS RUN ... -m MEASURE  (the
        nested G-study of several assessors per query, §6.4)

``evaluate`` is the default, so the first form reads like ``trec_eval``.

Low-cost evaluation (thesis ch. 7-8): ``estimate``, ``next``, ``features``, ``simulate``,
``fit``, and ``evaluate ... --estimates EST`` (or ``--metadata META``), which goes to
:mod:`evaluation.core.cli.evaluate_estimated`.
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = {
    "evaluate": "evaluation.core.cli.evaluate",
    "compare": "evaluation.core.cli.compare",
    "reliability": "evaluation.core.cli.reliability",
    "leaderboard": "evaluation.core.cli.leaderboard",
    "groups": "evaluation.core.cli.groups",  # partially ordered ground truths (issue 32)
    "optimality": "evaluation.core.cli.optimality",
    "distributions": "evaluation.core.cli.distributions",
}

# Low-cost evaluation (thesis ch. 7-8, issue 15)
SUBCOMMANDS.update(
    {
        name: f"evaluation.core.cli.{name}"
        for name in ("estimate", "next", "features", "simulate", "fit")
    }
)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    name = args[0] if args and args[0] in SUBCOMMANDS else "evaluate"
    if args and args[0] == name:
        args = args[1:]
    module = SUBCOMMANDS[name]
    if name == "evaluate" and wants_estimates(args):  # low-cost evaluation (issue 15)
        module = "evaluation.core.cli.evaluate_estimated"
    return importlib.import_module(module).main(args)


#: The options that make ``evaluate`` an evaluation with estimates (checked here, so that
#: the plain ``evaluate`` does not import the low-cost modules and scipy).
FLAGS = ("--estimates", "--metadata")


def wants_estimates(args: list[str]) -> bool:
    return any(a == f or a.startswith(f + "=") for a in args for f in FLAGS)
