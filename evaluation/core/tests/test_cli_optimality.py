"""``optimality``, ``distributions`` and ``reliability --nested`` on the command line:
the same documents as the core (and the results pages) under the same keys."""

from __future__ import annotations

import json

import numpy as np
import pytest

from evaluation.core.assessor_judgments import (
    assessor_slots,
    nested_scores,
    read_assessor_judgments,
)
from evaluation.core.cli import main
from evaluation.core.cli.inputs import evaluate_inputs
from evaluation.core.goodness_of_fit import fit_study
from evaluation.core.names import parse_measure, parse_measures
from evaluation.core.optimality import split_half_optimality
from evaluation.core.reliability import reliability_nested
from evaluation.core.trec.readers import read_run_files
from tests.helpers.shared_data import MIREX2011 as MIREX

JUDGMENTS, RUNS = str(MIREX / "judgments.tsv"), str(MIREX / "runs.tsv")
needs_mirex = pytest.mark.skipif(not MIREX.exists(), reason="needs ../shared/data/mirex2011-ams")


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _matrices(*names):
    parsed = [parse_measures(n)[0] for n in names]
    results = evaluate_inputs(JUDGMENTS, [RUNS], parsed)
    return [results.matrix(m) for m in parsed]


@needs_mirex
def test_optimality_prints_the_cores_document(capsys):
    code, out, err = run(
        capsys, "optimality", JUDGMENTS, RUNS, "-m", "CG(scale=fine)@5", "-m", "P(rel=40)@5",
        "--tests", "t,sign,permutation", "--trials", "3", "--resamples", "50", "--seed", "9",
        "--alpha", "0.01", "--baseline", "t", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    assert err.startswith("cost: 3 splits × 2 halves of 50 queries × 153 pairs × 2 measures")
    want = split_half_optimality(
        _matrices("CG(scale=fine)@5", "P(rel=40)@5"), tests=["t", "sign", "permutation"],
        trials=3, resamples=50, seed=9,
    ).to_dict(alpha=0.01, baseline="t")  # fmt: skip
    assert json.loads(out) == json.loads(json.dumps(want))
    code, text, _ = run(
        capsys, "optimality", JUDGMENTS, RUNS, "-m", "CG(scale=fine)@5", "--tests", "t,sign",
        "--trials", "3", "--seed", "9",
    )  # fmt: skip
    assert code == 0 and "most significant pairs" in text and "non-sig." in text


@needs_mirex
def test_optimality_without_measures_takes_table_5_2_less_broad(capsys):
    code, out, err = run(
        capsys, "optimality", JUDGMENTS, RUNS, "--tests", "t", "--trials", "2", "--format", "json"
    )
    assert code == 0, err
    measures = json.loads(out)["measures"]
    assert len(measures) == 8 and not any("broad" in m for m in measures)


@needs_mirex
def test_optimality_over_its_limit_is_refused_naming_the_cost(capsys):
    code, out, err = run(
        capsys, "optimality", JUDGMENTS, RUNS, "-m", "CG(scale=fine)@5", "--trials", "300",
        "--max-resampled", "1000000",
    )  # fmt: skip
    assert code == 1 and out == ""
    # 300 splits × 2 halves × 153 pairs × 1 measure × 50 queries × 1,000 resamples × 2 tests
    assert "error: the study would draw 9,180,000,000 resampled differences" in err
    assert "the limit is 1,000,000" in err


@needs_mirex
def test_distributions_prints_the_cores_document(capsys):
    code, out, err = run(
        capsys, "distributions", JUDGMENTS, RUNS, "-m", "CG(scale=fine)@5", "--sizes", "30",
        "--trials", "5", "--seed", "2", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    want = fit_study(_matrices("CG(scale=fine)@5")[0], sizes=[30], trials=5, seed=2).to_dict()
    assert json.loads(out) == json.loads(json.dumps(want))


NESTED = "q1 ann d1 80\nq1 bob d1 20\nq1 ann d2 40\nq1 bob d2 60\nq2 ann d3 50\nq2 cy d3 70\n"
NESTED_RUNS = "A q1 d1\nA q1 d2\nA q2 d3\nB q1 d2\nB q2 x\nC q1 d1\nC q2 d3\n"


def test_reliability_nested_prints_the_cores_document(tmp_path, capsys):
    judgments, runs = tmp_path / "assessors.tsv", tmp_path / "runs.tsv"
    judgments.write_text(NESTED + "q3 ann d1 10\n")
    runs.write_text(NESTED_RUNS)
    code, out, err = run(
        capsys, "reliability", "--nested", str(judgments), str(runs), "-m", "CG(scale=fine)@2",
        "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    measure = parse_measure("CG(scale=fine)@2")
    slots = assessor_slots(read_assessor_judgments(judgments))
    systems, queries, X = nested_scores(slots, read_run_files([str(runs)]), measure)
    # A: CG@2 on q1 (80+40)/200 = .6 by ann, (20+60)/200 = .4 by bob; q2 .25 and .35
    np.testing.assert_allclose(X[0], [[0.6, 0.4], [0.25, 0.35]])
    want = reliability_nested(
        X, measure=measure.label, systems=systems, queries=queries, sizes={2}, left_out={"q3": 1}
    ).to_dict()
    assert json.loads(out) == json.loads(json.dumps(want))
    code, text, _ = run(
        capsys, "reliability", "--nested", str(judgments), str(runs), "-m", "CG(scale=fine)@2"
    )
    assert "assessors within queries (σ²_h:q)" in text and "left out" in text


def test_reliability_nested_names_the_bad_line(tmp_path, capsys):
    judgments, runs = tmp_path / "assessors.tsv", tmp_path / "runs.tsv"
    judgments.write_text(NESTED + "q2 cy d3 seventy\n")
    runs.write_text(NESTED_RUNS)
    code, out, err = run(
        capsys, "reliability", "--nested", str(judgments), str(runs), "-m", "CG(scale=fine)@2"
    )
    assert code == 1 and out == ""
    assert err.strip().endswith("assessors.tsv:7: fine 'seventy' is not a number")


def test_one_assessor_per_query_is_not_a_nested_design(tmp_path, capsys):
    judgments, runs = tmp_path / "assessors.tsv", tmp_path / "runs.tsv"
    judgments.write_text("q1 ann d1 80\nq2 bob d3 50\n")
    runs.write_text(NESTED_RUNS)
    code, _, err = run(
        capsys, "reliability", "--nested", str(judgments), str(runs), "-m", "CG(scale=fine)@2"
    )
    assert code == 1 and "at least 2 queries judged by 2 or more assessors" in err


def test_a_constant_matrix_has_no_fit_to_speak_of():
    rows = np.zeros((2, 10))
    from evaluation.core.scores import ScoreMatrix

    doc = fit_study(ScoreMatrix("m", ("a", "b"), tuple("abcdefghij"), rows), sizes=[5], trials=2)
    assert doc.to_dict()["sizes"][0]["best"] is None
