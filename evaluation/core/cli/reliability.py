"""``python -m evaluation.core reliability``: how reliable is this test collection?

Runs the G-study of the crossed systems × queries design (thesis eq. 6.3) and prints
the variance components (absolute and as proportions), Eρ² and Φ at the current number
of queries (eqs. 6.4, 6.5) and the number of queries needed to reach ``--target``
(eqs. 6.6, 6.7); ``--queries`` adds D-study points for other query set sizes.

Examples::

    python -m evaluation.core reliability qrels.txt runs/*.run -m 'CG_l@5' --target 0.95
    python -m evaluation.core reliability --scores per_query.tsv --format json
"""

from __future__ import annotations

import argparse
import csv
import io

from evaluation.core import stats
from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {text!r}"
        ) from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("query set sizes must be positive integers")
    return sizes


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m evaluation.core reliability",
        description="Generalizability Theory: variance components, Eρ² and Φ, and the number "
        "of queries needed for a target reliability (thesis ch. 6).",
    )
    add_input_arguments(p, min_runs=1)
    p.add_argument(
        "--target",
        type=float,
        default=0.95,
        help="target Eρ² and Φ for the number of queries needed (default: 0.95)",
    )
    p.add_argument(
        "--queries",
        type=_sizes,
        default=None,
        metavar="N[,N...]",
        help="also print the D-study at these query set sizes",
    )
    return p


def _needed(g, target, coefficient):
    try:
        return stats.queries_needed(g, target=target, coefficient=coefficient)
    except ValueError:
        return None  # no system variance: unreachable


def _compute(matrix, ns) -> dict:
    g = stats.g_study(matrix)
    nq = len(matrix.queries)
    sizes = sorted({nq, *(ns.queries or [])})
    d = stats.d_study(g, sizes)
    props = (
        g.proportions()
        if g.total > 0
        else {k: float("nan") for k in ("system", "query", "residual")}
    )
    return {
        "measure": matrix.measure,
        "n_systems": len(matrix.systems),
        "n_queries": nq,
        "components": {"system": g.system, "query": g.query, "residual": g.residual},
        "proportions": props,
        "mean_squares": {"system": g.ms_system, "query": g.ms_query, "residual": g.ms_residual},
        "e_rho2": float(d.e_rho2[sizes.index(nq)]),
        "phi": float(d.phi[sizes.index(nq)]),
        "target": ns.target,
        "queries_needed": {
            "e_rho2": _needed(g, ns.target, "e_rho2"),
            "phi": _needed(g, ns.target, "phi"),
        },
        "d_study": [
            {"n_queries": int(n), "e_rho2": float(e), "phi": float(f)}
            for n, e, f in zip(d.n_queries, d.e_rho2, d.phi, strict=True)
        ],
    }


def _text(r: dict) -> str:
    c, p = r["components"], r["proportions"]
    need = r["queries_needed"]

    def fmt_need(n):
        return str(n) if n is not None else "unreachable (no system variance)"

    lines = [
        f"{r['measure']}: G-study of {r['n_systems']} systems × {r['n_queries']} queries "
        "(crossed design, thesis eq. 6.3)",
        "",
        f"{'component':<22}{'variance':>12}{'proportion':>12}",
        f"{'system σ²_s':<22}{c['system']:>12.6f}{p['system']:>12.3f}",
        f"{'query σ²_q':<22}{c['query']:>12.6f}{p['query']:>12.3f}",
        f"{'residual σ²_e (s×q)':<22}{c['residual']:>12.6f}{p['residual']:>12.3f}",
        "",
        f"Eρ² = {r['e_rho2']:.4f}   Φ = {r['phi']:.4f}   (n_q = {r['n_queries']})",
        f"queries needed for Eρ² ≥ {r['target']}: {fmt_need(need['e_rho2'])}",
        f"queries needed for Φ ≥ {r['target']}: {fmt_need(need['phi'])}",
    ]
    if len(r["d_study"]) > 1:
        lines += ["", f"{'n_q':>6}{'Eρ²':>10}{'Φ':>10}"]
        lines += [f"{d['n_queries']:>6}{d['e_rho2']:>10.4f}{d['phi']:>10.4f}" for d in r["d_study"]]
    return "\n".join(lines) + "\n"


def _csv(r: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["quantity", "n_queries", "value"])
    for k in ("system", "query", "residual"):
        w.writerow([f"variance_{k}", r["n_queries"], repr(r["components"][k])])
        w.writerow([f"proportion_{k}", r["n_queries"], repr(r["proportions"][k])])
    for d in r["d_study"]:
        w.writerow(["e_rho2", d["n_queries"], repr(d["e_rho2"])])
        w.writerow(["phi", d["n_queries"], repr(d["phi"])])
    for k in ("e_rho2", "phi"):
        n = r["queries_needed"][k]
        w.writerow([f"queries_needed_{k}@{r['target']}", "", "" if n is None else n])
    return buf.getvalue()


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if not 0 < ns.target < 1:
        parser.error("--target must be in (0, 1)")
    return run_on_matrix(
        parser, ns, min_runs=1, needs="a G-study", compute=_compute, text=_text, csv=_csv
    )
