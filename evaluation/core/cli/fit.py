"""``python -m evaluation.core fit QRELS RUN ... --metadata META``

Fit M_out and M_jud (thesis §7.3, eqs. 7.3–7.4) on a complete collection and print
them as JSON with the statistics of Table 7.1 (likelihood-ratio χ² of each term, R²,
RMSE and average variance on scores normalised to [0, 1]). The file can be given to
``estimate``, ``next``, ``evaluate`` and ``simulate`` with ``--model``. Judgment-based
features leave each pair's own judgment out unless ``--include-own`` (the thesis').
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from evaluation.core.cli._lowcost import add_depth, add_inputs, load_inputs, run_safely
from evaluation.core.lowcost import all_features, fit_model
from evaluation.core.lowcost.models import M_JUD_TERMS, M_OUT_TERMS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.core fit",
        description="Fit relevance models on a complete collection (thesis §7.3).",
    )
    add_inputs(parser, metadata_required=True)
    add_depth(parser)
    parser.add_argument(
        "--out-terms", default=",".join(M_OUT_TERMS), help="M_out terms (Table A.1's)"
    )
    parser.add_argument(
        "--jud-terms", default=",".join(M_JUD_TERMS), help="M_jud terms (Table A.1's)"
    )
    parser.add_argument("--include-own", action="store_true", help="count a pair's own judgment")
    return parser


def main(args: list[str]) -> int:
    options = build_parser().parse_args(args)

    def body() -> int:
        inputs = load_inputs(options, depth=options.depth)
        features = all_features(
            inputs.pool, inputs.judged, inputs.metadata, teams=inputs.teams, own=options.include_own
        )
        models = []
        for name, terms in (("M_out", options.out_terms), ("M_jud", options.jud_terms)):
            terms = [t.strip() for t in terms.split(",") if t.strip()]
            fitted = fit_model(features, inputs.judged, terms=terms, scale=options.scale, name=name)
            models.append(
                {"model": fitted.model.to_dict(), "statistics": asdict(fitted.statistics)}
            )
        sys.stdout.write(json.dumps({"models": models}, indent=2) + "\n")
        return 0

    return run_safely(body)
