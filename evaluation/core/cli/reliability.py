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

from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix
from evaluation.core.results import reliability


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


def _compute(matrix, ns) -> dict:
    """The reliability document of :func:`evaluation.core.results.reliability` — the same
    keys as the results pages' (``erho2``, ``phi``, ``needed``, ``curve``, ``warnings``);
    its curve holds the collection's size and the ``--queries`` sizes."""
    sizes = {len(matrix.queries), *(ns.queries or [])}
    return reliability(matrix, target=ns.target, sizes=sizes).to_dict()


def _text(r: dict) -> str:
    c = {component["key"]: component for component in r["components"]}
    need = r["needed"]

    def fmt_need(n):
        return str(n) if n is not None else "unreachable (no system variance)"

    def fmt(x, digits):
        return "-" if x is None else f"{x:.{digits}f}"

    def row(label, key):
        return f"{label:<22}{c[key]['variance']:>12.6f}{fmt(c[key]['proportion'], 3):>12}"

    lines = [
        f"{r['measure']}: G-study of {r['n_systems']} systems × {r['n_queries']} queries "
        "(crossed design, thesis eq. 6.3)",
        "",
        f"{'component':<22}{'variance':>12}{'proportion':>12}",
        row("system σ²_s", "system"),
        row("query σ²_q", "query"),
        row("residual σ²_e (s×q)", "residual"),
        "",
        f"Eρ² = {fmt(r['erho2'], 4)}   Φ = {fmt(r['phi'], 4)}   (n_q = {r['n_queries']})",
        f"queries needed for Eρ² ≥ {r['target']}: {fmt_need(need['erho2'])}",
        f"queries needed for Φ ≥ {r['target']}: {fmt_need(need['phi'])}",
    ]
    lines += [f"warning: {w['message']}" for w in r["warnings"]]
    curve = r["curve"]
    if len(curve["queries"]) > 1:
        lines += ["", f"{'n_q':>6}{'Eρ²':>10}{'Φ':>10}"]
        lines += [
            f"{n:>6}{fmt(e, 4):>10}{fmt(f, 4):>10}"
            for n, e, f in zip(curve["queries"], curve["erho2"], curve["phi"], strict=True)
        ]
    return "\n".join(lines) + "\n"


def _csv(r: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["quantity", "n_queries", "value"])

    def cell(x):
        return "" if x is None else repr(x)

    for c in r["components"]:
        w.writerow([f"variance_{c['key']}", r["n_queries"], repr(c["variance"])])
        w.writerow([f"proportion_{c['key']}", r["n_queries"], cell(c["proportion"])])
    curve = r["curve"]
    for n, e, f in zip(curve["queries"], curve["erho2"], curve["phi"], strict=True):
        w.writerow(["erho2", n, cell(e)])
        w.writerow(["phi", n, cell(f)])
    for k in ("erho2", "phi"):
        n = r["needed"][k]
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
