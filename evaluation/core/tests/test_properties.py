"""Property tests: bounds, the user-form ideal ranking, and monotonicity."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core import Qrels, Run, evaluate

K = 5
THESIS = ["P@5", "AP@5", "RR@5", "CG@5", "DCG@5", "nDCG@5", "Q@5", "RBP@5", "ERR@5",
          "EDCG@5", "GAP@5", "ADR@5", "bpref", "bpref10", "bpref_star", "R@5", "Rprec", "map"]  # fmt: skip
USER = ["AP(form=user)@5", "Q(form=user)@5", "RBP(form=user)@5", "ERR(form=user)@5",
        "EDCG(form=user)@5", "GAP(form=user)@5", "ADR(form=user)@5"]  # fmt: skip
GAINED = ["CG(gain=exp)@5", "nDCG(gain=exp)@5", "ERR(gain=exp,form=user)@5"]
ALL = THESIS + USER + GAINED

levels = st.integers(min_value=0, max_value=3)
collections = st.tuples(
    st.lists(levels, min_size=1, max_size=8),  # levels of the ranked documents
    st.lists(levels, min_size=0, max_size=6),  # levels of judged documents not ranked
)


def scores(ranked, unranked, measures=ALL):
    records = [("q", f"r{i}", lvl) for i, lvl in enumerate(ranked)]
    records += [("q", f"u{i}", lvl) for i, lvl in enumerate(unranked)]
    records.append(("q", "top", 3))  # fixes n_L - 1 = 3 for the raw scale
    run = Run.from_ranked_lists({"q": [f"r{i}" for i in range(len(ranked))]}, name="A")
    results = evaluate(Qrels.from_records(records), run, measures)
    return {m: results.mean("A", m) for m in measures}


@settings(max_examples=60, deadline=None)
@given(collections)
def test_every_score_is_between_0_and_1(collection):
    for name, value in scores(*collection).items():
        assert 0.0 <= value <= 1.0 + 1e-12, name


@settings(max_examples=20, deadline=None)
@given(st.lists(levels, min_size=0, max_size=6))
def test_k_documents_of_maximal_relevance_score_1_in_the_user_form(unranked):
    user = ["P@5", "RR@5", "CG@5", "DCG@5", *USER, "CG(gain=exp)@5", "ERR(gain=exp,form=user)@5"]
    for name, value in scores([3] * K, unranked, user).items():
        assert np.isclose(value, 1.0), name


@settings(max_examples=60, deadline=None)
@given(collections, st.integers(min_value=0, max_value=K - 2))
def test_moving_a_more_relevant_document_up_never_lowers_a_score(collection, i):
    ranked, unranked = collection
    ranked = (ranked + [0] * K)[:K]
    if ranked[i] >= ranked[i + 1]:
        ranked[i], ranked[i + 1] = ranked[i + 1], ranked[i]
    better = ranked.copy()
    better[i], better[i + 1] = ranked[i + 1], ranked[i]
    rank_sensitive = ALL
    before, after = (
        scores(ranked, unranked, rank_sensitive),
        scores(better, unranked, rank_sensitive),
    )
    for name in rank_sensitive:
        assert after[name] >= before[name] - 1e-12, (name, ranked, better)
