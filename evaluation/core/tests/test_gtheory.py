"""Generalizability Theory (thesis ch. 6), checked on MIREX 2011 and by simulation."""

import numpy as np
import pytest

from evaluation.core import evaluate
from evaluation.core.stats import (
    anova_two_way,
    d_study,
    g_study,
    g_study_nested,
    queries_needed,
)


def test_mirex_2011_cg_l5_fine_reproduces_thesis_tables_6_1_to_6_3(mirex2011_cg_l5_fine):
    _, _, X = mirex2011_cg_l5_fine
    assert X.shape == (18, 100)
    g = g_study(X)
    p = g.proportions()
    # Thesis Table 6.1, Fine, 2011, CG_l@5: σ²_s 0.184, σ²_q 0.511, σ²_e 0.304
    assert (round(p["system"], 3), round(p["query"], 3), round(p["residual"], 3)) == (
        0.184,
        0.511,
        0.304,
    )
    d = d_study(g, [100])
    # Table 6.2: Eρ² = 0.9838 and 32 queries for Eρ² = 0.95
    assert round(float(d.e_rho2[0]), 4) == 0.9838
    assert queries_needed(g, target=0.95) == 32
    # Table 6.3: Φ = 0.9576 and 85 queries for Φ = 0.95
    assert round(float(d.phi[0]), 4) == 0.9576
    assert queries_needed(g, target=0.95, coefficient="phi") == 85


# Thesis Tables 6.1 (σ²_s, σ²_q, σ²_e over the total), 6.2 (Eρ², queries for Eρ² = 0.95)
# and 6.3 (Φ, queries for Φ = 0.95), MIREX 2011 column: Fine scale for the gain measures,
# ℓ_min = 40 for P@5 and AP@5. Forms as in thesis §5.2.1: CG (3.3), DCG (3.4), nDCG
# (2.10), Q (5.7), RBP (5.8), GAP (5.9), P (2.2), AP (5.6). CG_l@5 is checked above on
# scores computed independently of the measures module.
TABLES_6_1_TO_6_3_2011 = [
    ("DCG(scale=fine)@5", (0.186, 0.501, 0.314), (0.9834, 33), (0.958, 84)),
    ("nDCG(scale=fine)@5", (0.219, 0.412, 0.369), (0.9834, 33), (0.9655, 68)),
    ("Q(scale=fine)@5", (0.214, 0.405, 0.381), (0.9825, 34), (0.9646, 70)),
    ("RBP(scale=fine)@5", (0.217, 0.413, 0.37), (0.9833, 33), (0.9653, 69)),
    ("GAP(scale=fine)@5", (0.226, 0.419, 0.355), (0.9845, 30), (0.9669, 66)),
    ("P(rel=40,scale=fine)@5", (0.167, 0.464, 0.369), (0.9784, 42), (0.9526, 95)),
    ("AP(rel=40,scale=fine)@5", (0.174, 0.452, 0.375), (0.9789, 41), (0.9546, 91)),
]


@pytest.mark.parametrize(
    ("measure", "table_6_1", "table_6_2", "table_6_3"),
    TABLES_6_1_TO_6_3_2011,
    ids=[row[0] for row in TABLES_6_1_TO_6_3_2011],
)
def test_mirex_2011_reproduces_the_other_rows_of_thesis_tables_6_1_to_6_3(
    mirex2011_core, measure, table_6_1, table_6_2, table_6_3
):
    qrels, runs = mirex2011_core
    X = evaluate(qrels, runs, [measure]).matrix(measure).scores
    assert X.shape == (18, 100)
    g = g_study(X)
    p = g.proportions()
    assert tuple(round(p[c], 3) for c in ("system", "query", "residual")) == table_6_1
    d = d_study(g, [100])
    assert (round(float(d.e_rho2[0]), 4), queries_needed(g, target=0.95)) == table_6_2
    phi = (round(float(d.phi[0]), 4), queries_needed(g, target=0.95, coefficient="phi"))
    assert phi == table_6_3


def test_the_crossed_g_study_is_eq_6_3_on_the_anova_mean_squares():
    rng = np.random.default_rng(0)
    X = rng.random((6, 20))
    a = anova_two_way(X)  # checked against a least-squares fit in test_multiple
    g = g_study(X)
    assert g.residual == pytest.approx(a.residual.ms)
    assert g.raw_system == pytest.approx((a.systems.ms - a.residual.ms) / 20)
    assert g.raw_query == pytest.approx((a.queries.ms - a.residual.ms) / 6)


def test_negative_components_are_set_to_zero():
    # Identical systems up to noise that is pure interaction: MS_s < MS_e.
    X = np.array([[0.1, 0.9, 0.5], [0.9, 0.1, 0.5]])
    g = g_study(X)
    assert g.raw_system < 0 and g.system == 0
    d = d_study(g, [10, 100])
    assert np.all(d.e_rho2 == 0)
    with pytest.raises(ValueError, match="system variance is 0"):
        queries_needed(g)


def test_the_d_study_gives_eqs_6_4_and_6_5_and_agrees_with_queries_needed():
    g = g_study(np.random.default_rng(1).random((8, 50)) + np.linspace(0, 0.3, 8)[:, None])
    n = np.array([5, 50, 500])
    d = d_study(g, n)
    s, q, e = g.system, g.query, g.residual
    assert d.e_rho2 == pytest.approx(s / (s + e / n))
    assert d.phi == pytest.approx(s / (s + (q + e) / n))
    for coef in ("e_rho2", "phi"):
        need = queries_needed(g, target=0.9, coefficient=coef)
        curve = getattr(d_study(g, [need - 1, need]), coef)
        assert curve[1] >= 0.9 > curve[0] or need == 1
    assert d_study(g).n_queries.size == 100  # default curve 1 … 2·n_q


def simulate_nested(rng, ns, nq, nh, var):
    """Scores from the s × (h:q) model with the given variance components."""
    s = rng.normal(0, np.sqrt(var["s"]), (ns, 1, 1))
    q = rng.normal(0, np.sqrt(var["q"]), (1, nq, 1))
    sq = rng.normal(0, np.sqrt(var["sq"]), (ns, nq, 1))
    hq = rng.normal(0, np.sqrt(var["hq"]), (1, nq, nh))
    e = rng.normal(0, np.sqrt(var["e"]), (ns, nq, nh))
    return 0.5 + s + q + sq + hq + e


def test_the_nested_g_study_recovers_simulated_components():
    # Independent check of eq. 6.8: the ANOVA estimators are unbiased, so with a large
    # simulated design they land near the components that generated the data.
    var = {"s": 0.02, "q": 0.05, "sq": 0.03, "hq": 0.01, "e": 0.04}
    rng = np.random.default_rng(2)
    est = [g_study_nested(simulate_nested(rng, 30, 200, 3, var)) for _ in range(5)]
    mean = {
        "s": np.mean([g.system for g in est]),
        "q": np.mean([g.query for g in est]),
        "sq": np.mean([g.system_query for g in est]),
        "hq": np.mean([g.assessor_query for g in est]),
        "e": np.mean([g.residual for g in est]),
    }
    for k, v in var.items():
        assert mean[k] == pytest.approx(v, rel=0.2), k


def test_the_nested_d_study_is_eq_6_10_and_more_assessors_help():
    var = {"s": 0.02, "q": 0.05, "sq": 0.03, "hq": 0.01, "e": 0.04}
    g = g_study_nested(simulate_nested(np.random.default_rng(3), 10, 50, 3, var))
    one, two = d_study(g, [50], n_assessors=1), d_study(g, [50], n_assessors=2)
    s, q, sq, hq, e = g.system, g.query, g.system_query, g.assessor_query, g.residual
    assert two.e_rho2[0] == pytest.approx(s / (s + sq / 50 + e / 100))
    assert two.phi[0] == pytest.approx(s / (s + (q + sq) / 50 + (hq + e) / 100))
    assert two.e_rho2[0] > one.e_rho2[0]
    assert queries_needed(g, n_assessors=2) <= queries_needed(g, n_assessors=1)
    with pytest.raises(ValueError, match="no assessor facet"):
        d_study(g_study(np.random.default_rng(0).random((3, 4))), [4], n_assessors=2)
