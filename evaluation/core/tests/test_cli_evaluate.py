"""The command line on the MIREX 2011 collection, checked against plain-Python arithmetic."""

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from evaluation.core.cli import main
from tests.helpers.shared_data import MIREX2011

ROOT = Path(__file__).resolve().parents[3]
DATA = MIREX2011


def mirex_cg5_by_hand():
    """MIREX's CG@5 with Fine judgments, eq. (3.3): mean Fine score of the top 5 / 100."""
    fine = {}
    for line in Path(f"{DATA}/judgments.tsv").read_text().splitlines():
        q, d, r = line.split()
        fine[q, d] = float(r)
    totals = defaultdict(lambda: defaultdict(float))
    for line in Path(f"{DATA}/runs.tsv").read_text().splitlines():
        s, q, d = line.split()
        totals[s][q] += fine.get((q, d), 0.0)
    return {s: sum(t / (5 * 100) for t in qs.values()) / len(qs) for s, qs in totals.items()}


def test_it_evaluates_the_mirex_2011_runs(capsys):
    code = main([f"{DATA}/judgments.tsv", f"{DATA}/runs.tsv", "-m", "CG@5", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    expected = mirex_cg5_by_hand()
    assert len(data["runs"]) == 18
    for system, value in expected.items():
        assert data["runs"][system]["all"]["CG@5"] == pytest.approx(value, abs=1e-12)


def test_trec_layout_with_per_query_lines(capsys):
    main([f"{DATA}/judgments.tsv", f"{DATA}/runs.tsv", "-m", "P(rel=40)@5", "-q", "--digits", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == ["runid".ljust(22), "all", "0fd93c"]
    measure, query, value = lines[1].split("\t")
    assert (measure.strip(), query, len(value.split(".")[1])) == ("P(rel=40)@5", "001a6a", 3)
    assert sum(line.split("\t")[1] == "all" for line in lines) == 18 * 2


def test_errors_exit_with_status_2_and_a_message(capsys):
    assert main([f"{DATA}/judgments.tsv", f"{DATA}/runs.tsv", "-m", "nDGC@5"]) == 2
    assert "unknown measure 'nDGC@5'" in capsys.readouterr().err


def test_it_runs_as_a_module_without_django():
    done = subprocess.run(
        [sys.executable, "-m", "evaluation.core", f"{DATA}/judgments.tsv", f"{DATA}/runs.tsv",
         "-m", "nDCG@5", "--format", "csv"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.startswith("run,measure,query,value\n")


def test_the_plain_evaluate_command_loads_neither_scipy_nor_the_low_cost_modules(tmp_path):
    # Importing them costs the measures command line more than its own work on a small
    # collection (half a second and more): only `evaluate --estimates` needs them.
    code = (
        "import sys\n"
        "from evaluation.core.cli import main\n"
        f"main([{str(DATA) + '/judgments.tsv'!r}, {str(DATA) + '/runs.tsv'!r}, '-m', 'P@5'])\n"
        "heavy = sorted(n for n in sys.modules if n.split('.')[0] == 'scipy'\n"
        "               or n.startswith('evaluation.core.lowcost'))\n"
        "print(heavy, file=sys.stderr)\n"
        "sys.exit(1 if heavy else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_minus_j_scores_only_the_judged_documents(tmp_path, capsys):
    # Ranking x (not judged), a (1), b (-1: in the pool, unjudged), c (0). By hand:
    # map_cut.2 is (1/2)/1 = 0.5 with x first; with -J the ranking is a, c: 1/1 = 1.
    qrels, run = tmp_path / "q.txt", tmp_path / "r.run"
    qrels.write_text("q 0 a 1\nq 0 b -1\nq 0 c 0\n")
    run.write_text("q Q0 x 1 3 r\nq Q0 a 2 2 r\nq Q0 b 3 1.5 r\nq Q0 c 4 1 r\n")
    for flags, expected in (([], 0.5), (["-J"], 1.0)):
        assert main([str(qrels), str(run), "-m", "map_cut.2", "--format", "json", *flags]) == 0
        assert json.loads(capsys.readouterr().out)["runs"]["r"]["all"]["map_cut_2"] == expected
