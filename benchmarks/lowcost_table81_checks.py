"""Why Table 8.1 (MIREX 2011, Fine, no judgments) is off for accuracy and τ: what was checked.

    PYTHONPATH=. .venv/bin/python benchmarks/lowcost_table81_checks.py

Not a speed benchmark (``run_all.py`` runs only ``bench_*.py``): it prints the figures
quoted in ``docs/low-cost-evaluation.md`` ("Table 8.1: what was checked"). Each line is
Table 8.1's Conf., Acc., τ, RMSE_Δλ, ρ, RMSE_λ for CG_l@5 and DCG_l@5 with no judgment,
under one variant of how the estimates or the truth could have been made:

1. as shipped: the published M_out (Table A.1), features as Allcea builds them;
2. the truth on the 10 collapsed Fine levels (5, 15, ..., 95) the models predict (§7.3.1);
3. fGEN and fART counted over retrievals (a document once per system that ranked it)
   instead of over distinct documents, with and without the document itself;
4. M_out refitted on 2011 itself (in-sample: the most favourable model these features
   allow; OV is constant within one year, so its terms drop out), and 20 refits on
   query-bootstrap samples of 2011 (how much the ranking moves with the coefficients);
5. which system pairs the shipped estimates get wrong, and how close they truly are.

Source of the thesis' figures: Table 8.1 (``evaluation.core.lowcost.published``).
"""

from __future__ import annotations

import numpy as np

from evaluation.core.lowcost import (
    Pool,
    ProbabilisticMeasure,
    RelevanceEstimates,
    RelevanceEstimator,
    all_features,
    read_metadata,
)
from evaluation.core.lowcost.models import M_OUT, M_OUT_TERMS
from evaluation.core.lowcost.ordinal import OrdinalModel, design_matrix, fit_ordinal, to_levels
from evaluation.core.lowcost.published import TABLE_8_1
from evaluation.core.lowcost.simulation import Reference
from evaluation.core.trec import read_qrels, read_runs
from tests.helpers.shared_data import MIREX2011

MEASURES = ("CG@5", "DCG@5")
FIGURES = ("confidence", "accuracy", "tau", "rmse_delta", "rho", "rmse")
OWN_TERMS = ("fSYS", "fART", "sGEN", "fGEN", "sGEN:fGEN")


def known(values: np.ndarray) -> RelevanceEstimates:
    n = len(values)
    return RelevanceEstimates(values, np.zeros(n), np.zeros(n, int), np.ones(n, bool), "fine")


def figures(pool, truth, estimates, measure) -> str:
    kernel = ProbabilisticMeasure(pool, measure)
    step = Reference(kernel.scores(known(truth))).step(0, kernel.scores(estimates))
    return " ".join(f"{getattr(step, f):.3f}" for f in FIGURES)


def with_model(pool, metadata, model: OrdinalModel, features=None) -> RelevanceEstimates:
    """M_out → historical on ``features`` (the estimator's own unless given)."""
    estimator = RelevanceEstimator(pool, metadata, models={"M_out": model}, estimator="mout")
    if features is None:
        return estimator.estimate()
    base = estimator.estimate()
    X = model.design(features)
    ok = ~np.isnan(X).any(axis=1)
    e, v = base.expectation.copy(), base.variance.copy()
    e[ok], v[ok] = model.moments(X[ok])
    return RelevanceEstimates(e, v, base.source, base.judged, "fine")


def share(pool, label, *, by_retrievals: bool, itself: bool) -> np.ndarray:
    """fGEN/fART variants: the share of the query's documents with the pair's label."""
    _, _, pair = pool.entries
    weight = np.bincount(pair, minlength=pool.n_pairs) if by_retrievals else pool.retrieved * 1
    weight = weight.astype(np.float64)
    ok = (label >= 0) & pool.retrieved
    n_labels = int(label.max()) + 1
    key = pool.pair_query * n_labels + np.maximum(label, 0)
    same = np.bincount(key[ok], weights=weight[ok], minlength=len(pool.queries) * n_labels)
    total = np.bincount(pool.pair_query[ok], weights=weight[ok], minlength=len(pool.queries))
    own = 0.0 if itself else weight
    return np.where(ok, (same[key] - own) / (total[pool.pair_query] - own), np.nan)


def as_m_out(beta, alpha) -> OrdinalModel:
    """A model fitted on OWN_TERMS, written with M_out's terms (OV's effects 0)."""
    full = dict(zip(OWN_TERMS, beta, strict=True))
    return OrdinalModel(
        "M_out (2011)",
        "fine",
        M_OUT_TERMS,
        tuple(float(full.get(t, 0.0)) for t in M_OUT_TERMS),
        tuple(float(a) for a in alpha),
    )


def main() -> None:
    qrels = read_qrels(MIREX2011 / "judgments.tsv")
    pool = Pool.from_runs(read_runs(MIREX2011 / "runs.tsv"), depth=5, qrels=qrels)
    metadata = read_metadata(MIREX2011 / "metadata.tsv")
    truth = pool.judgments(qrels)
    collapsed = np.minimum(np.floor(truth / 10), 9) * 10 + 5
    published = with_model(pool, metadata, M_OUT["fine"])
    features = all_features(pool, None, metadata)
    genre = metadata.codes(pool.pair_doc, "genre")
    artist = metadata.codes(pool.pair_doc, "artist")

    lines = []
    for measure in MEASURES:
        thesis = TABLE_8_1[measure]
        lines.append(f"{measure} thesis        " + " ".join(f"{thesis[f]:.3f}" for f in FIGURES))
        lines.append(f"{measure} shipped       " + figures(pool, truth, published, measure))
        lines.append(
            f"{measure} 10-level truth" + " " + figures(pool, collapsed, published, measure)
        )
        for by_retrievals in (False, True):
            for itself in (True, False):
                variant = {
                    **features,
                    "fGEN": share(pool, genre, by_retrievals=by_retrievals, itself=itself),
                    "fART": share(pool, artist, by_retrievals=by_retrievals, itself=itself),
                }
                estimates = with_model(pool, metadata, M_OUT["fine"], variant)
                name = (
                    f"{'retrievals' if by_retrievals else 'documents'},{'+d' if itself else '-d'}"
                )
                lines.append(f"{measure} {name:14}" + figures(pool, truth, estimates, measure))

    X = design_matrix(features, OWN_TERMS)
    usable = ~np.isnan(X).any(axis=1)
    levels = to_levels(truth, "fine")
    fit = fit_ordinal(X[usable], levels[usable], 10)
    in_sample = with_model(pool, metadata, as_m_out(fit.beta, fit.alpha))
    for measure in MEASURES:
        lines.append(f"{measure} 2011 in-sample" + " " + figures(pool, truth, in_sample, measure))
    rng = np.random.default_rng(1)
    accuracy = {m: [] for m in MEASURES}
    for _ in range(20):
        queries = rng.integers(0, len(pool.queries), len(pool.queries))
        rows = np.concatenate(
            [np.arange(pool.query_slices[q], pool.query_slices[q + 1]) for q in queries]
        )
        rows = rows[usable[rows]]
        boot = fit_ordinal(X[rows], levels[rows], 10)
        estimates = with_model(pool, metadata, as_m_out(boot.beta, boot.alpha))
        for measure in MEASURES:
            kernel = ProbabilisticMeasure(pool, measure)
            step = Reference(kernel.scores(known(truth))).step(0, kernel.scores(estimates))
            accuracy[measure].append(step.accuracy)
    for measure, values in accuracy.items():
        lines.append(
            f"{measure} 20 bootstrap refits: accuracy {min(values):.3f}–{max(values):.3f} "
            f"(mean {np.mean(values):.3f})"
        )
    for measure in MEASURES:
        kernel = ProbabilisticMeasure(pool, measure)
        true, shipped = kernel.scores(known(truth)), kernel.scores(published)
        upper = np.triu_indices(len(pool.systems), 1)
        actual, estimated = true.difference[upper], shipped.difference[upper]
        wrong = np.sign(actual) != np.sign(estimated)
        lines.append(
            f"{measure} shipped: {int(wrong.sum())} of {len(actual)} signs wrong, true |Δ| at "
            f"most {np.abs(actual[wrong]).max():.4f}; smallest true |Δ| of any pair "
            f"{np.abs(actual).min():.5f}"
        )
    print("measure variant        Conf. Acc. τ RMSE_Δλ ρ RMSE_λ")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
