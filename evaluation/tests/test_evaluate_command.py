"""``manage.py evaluate`` is the core's command line inside the project."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "evaluate", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_it_prints_trec_eval_style_lines_for_a_run(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    (tmp_path / "run").write_text("q1 Q0 d2 1 2.0 sys\nq1 Q0 d1 2 1.0 sys\n")
    done = manage(str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "P@2", "-m", "map")
    assert done.returncode == 0, done.stderr
    rows = [[part.strip() for part in line.split("\t")] for line in done.stdout.splitlines()]
    lines = {(measure, qid): value for measure, qid, value in rows}
    assert lines[("runid", "all")] == "sys"
    # P@2: one relevant document (d1) in the top 2 → 1/2; AP: d1 at rank 2 of 1 relevant → 1/2.
    assert float(lines[("P@2", "all")]) == 0.5
    assert float(lines[("map", "all")]) == 0.5


def test_its_errors_name_the_file_and_line(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2\n")
    (tmp_path / "run").write_text("q1 Q0 d2 1 2.0 sys\n")
    done = manage(str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "P@2")
    assert done.returncode == 2
    assert "qrels" in done.stderr and ":2" in done.stderr
