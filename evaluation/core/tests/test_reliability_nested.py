"""The nested G-study s × (h:q) of thesis §6.4 (eqs. 6.8–6.10) as a reliability document,
against statsmodels' ANOVA, and built from judgments that name their assessor."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation.core.assessor_judgments import (
    AssessorJudgment,
    assessor_slots,
    nested_scores,
    read_assessor_judgments,
)
from evaluation.core.names import parse_measure
from evaluation.core.reliability import reliability_nested
from evaluation.core.trec import FormatError, Run

# 4 systems × 5 queries × 3 assessors per query (np.random.default_rng(64), rounded).
SCORES = [
    [[0.626, 0.641, 0.665], [0.705, 0.678, 0.577], [0.278, 0.326, 0.321], [0.423, 0.394, 0.276], [0.452, 0.552, 0.516]],
    [[0.717, 0.721, 0.701], [0.511, 0.594, 0.558], [0.234, 0.291, 0.327], [0.662, 0.58, 0.4], [0.434, 0.522, 0.568]],
    [[0.558, 0.631, 0.51], [0.535, 0.584, 0.552], [0.425, 0.316, 0.396], [0.349, 0.307, 0.315], [0.299, 0.448, 0.389]],
    [[0.771, 0.862, 0.74], [0.583, 0.678, 0.607], [0.588, 0.451, 0.517], [0.762, 0.55, 0.529], [0.474, 0.619, 0.484]],
]  # fmt: skip

# statsmodels 0.15.0 (not a dependency; run once by hand on the array above):
#   df = pd.DataFrame([dict(s=s, q=q, h=h, y=X[s, q, h]) for s in range(4)
#                      for q in range(5) for h in range(3)])
#   fit = smf.ols("y ~ C(s) + C(q) + C(q):C(h) + C(s):C(q)", data=df).fit()
#   anova_lm(fit, typ=1)["mean_sq"]
MS = {
    "s": 0.07872135000000001,
    "q": 0.17322922500000015,
    "h:q": 0.01072798333333333,
    "sq": 0.015578447222222222,
    "e": 0.0023490944444444443,
}


def test_the_nested_components_are_eq_6_8_on_statsmodels_mean_squares():
    ns, nq, nh = 4, 5, 3
    e = MS["e"]
    sq = (MS["sq"] - e) / nh
    hq = (MS["h:q"] - e) / ns
    q = (MS["q"] - nh * sq - ns * hq - e) / (ns * nh)
    s = (MS["s"] - nh * sq - e) / (nh * nq)
    doc = reliability_nested(
        np.array(SCORES), measure="m", systems="abcd", queries="vwxyz", target=0.9
    ).to_dict()
    got = {c["key"]: c["variance"] for c in doc["components"]}
    want = {"system": s, "query": q, "system_query": sq, "assessor_query": hq, "residual": e}
    assert got == pytest.approx(want, rel=1e-9)
    assert (doc["n_systems"], doc["n_queries"], doc["n_assessors"]) == (4, 5, 3)
    # eq. 6.10 at the collection's 5 queries and 3 assessors
    assert doc["erho2"] == pytest.approx(s / (s + sq / 5 + e / 15))
    assert doc["phi"] == pytest.approx(s / (s + (q + sq) / 5 + (hq + e) / 15))
    one = next(c for c in doc["curves"] if c["assessors"] == 1)
    assert one["erho2"][one["queries"].index(5)] == pytest.approx(s / (s + sq / 5 + e / 5))
    assert "assessors of the same query make" in doc["report"]


def test_assessors_are_numbered_per_query_and_short_queries_left_out():
    js = [AssessorJudgment(q, h, "d1", 50.0) for q in ("q1", "q2") for h in ("ann", "bob", "cy")]
    js += [AssessorJudgment("q3", h, "d1", 10.0) for h in ("ann", "dee")]
    js += [AssessorJudgment("q4", "ann", "d1", 10.0)]
    slots = assessor_slots(js)
    # 3 assessors × 2 queries = 6 judgments used, against 2 × 3 = 6 with two: the larger n_h
    assert slots.n_assessors == 3
    assert slots.queries == ("q1", "q2")
    assert dict(slots.left_out) == {"q3": 2, "q4": 1}
    with pytest.raises(ValueError, match="at least 2 queries judged by 2 or more"):
        assessor_slots(js[-3:])


def test_each_system_is_scored_against_each_assessors_judgments():
    # q1: ann finds d1 very similar (90), bob not (10); q2: both find d2 at 50
    js = [
        AssessorJudgment("q1", "ann", "d1", 90.0),
        AssessorJudgment("q1", "bob", "d1", 10.0),
        AssessorJudgment("q2", "ann", "d2", 50.0),
        AssessorJudgment("q2", "bob", "d2", 50.0),
    ]
    runs = {
        "A": Run.from_ranked_lists({"q1": ["d1"], "q2": ["d2"]}, name="A"),
        "B": Run.from_ranked_lists({"q1": ["x"], "q2": ["d2"]}, name="B"),
    }
    systems, queries, X = nested_scores(assessor_slots(js), runs, parse_measure("CG(scale=fine)@1"))
    assert systems == ("A", "B") and queries == ("q1", "q2")
    # CG_l@1 on Fine = level / 100: A gets 0.9 from ann and 0.1 from bob on q1
    assert X.tolist() == [[[0.9, 0.1], [0.5, 0.5]], [[0.0, 0.0], [0.5, 0.5]]]


def test_a_bad_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "judgments.tsv"
    path.write_text("q1 ann d1 40\nq1 ann d1 50\n")
    with pytest.raises(FormatError, match=r"judgments.tsv:2: .*already on line 1"):
        read_assessor_judgments(path)
    path.write_text("q1 ann d1 forty\n")
    with pytest.raises(FormatError, match=r"judgments.tsv:1: fine 'forty' is not a number"):
        read_assessor_judgments(path)
    path.write_text("q1 d1 40\n")
    with pytest.raises(FormatError, match=r"judgments.tsv:1: expected 4 or 5 fields"):
        read_assessor_judgments(path)
