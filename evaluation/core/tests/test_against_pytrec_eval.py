"""Differential test: every trec_eval measure we define equals trec_eval's own C code.

The reference is pytrec_eval (``pytrec-eval-terrier``, trec_eval 9.0.8's sources) on
random collections: graded and negative ("in pool, unjudged") judgments, unjudged
retrieved documents, queries without relevant documents, queries the run lacks and
score ties (broken by document id, descending). pytrec_eval reads scores as 32-bit
floats, so scores are multiples of 1/8 below 64: exact in both precisions.
"""

import numpy as np
import pytest

from evaluation.core import Qrels, Run, evaluate
from evaluation.core.evaluate import evaluate_files

pytrec_eval = pytest.importorskip("pytrec_eval")

TREC_MEASURES = [
    "map", "P.5", "P.10", "P.100", "recip_rank", "ndcg", "ndcg_cut.5", "ndcg_cut.10",
    "bpref", "Rprec", "recall.5", "recall.10", "num_q", "num_ret", "num_rel", "num_rel_ret",
    "map_cut.5", "map_cut.10", "map_cut.100", "infAP",
]  # fmt: skip


def random_collection(seed: int):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(int(rng.integers(5, 25))):
        pool = [f"d{int(d)}" for d in rng.choice(200, size=int(rng.integers(1, 60)), replace=False)]
        qrels[str(q)] = {d: int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3])) for d in pool}
        if rng.random() < 0.15:
            continue  # a judged query the run lacks
        docs = rng.choice(220, size=int(rng.integers(1, 120)), replace=False)
        scores = rng.integers(0, 512, size=len(docs)) / 8.0  # ties on purpose
        run[str(q)] = {f"d{int(d)}": float(s) for d, s in zip(docs, scores, strict=True)}
    run["999"] = {"d1": 1.0}  # a query without judgments: left out
    return qrels, run


@pytest.mark.parametrize("seed", range(12))
def test_trec_eval_measures_match_pytrec_eval_per_query(seed):
    qrels, run = random_collection(seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_MEASURES)).evaluate(run)
    results = evaluate(Qrels.from_dict(qrels), Run.from_dict(run, name="r"), TREC_MEASURES)
    assert set(results.runs["r"].queries) == set(expected)
    for label in results.labels:
        ours = results.per_query("r", label)
        for query, values in expected.items():
            assert ours[query] == pytest.approx(values[label], abs=1e-9), (label, query)


@pytest.mark.parametrize("seed", range(6))
def test_judged_at_k_is_trec_evals_precision_with_every_judged_document_relevant(seed):
    # ir_measures defines Judged@k as "P@k with a rel lower than any judgment": so
    # trec_eval's P.k on qrels where every judged document (relevance >= 0) is relevant
    # and a negative one ("in the pool, unjudged") is not is the reference.
    qrels, run = random_collection(seed)
    judged = {q: {d: int(r >= 0) for d, r in docs.items()} for q, docs in qrels.items()}
    expected = pytrec_eval.RelevanceEvaluator(judged, {"P.5", "P.20"}).evaluate(run)
    results = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run, name="r"), ["Judged@5", "Judged@20"]
    )
    for ours_label, trec_label in (("Judged@5", "P_5"), ("Judged@20", "P_20")):
        ours = results.per_query("r", ours_label)
        for query, values in expected.items():
            assert ours[query] == pytest.approx(values[trec_label], abs=1e-12), (query, trec_label)


@pytest.mark.parametrize("seed", range(6))
def test_judged_only_is_trec_evals_minus_j_through_evaluate_and_the_files(seed, tmp_path):
    # trec_eval -J (pytrec_eval's judged_docs_only_flag): ranked documents without a
    # non-negative judgment are dropped before scoring, on every measure.
    qrels, run = random_collection(seed)
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, set(TREC_MEASURES), judged_docs_only_flag=True
    ).evaluate(run)
    in_memory = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run, name="r"), TREC_MEASURES, judged_only=True
    )
    qrels_file, run_file = tmp_path / "qrels.txt", tmp_path / "r.run"
    qrels_file.write_text(
        "".join(f"{q} 0 {d} {rel}\n" for q, docs in qrels.items() for d, rel in docs.items())
    )
    run_file.write_text(
        "".join(f"{q} Q0 {d} 0 {score} r\n" for q, docs in run.items() for d, score in docs.items())
    )
    from_files = evaluate_files(str(qrels_file), [str(run_file)], TREC_MEASURES, judged_only=True)
    for results in (in_memory, from_files):
        for label in results.labels:
            ours = results.per_query("r", label)
            for query, values in expected.items():
                assert ours[query] == pytest.approx(values[label], abs=1e-9), (label, query)
