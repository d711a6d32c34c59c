"""Bad input to the command line: one line naming file, line and problem, never a traceback.

The cases of issue 11, each of which ended in a traceback or an error naming no file.
``evaluate`` exits with 2 on bad input (its status for every error); ``compare`` and
``reliability`` with 1 (their usage errors exit with 2).
"""

import contextlib
import io
import warnings

import pytest

from evaluation.core.cli import main

QRELS = b"1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n2 0 d3 2\n"
RUN_A = b"1 Q0 d1 1 2.0 A\n1 Q0 d2 2 1.0 A\n2 Q0 d1 1 1.0 A\n"
RUN_B = b"1 Q0 d2 1 2.0 B\n1 Q0 d1 2 1.0 B\n2 Q0 d3 1 1.0 B\n"
STATUS = {"evaluate": 2, "compare": 1, "reliability": 1}


def run(*args) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, err.getvalue()


@pytest.fixture
def files(tmp_path):
    def write(**contents: bytes):
        paths = []
        for name, data in contents.items():
            path = tmp_path / f"{name}.txt"
            path.write_bytes(data)
            paths.append(path)
        return paths

    return write


@pytest.mark.parametrize("command", ["evaluate", "compare", "reliability"])
def test_an_empty_run_file_is_named(files, command):
    qrels, run_a, empty = files(qrels=QRELS, a=RUN_A, empty=b"")
    code, err = run(command, qrels, run_a, empty, "-m", "P@2")
    assert (code, err) == (STATUS[command], f"error: {empty}: no rankings found\n")


@pytest.mark.parametrize("command", ["evaluate", "compare", "reliability"])
def test_an_empty_judgments_file_is_named(files, command):
    qrels, run_a, run_b = files(qrels=b"\n\n", a=RUN_A, b=RUN_B)
    code, err = run(command, qrels, run_a, run_b, "-m", "P@2")
    assert (code, err) == (STATUS[command], f"error: {qrels}: no judgments found\n")


@pytest.mark.parametrize("command", ["evaluate", "compare", "reliability"])
@pytest.mark.parametrize(
    ("where", "line", "what"),
    [
        ("query", 2, "query id '1\\\\xff' is not UTF-8 text"),
        ("tag", 1, "run name (tag) 'B\\\\xff' is not UTF-8 text"),
    ],
)
def test_an_id_that_is_not_utf8_names_file_and_line(files, command, where, line, what):
    bad = RUN_B.replace(b"1 Q0 d1", b"1\xff Q0 d1") if where == "query" else RUN_B
    bad = bad.replace(b" B\n", b" B\xff\n") if where == "tag" else bad
    qrels, run_a, run_b = files(qrels=QRELS, a=RUN_A, b=bad)
    code, err = run(command, qrels, run_a, run_b, "-m", "P@2")
    assert (code, err) == (STATUS[command], f"error: {run_b}:{line}: {what}\n")


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_judgments_with_an_id_that_is_not_utf8_name_the_line(files, command):
    qrels, run_a, run_b = files(qrels=QRELS + b"3\xe9 0 d1 1\n", a=RUN_A, b=RUN_B)
    code, err = run(command, qrels, run_a, run_b, "-m", "P@2")
    expected = f"error: {qrels}:5: query id '3\\\\xe9' is not UTF-8 text\n"
    assert (code, err) == (STATUS[command], expected)


@pytest.mark.parametrize("command", ["compare", "reliability"])
def test_a_score_table_that_is_not_utf8_names_the_line(files, command):
    (scores,) = files(scores=b"A q1 0.5\nB q1 0.7\nA q\xff2 0.1\nB q2 0.3\n")
    code, err = run(command, "--scores", scores)
    assert (code, err) == (1, f"error: {scores}:3: not UTF-8 text\n")


@pytest.mark.parametrize("command", ["evaluate", "compare", "reliability"])
def test_missing_files_and_directories_are_one_line_naming_them(files, tmp_path, command):
    qrels, run_a = files(qrels=QRELS, a=RUN_A)
    missing = tmp_path / "missing.txt"
    code, err = run(command, qrels, run_a, missing, "-m", "P@2")
    assert (code, err) == (STATUS[command], f"error: {missing}: No such file or directory\n")
    code, err = run(command, tmp_path, run_a, run_a, "-m", "P@2")
    assert (code, err) == (STATUS[command], f"error: {tmp_path}: Is a directory\n")


def test_compare_asks_for_one_measure(files):
    qrels, run_a, run_b = files(qrels=QRELS, a=RUN_A, b=RUN_B)
    code, err = run("compare", qrels, run_a, run_b, "-m", "P.1,2")
    assert (code, err) == (1, "error: -m 'P.1,2' names 2 measures (P_1, P_2); give one\n")


def test_a_measure_on_a_column_the_judgments_lack_names_the_judgments(files):
    qrels, run_a = files(qrels=b"1 d1 80\n1 d2 10\n", a=RUN_A)  # MIREX: Fine only
    code, err = run(qrels, run_a, "-m", "CG(scale=broad)@2")
    assert code == 2
    assert err == f"error: {qrels}: the judgments have no 'broad' values (they have: fine)\n"


@pytest.mark.parametrize("value", [b"inf", b"nan", b"-1e400"])
def test_a_relevance_that_is_not_finite_names_the_line(files, value):
    # Before: the scores of the query became NaN, with a numpy warning on stderr.
    qrels, run_a = files(qrels=QRELS.replace(b"d2 0", b"d2 " + value), a=RUN_A)
    code, err = run(qrels, run_a, "-m", "ndcg")
    shown = {b"inf": "inf", b"nan": "nan", b"-1e400": "-inf"}[value]
    assert (code, err) == (2, f"error: {qrels}:2: relevance {shown} is not finite\n")


def test_a_huge_relevance_gives_scores_without_numpy_warnings_on_stderr(files):
    # 2**1e300 overflows: the exponential-gain nDCG is NaN, printed as such, and nothing
    # but the results is printed (before: two RuntimeWarnings with numpy's source lines).
    qrels, run_a = files(qrels=QRELS.replace(b"d1 1\n1 0 d2", b"d1 1e300\n1 0 d2"), a=RUN_A)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would be printed on the terminal
        code, err = run(qrels, run_a, "-m", "nDCG(gain=exp)@2", "-m", "P@1")
    assert (code, err) == (0, "")


def test_an_error_of_a_measure_names_the_measure(files):
    # GAP needs one threshold per level: 10**300 levels cannot be (before: the bare numpy
    # message "Maximum allowed dimension exceeded").
    qrels, run_a = files(qrels=QRELS.replace(b"d1 1\n1 0 d2", b"d1 1e300\n1 0 d2"), a=RUN_A)
    code, err = run(qrels, run_a, "-m", "GAP@2")
    assert code == 2 and err.startswith("error: GAP@2: ")
