"""``python -m evaluation.core compare``: significance of the differences between runs.

For every pair of runs: the mean difference with its confidence interval (``--interval``:
by default eq. 4.6 from 30 queries where it stays within [−1, 1], else the bootstrap
percentile interval; ``t`` always gives thesis eq. 4.6), and the p-value of each chosen
test with its adjusted p-value; each run's letters (runs that share a letter are not
significantly different by the first test, Piepho 2004); for three or more runs also the
Friedman test, and Tukey's HSD on the two-way ANOVA when asked (``--tukey`` or
``--test all``).

Examples::

    python -m evaluation.core compare qrels.txt a.run b.run c.run -m 'nDCG@5' --test all
    python -m evaluation.core compare qrels.txt a.run b.run c.run -m 'nDCG@5' --tukey
    python -m evaluation.core compare --scores per_query.tsv --test permutation --seed 1
"""

from __future__ import annotations

import argparse
import csv
import io

import numpy as np

from evaluation.core import stats
from evaluation.core.cli.judged import judged_of_inputs
from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix

ADJUSTMENTS = ("holm", "bonferroni", "none")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m evaluation.core compare",
        description="Compare runs pairwise: mean differences with confidence intervals and "
        "p-values (thesis ch. 5), plus Friedman (and Tukey HSD when asked) for three or "
        "more runs.",
    )
    add_input_arguments(p, min_runs=2)
    p.add_argument(
        "--test",
        choices=(*stats.TESTS, "all"),
        default="t",
        help="paired test(s) to run (default: t)",
    )
    p.add_argument(
        "--tukey",
        action="store_true",
        help="also Tukey's HSD on the two-way ANOVA for three or more runs (--test all "
        "includes it)",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=10_000,
        help="resamples of the bootstrap and permutation tests (default: 10000)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the resampling tests")
    p.add_argument(
        "--adjust",
        choices=ADJUSTMENTS,
        default="holm",
        help="adjustment for the family of pairwise p-values (default: holm)",
    )
    p.add_argument(
        "--alternative",
        choices=("two-sided", "less", "greater"),
        default="two-sided",
        help="alternative hypothesis on A − B (default: two-sided)",
    )
    p.add_argument(
        "--confidence", type=float, default=0.95, help="confidence level (default: 0.95)"
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="significance level of the letters (default: 0.05)",
    )
    p.add_argument(
        "--interval",
        choices=("auto", "t", "bootstrap"),
        default="auto",
        help="interval of the mean differences: t (thesis eq. 4.6), bootstrap (percentile) "
        "or auto: t from 30 queries when it stays within the scores' bounds, else "
        "bootstrap (default: auto)",
    )
    return p


def _compute(matrix, args) -> dict:
    tests = list(stats.TESTS) if args.test == "all" else [args.test]
    X = matrix.scores
    k = len(matrix.systems)
    results = {
        t: stats.all_pairs(
            matrix,
            test=t,
            alternative=args.alternative,
            resamples=args.resamples,
            seed=args.seed,
            confidence=args.confidence,
        )
        for t in tests
    }
    adjusted = {t: r.adjusted_pvalues(args.adjust) for t, r in results.items()}
    bounded = bool(np.all((X >= 0) & (X <= 1)))
    upper_i, upper_j = np.triu_indices(k, 1)
    intervals = stats.mean_intervals(
        X[upper_i] - X[upper_j],
        method=args.interval,
        bounds=(-1.0, 1.0) if bounded else None,
        confidence=args.confidence,
        resamples=args.resamples,
        seed=args.seed,
    )
    pairs = []
    for i, j, ci in zip(upper_i.tolist(), upper_j.tolist(), intervals, strict=True):
        pairs.append(
            {
                "a": matrix.systems[i],
                "b": matrix.systems[j],
                "mean_difference": ci.estimate,
                "ci_low": ci.low,
                "ci_high": ci.high,
                "margin": ci.margin,
                "ci_method": ci.method,
                "effect_size": float(results[tests[0]].effect_size[i, j]),
                "tests": {
                    t: {
                        "statistic": float(results[t].statistic[i, j]),
                        "pvalue": float(results[t].pvalue[i, j]),
                        "pvalue_adjusted": float(adjusted[t][i, j]),
                    }
                    for t in tests
                },
            }
        )
    caveat = stats.too_few_queries_for_tests(len(matrix.queries), alpha=args.alpha)
    judged = judged_of_inputs(matrix, args)  # the pages' warning about unjudged documents
    unjudged = judged and stats.unjudged_documents(
        judged["systems"], k=judged["k"], n_queries=len(matrix.queries), label=judged["label"],
        retrieved=judged["retrieved"],
    )  # fmt: skip
    out = {
        "measure": matrix.measure,
        "systems": list(matrix.systems),
        "n_queries": len(matrix.queries),
        "means": {s: float(m) for s, m in zip(matrix.systems, X.mean(axis=1), strict=True)},
        "tests": tests,
        "alternative": args.alternative,
        "confidence": args.confidence,
        "resamples": args.resamples
        if any(t in ("bootstrap", "permutation") for t in tests)
        else None,
        "seed": args.seed,
        "adjust": args.adjust,
        "alpha": args.alpha,
        "letters": _letters(matrix, adjusted[tests[0]], alpha=args.alpha, withheld=bool(caveat)),
        "warnings": [c.to_dict() for c in (caveat, unjudged) if c],
        "judged": judged["systems"] if judged else None,
        "pairs": pairs,
        "friedman": None,
        "tukey_hsd": None,
    }
    if k >= 3:
        f = stats.friedman_test(matrix)
        out["friedman"] = {"statistic": f.statistic, "df": f.df, "pvalue": f.pvalue}
    if k >= 3 and (args.tukey or args.test == "all"):
        h = stats.tukey_hsd(matrix, confidence=args.confidence)
        out["tukey_hsd"] = [
            {
                "a": matrix.systems[i],
                "b": matrix.systems[j],
                "mean_difference": float(h.mean_difference[i, j]),
                "ci_low": float(h.ci_low[i, j]),
                "ci_high": float(h.ci_high[i, j]),
                "pvalue": float(h.pvalue[i, j]),
            }
            for i in range(k)
            for j in range(i + 1, k)
        ]
    return out


def _letters(matrix, adjusted: np.ndarray, *, alpha: float, withheld: bool) -> dict[str, str]:
    """Each run's letters, named best first (by mean); with too few queries for any test
    (:func:`evaluation.core.caveats.min_queries_for_tests`) every run shares ``a``, as on
    the leaderboards."""
    order = np.argsort(-matrix.scores.mean(axis=1), kind="stable")
    ranked = adjusted[np.ix_(order, order)]
    if withheld:
        ranked = np.full_like(ranked, np.nan)
    try:
        letters = stats.compact_letters(stats.significant_pairs(ranked, alpha=alpha))
    except ValueError:  # too many letters to read: none (the p-values are printed)
        letters = [""] * len(order)
    return {matrix.systems[i]: text for i, text in zip(order, letters, strict=True)}


def _text(r: dict) -> str:
    resamples = r["resamples"]
    lines = [
        f"{r['measure']}: {len(r['systems'])} systems × {r['n_queries']} queries; "
        f"tests: {', '.join(r['tests'])} ({r['alternative']})"
        + (f"; {resamples} resamples, seed {r['seed']}" if resamples else "")
        + f"; p-values adjusted: {r['adjust']}",
        "",
    ]
    width = max(len(s) for s in r["systems"])
    for s, m in r["means"].items():
        lines.append(f"  {s:<{width}}  mean {m:.4f}  {r['letters'][s]}")
    lines.append(
        f"(runs that share a letter are not significantly different at α = {r['alpha']}, "
        f"{r['tests'][0]} test, {r['adjust']}-adjusted)"
    )
    lines += [f"warning: {w['message']}" for w in r["warnings"]]
    lines.append("")
    level = round(100 * r["confidence"])
    adjust = r["adjust"] != "none"
    header = f"{'A':<{width}}  {'B':<{width}}  {'Δ mean':>8}  {f'{level}% CI':^20}  {'CI':<9}"
    for t in r["tests"]:
        header += f"  {'p ' + t[:5]:>10}" + (f"  {'adj':>9}" if adjust else "")
    lines.append(header)

    def pv(x, t):
        if x == 0 and t in ("bootstrap", "permutation"):
            return f"<{1 / resamples:.2g}"
        return f"{x:.4g}"

    for p in r["pairs"]:
        row = (
            f"{p['a']:<{width}}  {p['b']:<{width}}  {p['mean_difference']:>8.4f}  "
            f"[{p['ci_low']:>8.4f}, {p['ci_high']:>8.4f}]  {_method(p):<9}"
        )
        for t in r["tests"]:
            row += f"  {pv(p['tests'][t]['pvalue'], t):>10}"
            if adjust:
                row += f"  {pv(p['tests'][t]['pvalue_adjusted'], t):>9}"
        lines.append(row)
    if adjust:
        lines.append(f"(adj: {r['adjust']}-adjusted over the {len(r['pairs'])} pairs)")
    lines.append("")
    first = r["tests"][0]
    rs = resamples if first in ("bootstrap", "permutation") else None
    for p in r["pairs"]:
        ci = stats.Interval(
            p["mean_difference"], p["ci_low"], p["ci_high"], p["margin"], r["confidence"], 0, 0,
            p["ci_method"],
        )  # fmt: skip
        label = f"{r['measure']}({p['a']} − {p['b']})"
        lines.append(
            "  "
            + stats.format_difference(label, ci, p["tests"][first]["pvalue"], resamples=rs)
            + f"  [{first}]"
        )
    if r["friedman"]:
        f = r["friedman"]
        lines += [
            "",
            f"Friedman: χ² = {f['statistic']:.4f}, df = {f['df']}, "
            f"{stats.format_pvalue(f['pvalue'])}",
        ]
    if r["tukey_hsd"]:
        lines += ["", f"Tukey HSD (two-way ANOVA, {level}% simultaneous intervals):"]
        for h in r["tukey_hsd"]:
            lines.append(
                f"{h['a']:<{width}}  {h['b']:<{width}}  {h['mean_difference']:>8.4f}  "
                f"[{h['ci_low']:>8.4f}, {h['ci_high']:>8.4f}]  p = {h['pvalue']:.4g}"
            )
    return "\n".join(lines) + "\n"


def _method(pair: dict) -> str:
    return "t" if pair["ci_method"] == "t" else "bootstrap"


def _csv(r: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "section",
            "a",
            "b",
            "test",
            "mean_difference",
            "ci_low",
            "ci_high",
            "statistic",
            "pvalue",
            "pvalue_adjusted",
            "ci_method",
            "letters",
        ]
    )
    for system, letters in r["letters"].items():
        w.writerow(["letters", system, "", r["tests"][0], *[""] * 7, letters])
    for p in r["pairs"]:
        for t in r["tests"]:
            tr = p["tests"][t]
            w.writerow(
                [
                    "pair",
                    p["a"],
                    p["b"],
                    t,
                    repr(p["mean_difference"]),
                    repr(p["ci_low"]),
                    repr(p["ci_high"]),
                    repr(tr["statistic"]),
                    repr(tr["pvalue"]),
                    repr(tr["pvalue_adjusted"]) if r["adjust"] != "none" else "",
                    p["ci_method"],
                    "",
                ]
            )
    if r["friedman"]:
        f = r["friedman"]
        w.writerow(
            [
                "friedman",
                "",
                "",
                "friedman",
                "",
                "",
                "",
                repr(f["statistic"]),
                repr(f["pvalue"]),
                "",
                "",
                "",
            ]
        )
    if r["tukey_hsd"]:
        for h in r["tukey_hsd"]:
            w.writerow(
                [
                    "tukey_hsd",
                    h["a"],
                    h["b"],
                    "tukey_hsd",
                    repr(h["mean_difference"]),
                    repr(h["ci_low"]),
                    repr(h["ci_high"]),
                    "",
                    repr(h["pvalue"]),
                    "",
                    "t",  # Tukey's simultaneous intervals rest on the studentized range
                    "",
                ]
            )
    return buf.getvalue()


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.resamples < 1:
        parser.error("--resamples must be positive")
    if not 0 < ns.confidence < 1:
        parser.error("--confidence must be in (0, 1)")
    if not 0 < ns.alpha < 1:
        parser.error("--alpha must be in (0, 1)")
    return run_on_matrix(
        parser, ns, min_runs=2, needs="comparing", compute=_compute, text=_text, csv=_csv
    )
