"""``python -m evaluation.core [evaluate] QRELS RUN [RUN ...] -m MEASURE ...``

Scores runs on files alone (no Django, no database), like trec_eval::

    python -m evaluation.core qrels.txt run1.txt run2.txt -m nDCG@10 -m P.5 -q
    python -m evaluation.core judgments.tsv runs.tsv -m "CG(scale=graded3)@5" --format csv
    python -m evaluation.core groups.txt runs.tsv --qrels-format groups -m ADR -m ADR@5
"""

from __future__ import annotations

import argparse
import sys

from evaluation.core.cli.inputs import InputError, evaluate_inputs, groups_hint
from evaluation.core.names import FAMILIES, parse_measures

DEFAULT_MEASURES = [
    "map",
    "P.5",
    "recip_rank",
    "ndcg_cut.10",
    "bpref",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core",
        description="Evaluate retrieval runs against relevance judgments.",
        epilog="Measures: "
        + ", ".join(FAMILIES)
        + "; trec_eval names too (map, P.5, ndcg_cut.10, map_cut.5, infAP, recall.5, Rprec, "
        "recip_rank, ...); Judged@k (ir_measures). "
        "Options in parentheses: nDCG(gain=exp)@10, RBP(p=0.8)@5, AP(form=user,rel=40)@5.",
    )
    parser.add_argument("qrels", help="judgments: TREC qrels or MIREX 'query doc fine [broad]'")
    parser.add_argument("runs", nargs="+", help="runs: TREC runs or MIREX 'system query doc'")
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        dest="measures",
        metavar="MEASURE",
        help="measure to compute (repeatable; default: trec_eval's usual set)",
    )
    parser.add_argument(
        "-q",
        action="store_true",
        dest="per_query",
        help="print per-query scores as well as the aggregate",
    )
    parser.add_argument(
        "-c",
        action="store_true",
        dest="complete",
        help="score judged queries missing from a run as 0 (trec_eval -c)",
    )
    parser.add_argument(
        "-J",
        action="store_true",
        dest="judged_only",
        help="drop ranked documents without a judgment before scoring (trec_eval -J)",
    )
    parser.add_argument(
        "--format",
        choices=("trec", "csv", "json"),
        default="trec",
        help="output format (default: trec_eval's)",
    )
    parser.add_argument(
        "--digits",
        type=int,
        default=None,
        help="round values to N decimals (default: full precision)",
    )
    parser.add_argument(
        "--qrels-format",
        choices=("auto", "trec", "mirex", "groups"),
        default="auto",
        help="groups: a partially ordered ground truth 'NAME QUERY DOC GROUP' (group 1 the "
        "most similar), scored as levels G-g+1, e.g. -m ADR (Typke et al. 2006)",
    )
    parser.add_argument("--run-format", choices=("auto", "trec", "mirex"), default="auto")
    parser.add_argument(
        "--scale",
        choices=("fine", "broad"),
        default="fine",
        help="MIREX judgments: the column measures read by default",
    )
    parser.add_argument(
        "--keep-order", action="store_true", help="rank TREC runs in file order instead of by score"
    )
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)
    try:
        measures = [
            m for text in options.measures or DEFAULT_MEASURES for m in parse_measures(text)
        ]
        results = evaluate_inputs(
            options.qrels,
            options.runs,
            measures,
            complete=options.complete,
            qrels_format=options.qrels_format,
            run_format=options.run_format,
            scale=options.scale,
            keep_order=options.keep_order or None,
            judged_only=options.judged_only,
        )
    except (InputError, ValueError) as error:  # bad files, or a bad measure name
        print(f"error: {error}", file=sys.stderr)
        return 2
    hint = groups_hint(options.qrels) if options.qrels_format == "auto" else None
    if hint:
        print(hint, file=sys.stderr)
    if options.format == "csv":
        text = results.to_csv(per_query=options.per_query, digits=options.digits)
    elif options.format == "json":
        text = results.to_json(per_query=options.per_query, digits=options.digits) + "\n"
    else:
        text = results.to_trec(per_query=options.per_query, digits=options.digits)
    sys.stdout.write(text)
    return 0
