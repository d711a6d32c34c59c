"""evaluate() and Results: per-query scores, aggregates, the score matrix, CSV/JSON."""

import json
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose

from evaluation.core import Qrels, Run, evaluate, read_qrels, read_runs

evaluate_module = sys.modules["evaluation.core.evaluate"]  # the module, not the function

QRELS = Qrels.from_records(
    [("1", "a", 1), ("1", "b", 0), ("2", "c", 1), ("3", "d", 1), ("10", "e", 1)]
)
RUNS = {
    "A": Run.from_ranked_lists({"1": ["a", "b"], "2": ["x", "c"], "99": ["a"]}, name="A"),
    "B": Run.from_ranked_lists({"1": ["b", "a"], "2": ["c"], "3": ["d"]}, name="B"),
}


def test_queries_without_judgments_are_left_out_and_missing_ones_too():
    results = evaluate(QRELS, RUNS, ["P@1", "num_q"])
    # A: query 1 → 1, query 2 → 0; mean 0.5 over the 2 queries it ranked
    assert results.per_query("A", "P@1") == {"1": 1.0, "2": 0.0}
    assert results.mean("A", "P@1") == 0.5
    assert results.mean("B", "num_q") == 3  # counts are summed


def test_complete_scores_missing_judged_queries_as_zero_like_trec_eval_c():
    results = evaluate(QRELS, RUNS, ["P@1", "num_q"], complete=True)
    # A over 1, 2, 3, 10: (1 + 0 + 0 + 0) / 4
    assert results.mean("A", "P@1") == 0.25
    assert results.mean("A", "num_q") == 4


def test_the_score_matrix_has_sorted_queries_and_follows_the_missing_policy():
    results = evaluate(QRELS, RUNS, ["RR@2"])
    m = results.matrix("RR@2")
    assert (m.systems, m.queries) == (("A", "B"), ("1", "2"))  # only queries both have
    assert_allclose(m.scores, [[1, 0.5], [0.5, 1]])
    full = evaluate(QRELS, RUNS, ["RR@2"], complete=True).matrix("RR@2")
    assert full.queries == ("1", "2", "3", "10")  # numeric ids in numeric order
    assert_allclose(full.scores, [[1, 0.5, 0, 0], [0.5, 1, 1, 0]])


def test_measures_can_be_looked_up_by_any_equivalent_name():
    results = evaluate(QRELS, RUNS, ["RBP(p=0.8)@2"])
    assert results.mean("A", "RBP@2") == results.mean("A", "RBP(p=0.8)@2")


def test_csv_and_json_exports():
    results = evaluate(QRELS, RUNS, ["P@1"])
    lines = results.to_csv().splitlines()
    assert lines[0] == "run,measure,query,value"
    assert "A,P@1,all,0.5" in lines and "B,P@1,3,1.0" in lines
    data = json.loads(results.to_json())
    assert data["runs"]["B"]["all"]["P@1"] == 2 / 3
    assert data["runs"]["A"]["queries"]["1"]["P@1"] == 1.0
    assert results.to_trec(digits=4).splitlines()[1].split("\t")[1:] == ["all", "0.5000"]


def test_in_memory_dicts_work_as_inputs():
    results = evaluate({"q": {"a": 1}}, {"r": {"q": {"a": 1.0, "b": 2.0}}}, "RR@2")
    assert results.mean("r", "RR@2") == 0.5


def test_document_ids_match_whatever_the_longest_id_of_each_file():
    # the judgments' longest id (24 bytes) is longer than any in the run (1 byte)
    qrels = read_qrels(b"1 0 a 1\n1 0 a-very-long-document-id 1\n")
    runs = read_runs(b"1 Q0 a 1 2.0 s\n")
    assert evaluate(qrels, runs, ["P@1", "map"]).means() == {"s": {"P@1": 1.0, "map": 0.5}}


def test_a_run_without_any_judged_query_scores_nothing_instead_of_failing():
    # No query of the run is judged: nothing to evaluate (before, recip_rank failed on
    # an empty matrix). With -c every judged query has an empty ranking and scores 0.
    qrels = Qrels.from_records([("q1", "a", 1)])
    run = Run.from_records([("q9", "a", 1.0)], name="r")
    results = evaluate(qrels, run, ["recip_rank", "ndcg", "map", "num_q"])
    assert results.runs["r"].queries == () and results.mean("r", "num_q") == 0
    complete = evaluate(qrels, run, ["recip_rank", "ndcg", "map"], complete=True)
    assert complete.means() == {"r": {"recip_rank": 0.0, "ndcg": 0.0, "map": 0.0}}


EVERY_FAMILY = [
    "map", "AP@10", "AP(form=user)@5", "P@5", "recip_rank", "RR@3", "recall.10", "Rprec",
    "ndcg", "nDCG@10", "nDCG(gain=exp)", "CG@5", "DCG@10", "Q@10", "RBP(p=0.8)@10", "ERR@10",
    "EDCG@10", "GAP@10", "ADR@5", "ADR(form=user)@20", "bpref", "bpref10", "bpref_star",
    "num_ret", "num_rel", "num_rel_ret", "P(rel=2)@10", "nDCG(scale=graded3)@5",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_scoring_a_few_queries_at_a_time_gives_the_same_values_bit_for_bit(seed, monkeypatch):
    # Rankings of very different depths and queries with very different numbers of
    # judgments, so that the matrices of a few queries would be narrower than the whole.
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(int(rng.integers(20, 60))):
        for d in rng.choice(400, size=int(rng.integers(1, 200)), replace=False):
            qrels.append((f"q{q}", f"d{d}", float(rng.choice([-1, 0, 0, 1, 2, 3]))))
        depth = int(rng.choice([1, 3, 10, 50, 400]))
        for r, d in enumerate(rng.choice(400, size=depth, replace=False)):
            run.append((f"q{q}", f"d{d}", float(rng.integers(0, 64)) / 8 - r * 1e-3))
    qrels = Qrels.from_records(qrels)
    run = Run.from_records(run, name="r")
    whole = evaluate(qrels, run, EVERY_FAMILY).to_csv(per_query=True)
    monkeypatch.setattr(evaluate_module, "_CELLS", 700)  # a couple of queries at a time
    assert evaluate(qrels, run, EVERY_FAMILY).to_csv(per_query=True) == whole
