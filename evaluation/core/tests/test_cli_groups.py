"""The command line on ordered groups: ``groups rankings|votes`` prints a groups file,
``evaluate --qrels-format groups -m ADR`` scores runs against one (Typke et al. 2006's
worked example), and bad files get one line naming file and line."""

import contextlib
import io
import json

import pytest

from evaluation.core.cli import main
from evaluation.core.tests import pairwise_study as study
from evaluation.core.tests.pairwise_study import mturk_csv


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def test_typkes_adr_example_from_a_groups_file(tmp_path):
    # Typke et al. 2006, §3: ground truth ⟨(1, 2), (3, 4, 5)⟩; the list ⟨2,3,1,5,7,8,9,4⟩
    # scores (1 + 0.5 + 1 + 1 + 0.8) / 5 = 0.86, and with a false positive at rank 2,
    # ⟨2,10,3,1,5,7,8,9,4⟩, (1 + 1/2 + 2/3 + 3/4 + 4/5) / 5 = 0.74333 (printed 0.7433)
    groups = tmp_path / "groups.txt"
    groups.write_text("typke q 1 1\ntypke q 2 1\ntypke q 3 2\ntypke q 4 2\ntypke q 5 2\n")
    runs = tmp_path / "runs.tsv"
    lists = {"first": "2 3 1 5 7 8 9 4", "second": "2 10 3 1 5 7 8 9 4"}
    runs.write_text("".join(f"{s} q {d}\n" for s, docs in lists.items() for d in docs.split()))
    code, out, err = run(
        groups, runs, "--qrels-format", "groups", "-m", "ADR", "-m", "ADR@5", "--format", "json"
    )
    assert (code, err) == (0, "")
    means = {run: scores["all"] for run, scores in json.loads(out)["runs"].items()}
    assert means["first"]["ADR"] == pytest.approx(0.86)
    assert means["first"]["ADR@5"] == pytest.approx(0.86)
    assert means["second"]["ADR"] == pytest.approx((1 + 1 / 2 + 2 / 3 + 3 / 4 + 4 / 5) / 5)
    # forgetting --qrels-format groups is noticed; TREC qrels of one query get no note
    code, out, err = run(groups, runs, "-m", "ADR")
    assert code == 0 and "add --qrels-format groups" in err
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 1 2\nq 0 2 1\n")
    assert run(qrels, runs, "-m", "ADR")[2] == ""


def test_rankings_become_a_groups_file_that_evaluate_reads(tmp_path):
    # Typke's Domus Israel speravit as in test_groups_from_rankings: 31 experts
    rankings = tmp_path / "rankings.txt"
    lines = []
    for expert in range(31):
        second, third = (
            ("600.055.822", "450.040.980") if expert < 16 else ("450.040.980", "600.055.822")
        )
        for rank, doc in enumerate(["600.054.278", second, third], start=1):
            lines.append(f"e{expert} 600.054.278 {doc} {rank}\n")
    rankings.write_text("".join(lines))
    code, out, err = run("groups", "rankings", rankings, "--name", "winter")
    assert (code, err) == (0, "")
    assert out == (
        "winter 600.054.278 600.054.278 1\n"
        "winter 600.054.278 450.040.980 2\n"
        "winter 600.054.278 600.055.822 2\n"
    )
    # α = 0.9: 0.807 < 0.9, so the two differ
    code, out, _ = run("groups", "rankings", rankings, "--alpha", "0.9")
    assert out.splitlines()[-1] == "experts 600.054.278 450.040.980 3"


def test_a_past_study_becomes_the_groups_worked_out_by_hand(tmp_path):
    answers = tmp_path / "batch_results.csv"
    answers.write_text(mturk_csv(rejected=3))
    code, out, err = run("groups", "votes", answers)
    assert (code, err) == (0, "")
    expected = "".join(
        f"preferences {study.QUERY} {doc} {g}\n"
        for g, group in enumerate(study.GROUPS, 1)
        for doc in group
    )
    assert out == expected
    # exported, then read back as a ground truth: the same groups, scored by ADR
    groups = tmp_path / "groups.txt"
    groups.write_text(out)
    runs = tmp_path / "run.tsv"
    runs.write_text("".join(f"s {study.QUERY} {d}\n" for d in "agbcdef"))
    code, out, _ = run(groups, runs, "--qrels-format", "groups", "-m", "ADR", "--format", "csv")
    assert out.splitlines()[-1] == "s,ADR,all,1.0"


def test_columns_named_otherwise_are_given_by_role(tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text(mturk_csv().replace("Answer.choice", "Answer.q1"))
    code, _, err = run("groups", "votes", answers)
    assert code == 1 and err.startswith(f"error: {answers}:1: no answer column")
    code, out, err = run(
        "groups", "votes", answers, "--column", "answer=Answer.q1", "--margin", "2"
    )
    assert (code, err) == (0, "") and out.count("\n") == 7


@pytest.mark.parametrize(
    ("command", "content", "message"),
    [
        (["groups", "rankings"], b"e1 q a one\n", "{path}:1: rank 'one' is not a whole number"),
        (
            ["groups", "votes"],
            b"query,doc_a,doc_b,answer,worker\nq,a,b,X,w\n",
            "{path}:2: answer 'X'",
        ),
        (
            ["evaluate"],
            b"gt q a 1\ngt q b 3\n",
            "{path}:2: query 'q' in 'gt' has group 3 but no group 2",
        ),
        (["evaluate"], b"gt q a 1\nother q a 1\n", "{path}: holds 2 ground truths (gt, other)"),
    ],
)
def test_a_bad_file_gets_one_line_naming_file_and_line(tmp_path, command, content, message):
    path = tmp_path / "input.txt"
    path.write_bytes(content)
    run_file = tmp_path / "run.tsv"
    run_file.write_text("s q a\n")
    args = [*command, path] + (
        [run_file, "--qrels-format", "groups", "-m", "ADR"] if command == ["evaluate"] else []
    )
    code, out, err = run(*args)
    assert code == (2 if command == ["evaluate"] else 1)
    assert out == ""
    assert err.startswith("error: " + message.format(path=path))
    assert err.count("\n") == 1


def test_usage_errors_exit_with_2(tmp_path):
    with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit) as exit_:
        main(["groups", "votes", "x.csv", "--column", "nonsense"])
    assert exit_.value.code == 2
    with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit) as exit_:
        main(["groups", "rankings", "x.txt", "--name", "two words"])
    assert exit_.value.code == 2
