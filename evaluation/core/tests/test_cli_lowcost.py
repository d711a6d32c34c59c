"""The low-cost command line: estimate, evaluate --estimates, next, features, simulate, fit."""

import json

import pytest

from evaluation.core.cli import main
from tests.helpers.shared_data import MIREX2011, require


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    require(MIREX2011)
    tmp = tmp_path_factory.mktemp("lowcost")
    lines = (MIREX2011 / "judgments.tsv").read_text().splitlines()
    partial = tmp / "partial.tsv"
    partial.write_text("\n".join(lines[:400]) + "\n")
    return {
        "qrels": str(MIREX2011 / "judgments.tsv"),
        "partial": str(partial),
        "runs": str(MIREX2011 / "runs.tsv"),
        "meta": str(MIREX2011 / "metadata.tsv"),
        "tmp": tmp,
    }


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_estimate_then_evaluate_and_next_read_the_estimates(files, capsys):
    code, out, err = run(
        capsys, "estimate", files["partial"], files["runs"], "--metadata", files["meta"]
    )
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    assert len(rows) == 6322 - 400 and all(len(r) == 4 for r in rows)
    estimates = files["tmp"] / "estimates.tsv"
    estimates.write_text(out)
    code, out, err = run(
        capsys,
        "evaluate",
        files["partial"],
        files["runs"],
        "--estimates",
        estimates,
        "-m",
        "CG@5",
        "--format",
        "json",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["judged"] == 400 and len(result["systems"]) == 18
    assert len(result["differences"]) == 153
    assert all(d["expectation"] >= 0 and 0.5 <= d["confidence"] <= 1 for d in result["differences"])
    assert 0.5 < result["ranking_confidence"] < 1
    code, out, err = run(
        capsys,
        "next",
        files["partial"],
        files["runs"],
        "--estimates",
        estimates,
        "-m",
        "CG@5",
        "-n",
        3,
    )
    assert code == 0, err
    picked = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert len(picked) == 3 and all(len(p) == 5 for p in picked)


def test_evaluate_without_estimates_is_still_the_ordinary_one(files, capsys):
    code, out, _ = run(capsys, "evaluate", files["qrels"], files["runs"], "-m", "CG@5")
    assert code == 0 and "CG@5" in out and "confidence" not in out


def test_evaluate_with_metadata_and_every_judgment_is_certain(files, capsys):
    code, out, err = run(
        capsys,
        "evaluate",
        files["qrels"],
        files["runs"],
        "--metadata",
        files["meta"],
        "-m",
        "nDCG@5",
    )
    assert code == 0, err
    assert "confidence in the ranking: 1.0000" in out


def test_simulate_json_has_total_judgments_and_steps(files, capsys):
    code, out, err = run(
        capsys,
        "simulate",
        files["qrels"],
        files["runs"],
        "--metadata",
        files["meta"],
        "-m",
        "CG@5",
        "--format",
        "json",
        "--max-judgments",
        40,
        "--every",
        20,
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["total_judgments"] == 6322
    assert [s["judgments"] for s in result["steps"]] == [0, 20, 40]
    keys = {"judgments", "confidence", "accuracy", "tau", "rmse_delta", "rho", "rmse"}
    assert all(keys <= set(step) for step in result["steps"])


@pytest.mark.parametrize("measure", ["CG@5", "CG(scale=fine)@5"])
def test_simulate_text_puts_the_thesis_figures_beside_ours(files, capsys, measure):
    code, out, _ = run(
        capsys,
        "simulate",
        files["qrels"],
        files["runs"],
        "--metadata",
        files["meta"],
        "-m",
        measure,
        "--max-judgments",
        0,
        "--published",
    )
    assert code == 0
    assert "Table 8.1 (none judged)\t0 (0.0%)" in out
    # thesis Table 8.1, 2011, Fine, CG@5
    assert "thesis 2011 Fine\t-\t0.934\t0.935\t0.869\t0.041\t0.967\t0.030" in out


def test_simulate_published_accepts_the_spelling_help_suggests_and_no_other_measure(files, capsys):
    # `--help` suggests RBP(p=0.8)@5: Table 8.1's RBP@5 row (p = 0.8 is RBP's default)
    args = (files["qrels"], files["runs"], "--metadata", files["meta"], "--max-judgments", 0)
    code, out, _ = run(capsys, "simulate", *args, "-m", "RBP(p=0.8)@5", "--published")
    assert code == 0 and out.count("thesis 2011 Fine") == 4
    code, out, _ = run(capsys, "simulate", *args, "-m", "RBP(p=0.5)@5", "--published")
    assert code == 0 and "thesis 2011 Fine" not in out  # the tables measured p = 0.8 only


def test_features_and_fit(files, capsys):
    code, out, err = run(
        capsys, "features", files["partial"], files["runs"], "--metadata", files["meta"]
    )
    assert code == 0, err
    header, *rows = out.splitlines()
    assert header.split("\t")[:4] == ["query", "doc", "relevance", "fSYS"]
    assert len(rows) == 6322
    code, out, err = run(capsys, "fit", files["qrels"], files["runs"], "--metadata", files["meta"])
    assert code == 0, err
    fitted = json.loads(out)["models"]
    assert [m["model"]["name"] for m in fitted] == ["M_out", "M_jud"]
    assert set(fitted[0]["statistics"]["lr_chi2"]) == {
        "fSYS",
        "OV",
        "fSYS:OV",
        "fART",
        "sGEN",
        "fGEN",
        "sGEN:fGEN",
    }
    model_file = files["tmp"] / "models.json"
    model_file.write_text(out)
    code, out, err = run(
        capsys,
        "estimate",
        files["partial"],
        files["runs"],
        "--metadata",
        files["meta"],
        "--model",
        model_file,
        "--source",
    )
    assert code == 0, err


@pytest.mark.parametrize(
    "content, expected",
    [
        ("d1\tartist\n", "metadata.tsv:1: expected 3 tab-separated fields"),
        ("d1\ta\tg\nd1\tb\tg\n", "metadata.tsv:2: document 'd1' already described on line 1"),
    ],
)
def test_a_broken_metadata_file_is_named_with_its_line(files, capsys, content, expected):
    bad = files["tmp"] / "metadata.tsv"
    bad.write_text(content)
    code, _, err = run(capsys, "estimate", files["partial"], files["runs"], "--metadata", bad)
    assert code == 2 and expected in err and "Traceback" not in err


def test_bad_estimates_files_are_named_with_their_line(files, capsys):
    bad = files["tmp"] / "bad-estimates.tsv"
    bad.write_text("001a6a\t0a6d04\t50\t100\n001a6a\t0ecc10\tfifty\t100\n")
    code, _, err = run(
        capsys, "evaluate", files["partial"], files["runs"], "--estimates", bad, "-m", "CG@5"
    )
    assert code == 2 and "bad-estimates.tsv:2" in err
    bad.write_text("001a6a\t0a6d04\t500\t100\n")
    code, _, err = run(
        capsys, "evaluate", files["partial"], files["runs"], "--estimates", bad, "-m", "CG@5"
    )
    assert code == 2 and "bad-estimates.tsv:1: expectation 500 is outside [0, 100]" in err
    bad.write_text("")
    code, _, err = run(
        capsys, "next", files["partial"], files["runs"], "--estimates", bad, "-m", "CG@5"
    )
    assert code == 2 and "no estimate for query" in err


def test_user_errors_are_one_line_without_a_traceback(files, capsys):
    trec = files["tmp"] / "trec-qrels.txt"
    trec.write_text("001a6a 0 0a6d04 5\n")  # level 5 on a 0-2 scale
    for args, expected in [
        (
            [
                "simulate",
                files["partial"],
                files["runs"],
                "--metadata",
                files["meta"],
                "-m",
                "CG@5",
            ],
            "simulate needs every ranked document judged",
        ),
        (["next", files["partial"], files["runs"], "-m", "AP@5"], "defines CG, DCG, nDCG, RBP"),
        (["next", files["partial"], files["runs"], "-m", "nDCG@x"], "unknown measure"),
        (
            ["estimate", files["partial"], files["runs"], "--scale", "broad"],
            "has no 'broad' column",
        ),
        (["estimate", trec, files["runs"], "--scale", "broad"], "above the broad scale"),
        (
            ["estimate", files["partial"], files["runs"], "--metadata", "/no/such/file"],
            "No such file",
        ),
    ]:
        code, _, err = run(capsys, *args)
        assert code == 2 and expected in err and "Traceback" not in err, (args, err)
