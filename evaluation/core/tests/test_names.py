"""Measure names: ir_measures style, trec_eval style, options and errors."""

import pytest

from evaluation.core.names import MeasureNameError, parse_measure, parse_measures


def test_ir_measures_names():
    m = parse_measure("nDCG@10")
    assert (m.family, m.k, m.options, m.label) == ("nDCG", 10, (), "nDCG@10")
    assert parse_measure("RBP(p=0.8)@5").option("p") == 0.8
    assert parse_measure("Q(beta=1)@5").option("beta") == 1.0
    assert parse_measure("ERR@5").option("form") == "system"
    assert parse_measure("AP(rel=40,form=user)@5").label == "AP(form=user,rel=40)@5"
    assert parse_measure("CG(scale=graded3,gain=exp)@5").option("scale") == "graded3"
    assert [parse_measure(n).family for n in ("bpref", "bpref10", "bpref_star")] == [
        "bpref",
        "bpref10",
        "bpref_star",
    ]


def test_trec_eval_names_map_to_the_same_measures():
    assert parse_measure("ndcg_cut.10").family == "nDCG"
    assert parse_measure("ndcg_cut.10").k == 10
    assert parse_measure("P_5").label == "P_5"
    assert parse_measure("map").family == "AP"
    assert parse_measure("map").k is None
    assert [m.label for m in parse_measures("P.5,10")] == ["P_5", "P_10"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nDGC@10", "valid: P, AP"),
        ("RBP(q=0.8)@5", "valid options: rel, scale, split, gain, form, p"),
        ("nDCG(form=user)@5", "valid options: rel, scale, split, gain"),
        ("RBP(p=1.5)@5", r"p must be in \(0, 1\)"),
        ("CG(gain=log)@5", "valid: lin, exp"),
        ("CG(scale=huge)@5", "valid: raw, broad, fine, graded3"),
        ("CG", "needs a cut-off"),
        ("Rprec@5", "takes no cut-off"),
    ],
)
def test_bad_names_and_options_say_what_is_valid(name, message):
    with pytest.raises(MeasureNameError, match=message):
        parse_measure(name)
