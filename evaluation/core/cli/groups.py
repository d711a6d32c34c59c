"""``python -m evaluation.core groups rankings|votes FILE``: a partially ordered ground
truth from experts' rankings or from pairwise preferences, printed as a groups file.

::

    python -m evaluation.core groups rankings rankings.txt [--alpha 0.25] [--rule all]
    python -m evaluation.core groups votes answers.csv [--margin 2] [--column answer=Answer.q1]

``rankings`` reads ``EXPERT QUERY DOC RANK`` lines and groups each query's candidates
by Typke et al.'s (2005) rule or Urbano et al.'s (2010) alternatives
(:mod:`evaluation.core.ordered_groups.rankings`); ``votes`` reads a pairwise study's
answers CSV (:mod:`evaluation.core.ordered_groups.past_study`) and sorts each query
by the three-way QuickSort of Urbano, Morato, Marrero and Martín (2010). Either prints
``NAME QUERY DOC GROUP`` lines (group 1 the most similar), which ``evaluate
--qrels-format groups`` reads. A bad file gets one line, ``error: FILE:LINE: problem``,
and exit status 1 (2 for a usage error).
"""

from __future__ import annotations

import argparse
import sys

from evaluation.core.cli.inputs import describe
from evaluation.core.ordered_groups.files import groups_text
from evaluation.core.ordered_groups.past_study import COLUMNS, past_study_groups, read_past_study
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from evaluation.core.ordered_groups.rankings import (
    DEFAULT_ALPHA,
    RULES,
    groups_from_ranks,
    read_rankings,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core groups",
        description="Build a partially ordered ground truth (ordered groups per query) and "
        "print it as a groups file: NAME QUERY DOC GROUP, group 1 the most similar.",
    )
    sources = parser.add_subparsers(dest="source", required=True, metavar="rankings|votes")
    rankings = sources.add_parser(
        "rankings",
        help="from experts' rankings (Typke et al. 2005)",
        description="Lines EXPERT QUERY DOC RANK (rank 1 the most similar). Candidates are "
        "ordered by median rank; a new group starts where a Wilcoxon rank-sum test finds a "
        "candidate's ranks different from the current group's (see --rule).",
    )
    rankings.add_argument("file", help="the experts' rankings")
    rankings.add_argument(
        "--alpha",
        type=float,
        default=DEFAULT_ALPHA,
        help=f"significance level of the rank-sum tests (default {DEFAULT_ALPHA})",
    )
    rankings.add_argument(
        "--rule",
        choices=RULES,
        default="all",
        help="a new group starts when the candidate differs from all of the current group "
        "(Typke et al. 2005, default), from any of it, or from the previous candidate "
        "(Urbano et al. 2010)",
    )
    rankings.add_argument("--name", default="experts", help="the ground truth's name")
    votes = sources.add_parser(
        "votes",
        help="from pairwise preferences (Urbano et al. 2010, SIGIR CSE)",
        description="A CSV with a header and one answer a row: query, doc A, doc B, answer "
        "(A, B or equal) and worker; Mechanical Turk's batch results read as they are. "
        "Each query is sorted by the three-way QuickSort of its answers.",
    )
    votes.add_argument("file", help="the answers CSV")
    votes.add_argument(
        "--margin",
        type=int,
        default=DEFAULT_MARGIN,
        help=f"answers one side needs beyond the other's to be above it (default {DEFAULT_MARGIN})",
    )
    votes.add_argument(
        "--column",
        action="append",
        default=[],
        metavar="ROLE=HEADER",
        help=f"the header of a column named otherwise; roles: {', '.join(COLUMNS)}",
    )
    votes.add_argument("--name", default="preferences", help="the ground truth's name")
    return parser


def main(args: list[str]) -> int:
    parser = build_parser()
    options = parser.parse_args(args)
    if any(c.isspace() for c in options.name) or not options.name:
        parser.error("--name must be a word without spaces")
    try:
        if options.source == "rankings":
            groups = {
                query: groups_from_ranks(ranks, alpha=options.alpha, rule=options.rule).groups
                for query, ranks in read_rankings(options.file).items()
            }
        else:
            columns = dict(_column(text, parser) for text in options.column)
            study = read_past_study(options.file, columns=columns)
            groups = past_study_groups(study, margin=options.margin)
    except (ValueError, OSError) as error:  # FormatError is a ValueError
        print(f"error: {describe(error)}", file=sys.stderr)
        return 1
    sys.stdout.write(groups_text({options.name: groups}))
    return 0


def _column(text: str, parser: argparse.ArgumentParser) -> tuple[str, str]:
    role, _, header = text.partition("=")
    if role not in COLUMNS or not header:
        parser.error(f"--column {text!r}: expected ROLE=HEADER, ROLE one of {', '.join(COLUMNS)}")
    return role, header
