"""``compare`` and ``reliability`` sub-commands on score tables (and on QRELS + RUNs when the
measures of ``evaluation.core`` are present)."""

import json
import subprocess
import sys

import numpy as np
import pytest

from evaluation.core.cli import main
from evaluation.core.cli.scoretable import InputError, read_score_table
from evaluation.core.stats import all_pairs, friedman_test, g_study, paired_t_test, tukey_hsd
from tests.helpers.shared_data import ROOT


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.random((3, 12)) * 0.5 + np.array([[0.0], [0.1], [0.3]])
    path = tmp_path / "scores.tsv"
    lines = ["system\tquery\tscore"]
    lines += [f"s{i}\tq{j}\t{float(X[i, j])!r}" for i in range(3) for j in range(12)]
    path.write_text("\r\n".join(lines) + "\r\n")  # CRLF, as the MIREX files
    return path, X


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_compare_prints_every_pair_with_ci_and_p_values_as_json(table, capsys):
    path, X = table
    code, out, _ = run(
        capsys, "compare", "--scores", str(path), "-m", "AP@5", "--test", "all",
        "--resamples", "2000", "--seed", "3", "--format", "json", "--interval", "t",
    )  # fmt: skip
    assert code == 0
    r = json.loads(out)
    assert r["systems"] == ["s0", "s1", "s2"] and r["n_queries"] == 12
    assert len(r["pairs"]) == 3
    p01 = r["pairs"][0]
    ref = paired_t_test(X[0], X[1])
    assert p01["mean_difference"] == pytest.approx(ref.mean_difference)
    assert [p01["ci_low"], p01["ci_high"]] == pytest.approx([ref.ci_low, ref.ci_high])
    assert p01["tests"]["t"]["pvalue"] == pytest.approx(ref.pvalue)
    perm = all_pairs(X, test="permutation", resamples=2000, seed=3)
    assert p01["tests"]["permutation"]["pvalue"] == perm.pvalue[0, 1]
    holm = perm.adjusted_pvalues("holm")
    assert p01["tests"]["permutation"]["pvalue_adjusted"] == pytest.approx(holm[0, 1])
    assert r["friedman"]["pvalue"] == pytest.approx(friedman_test(X).pvalue)
    assert len(r["tukey_hsd"]) == 3


def test_compare_prints_thesis_style_text_and_csv(table, capsys):
    path, _ = table
    code, out, _ = run(capsys, "compare", "--scores", str(path), "-m", "AP@5", "--tukey")
    assert code == 0
    assert "ΔAP@5(s0 − s1) = " in out and "(p=" in out
    assert "Friedman: χ² = " in out and "Tukey HSD" in out
    code, out, _ = run(
        capsys, "compare", "--scores", str(path), "--test", "sign", "--format", "csv",
        "--adjust", "none", "--tukey",
    )  # fmt: skip
    rows = out.strip().splitlines()
    assert rows[0].startswith("section,a,b,test,mean_difference")
    assert sum(r.startswith("pair,") for r in rows) == 3
    assert sum(r.startswith("tukey_hsd,") for r in rows) == 3
    assert sum(r.startswith("letters,") for r in rows) == 3


def test_compare_runs_tukey_hsd_only_when_asked(table, capsys):
    # Tukey's HSD is a second family of p-values on another model (the two-way ANOVA);
    # a plain compare prints the chosen test and Friedman only.
    path, X = table
    code, out, _ = run(capsys, "compare", "--scores", str(path), "--format", "json")
    r = json.loads(out)
    assert code == 0 and r["tukey_hsd"] is None
    assert r["friedman"]["pvalue"] == pytest.approx(friedman_test(X).pvalue)
    code, out, _ = run(capsys, "compare", "--scores", str(path))
    assert "Friedman: χ² = " in out and "Tukey" not in out
    code, out, _ = run(capsys, "compare", "--scores", str(path), "--format", "csv")
    assert "tukey_hsd," not in out
    code, out, _ = run(capsys, "compare", "--scores", str(path), "--tukey", "--format", "json")
    h = tukey_hsd(X)
    assert [t["pvalue"] for t in json.loads(out)["tukey_hsd"]] == pytest.approx(
        [h.pvalue[0, 1], h.pvalue[0, 2], h.pvalue[1, 2]]
    )


def test_compare_prints_letters_and_bounded_intervals_by_default(table, capsys):
    # 12 queries < 30: the pairs' intervals are bootstrap percentile intervals of the
    # differences, inside [−1, 1] and [min Δ, max Δ]; the letters are those of the
    # Holm-adjusted t-test p-values, checked against their definition (Piepho 2004).
    path, X = table
    code, out, _ = run(capsys, "compare", "--scores", str(path), "--format", "json", "--seed", "1")
    r = json.loads(out)
    adjusted = all_pairs(X, test="t").adjusted_pvalues("holm")
    for n, (i, j) in enumerate([(0, 1), (0, 2), (1, 2)]):
        pair, d = r["pairs"][n], X[i] - X[j]
        assert pair["ci_method"] == "bootstrap-percentile"
        assert d.min() <= pair["ci_low"] <= pair["ci_high"] <= d.max()
        shared = set(r["letters"][f"s{i}"]) & set(r["letters"][f"s{j}"])
        assert bool(shared) == (adjusted[i, j] >= 0.05)
    assert r["letters"]["s2"] == "a"  # the best mean gets the first letter
    assert r["warnings"] == []
    code, text, _ = run(capsys, "compare", "--scores", str(path), "--seed", "1")
    assert code == 0
    assert f"s2  mean {X[2].mean():.4f}  a" in text and "share a letter" in text


def test_compare_with_too_few_queries_for_any_test_says_so_and_tells_no_run_apart(tmp_path, capsys):
    # 3 queries: below min_queries_for_tests(0.05) = 6, whatever the p-values say
    path = tmp_path / "few.tsv"
    lines = ["system\tquery\tscore"] + [
        f"{s}\tq{q}\t{v}"
        for s, vs in (("hi", (0.9, 0.95, 1.0)), ("lo", (0.0, 0.05, 0.1)))
        for q, v in enumerate(vs)
    ]
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "compare", "--scores", str(path), "--format", "json")
    assert code == 0
    r = json.loads(out)
    assert r["letters"] == {"hi": "a", "lo": "a"}
    assert [w["code"] for w in r["warnings"]] == ["too_few_queries"]


def test_reliability_reports_components_coefficients_and_queries_needed(table, capsys):
    path, X = table
    code, out, _ = run(
        capsys, "reliability", "--scores", str(path), "--target", "0.9",
        "--queries", "5,50", "--format", "json",
    )  # fmt: skip
    assert code == 0
    r = json.loads(out)
    g = g_study(X)
    components = {c["key"]: c for c in r["components"]}
    assert components["system"]["variance"] == pytest.approx(g.system)
    assert sum(c["proportion"] for c in r["components"]) == pytest.approx(1)
    assert r["curve"]["queries"] == [5, 12, 50]
    assert r["erho2"] == pytest.approx(g.system / (g.system + g.residual / 12))  # eq. 6.4
    assert isinstance(r["needed"]["erho2"], int)
    code, out, _ = run(capsys, "reliability", "--scores", str(path))
    assert "Eρ² = " in out and "queries needed for Φ ≥ 0.95" in out
    code, out, _ = run(capsys, "reliability", "--scores", str(path), "--format", "csv")
    assert out.startswith("quantity,n_queries,value\nvariance_system,12,")


def test_the_mirex_2011_reliability_is_the_thesis_one(mirex2011_cg_l5_fine, tmp_path, capsys):
    systems, queries, X = mirex2011_cg_l5_fine
    path = tmp_path / "cg.tsv"
    path.write_text(
        "".join(
            f"{s} {q} {float(X[i, j])!r}\n"
            for i, s in enumerate(systems)
            for j, q in enumerate(queries)
        )
    )
    code, out, _ = run(capsys, "reliability", "--scores", str(path), "--format", "json")
    assert code == 0
    r = json.loads(out)
    # thesis Table 6.1 (2011 column)
    assert [round(c["proportion"], 3) for c in r["components"]] == [0.184, 0.511, 0.304]
    assert round(r["erho2"], 4) == 0.9838 and r["needed"]["erho2"] == 32  # Table 6.2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("s1 q1 0.5\ns1 q2\n", r"scores\.tsv:2: expected 3 columns"),
        ("s1 q1 0.5\ns1 q2 high\n", r"scores\.tsv:2: score 'high' is not a number"),
        ("s1 q1 0.5\ns1 q1 0.7\n", r"scores\.tsv:2: second score for system 's1'"),
        ("s1 q1 nan\n", r"scores\.tsv:1: score 'nan' is not finite"),
        ("s1 q1 0.5\ns2 q2 0.5\n", r"system 's1' has no score for query 'q2'"),
        ("# nothing\n\n", r"scores\.tsv: no scores found"),
    ],
)
def test_bad_score_tables_are_reported_with_file_and_line(tmp_path, content, message):
    path = tmp_path / "scores.tsv"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_score_table(path)


def test_input_errors_exit_with_1_and_usage_errors_with_2(tmp_path, capsys):
    path = tmp_path / "scores.tsv"
    path.write_text("a q1 0.1\na q2 0.2\n")
    code, _, err = run(capsys, "compare", "--scores", str(path))
    assert code == 1 and "at least 2 systems" in err
    code, _, err = run(capsys, "compare", "--scores", str(tmp_path / "missing.tsv"))
    assert code == 1 and "missing.tsv: cannot read" in err
    with pytest.raises(SystemExit) as e:
        main(["compare", "qrels.txt", "-m", "P@5"])
    assert e.value.code == 2


def test_qrels_and_runs_are_evaluated_by_the_measures_of_evaluation_core(tmp_path, capsys):
    # TREC formats: qrels "query 0 doc rel", runs "query Q0 doc rank score tag".
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {int(d < 3)}\n" for q in range(4) for d in range(8)))
    runs = []
    for name, docs in [("A", [0, 1, 2, 3, 4]), ("B", [3, 4, 5, 6, 0])]:
        path = tmp_path / f"{name}.run"
        path.write_text(
            "".join(
                f"q{q} Q0 d{d} {r + 1} {10 - r} {name}\n"
                for q in range(4)
                for r, d in enumerate(docs)
            )
        )
        runs.append(str(path))
    code, out, err = run(capsys, "compare", str(qrels), *runs, "-m", "P@5", "--format", "json")
    assert code == 0, err
    r = json.loads(out)
    assert len(r["systems"]) == 2 and r["n_queries"] == 4
    assert r["pairs"][0]["mean_difference"] == pytest.approx(0.6 - 0.2) or r["pairs"][0][
        "mean_difference"
    ] == pytest.approx(0.2 - 0.6)


def test_leaderboard_with_minus_j_leaves_unjudged_documents_out_of_each_list(tmp_path, capsys):
    # Two queries, qrels judge d0-d2 relevant and d3-d5 not; d6-d9 are unjudged.
    # A ranks d6 d0 d7 d1 d2 d3: P@5 = 3/5 as ranked; with -J the list is d0 d1 d2 d3,
    # P@5 = 3/5 still (P divides by 5), but P@2 goes from 1/2 to 2/2.
    # B ranks d0 d3 d4 d5 d1: no unjudged document, P@2 = 1/2 either way.
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {int(d < 3)}\n" for q in range(2) for d in range(6)))
    runs = []
    for name, docs in [("A", [6, 0, 7, 1, 2, 3]), ("B", [0, 3, 4, 5, 1])]:
        path = tmp_path / f"{name}.run"
        path.write_text(
            "".join(
                f"q{q} Q0 d{d} {r + 1} {10 - r} {name}\n"
                for q in range(2)
                for r, d in enumerate(docs)
            )
        )
        runs.append(str(path))
    means = {}
    for flags in ([], ["-J"]):
        code, out, err = run(
            capsys, "leaderboard", str(qrels), *runs, "-m", "P@2", "--format", "json", *flags
        )
        assert code == 0, err
        board = json.loads(out)
        assert board["judged_only"] is bool(flags)
        means[bool(flags)] = {row["system"]: row["mean"] for row in board["rows"]}
    assert means == {False: {"A": 0.5, "B": 0.5}, True: {"A": 1.0, "B": 0.5}}
    with pytest.raises(SystemExit) as e:  # a score table is already scored
        main(["leaderboard", "--scores", str(qrels), "-J"])
    assert e.value.code == 2


def test_the_commands_run_as_a_module_without_django(table):
    path, _ = table
    done = subprocess.run(
        [sys.executable, "-m", "evaluation.core", "reliability", "--scores", str(path)],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "G-study of 3 systems × 12 queries" in done.stdout
