"""``python -m evaluation.core reliability``: how reliable is this test collection?

Runs the G-study of the crossed systems × queries design (thesis eq. 6.3) and prints
the variance components (absolute and as proportions), Eρ² and Φ at the current number
of queries (eqs. 6.4, 6.5) and the number of queries needed to reach ``--target``
(eqs. 6.6, 6.7); ``--queries`` adds D-study points for other query set sizes.

With ``--nested`` the judgments name their assessor (``query assessor doc fine [broad]``)
and the G-study is that of systems × (assessors nested in queries), thesis §6.4 (eqs.
6.8–6.10): five variance components, and the D-study for 1 to 5 assessors per query
(:mod:`evaluation.core.assessor_judgments`, :func:`evaluation.core.reliability.
reliability_nested`); the JSON has the keys of the reliability page's nested study.

Examples::

    python -m evaluation.core reliability qrels.txt runs/*.run -m 'CG_l@5' --target 0.95
    python -m evaluation.core reliability --scores per_query.tsv --format json
    python -m evaluation.core reliability --nested assessors.tsv runs.tsv -m 'CG(scale=fine)@5'
"""

from __future__ import annotations

import argparse
import csv
import io
import sys

from evaluation.core.assessor_judgments import (
    assessor_slots,
    nested_scores,
    read_assessor_judgments,
)
from evaluation.core.cli.inputs import describe
from evaluation.core.cli.output import integer_list, print_document
from evaluation.core.cli.scoretable import add_input_arguments, run_on_matrix
from evaluation.core.names import parse_measure
from evaluation.core.reliability import reliability_nested
from evaluation.core.results import reliability
from evaluation.core.trec.readers import read_run_files

_sizes = integer_list(minimum=1, problem="query set sizes must be positive integers")


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
    p.add_argument(
        "--nested",
        action="store_true",
        help="QRELS names each judgment's assessor ('query assessor doc fine [broad]'): the "
        "G-study of systems × (assessors nested in queries), thesis §6.4",
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


def nested(ns) -> dict:
    """The nested reliability document of the judgments and runs the arguments name."""
    measure = parse_measure(ns.measure)
    slots = assessor_slots(read_assessor_judgments(ns.inputs[0]))
    runs = read_run_files(ns.inputs[1:])
    systems, queries, X = nested_scores(slots, runs, measure)
    sizes = {len(queries), *(ns.queries or [])}
    return reliability_nested(
        X, measure=measure.label, systems=systems, queries=queries, target=ns.target,
        sizes=sizes, left_out=slots.left_out,
    ).to_dict()  # fmt: skip


def nested_text(r: dict) -> str:
    lines = [
        f"{r['measure']}: G-study of {r['n_systems']} systems × ({r['n_assessors']} assessors "
        f"nested in {r['n_queries']} queries) (thesis §6.4, eq. 6.8)",
        "",
        f"{'component':<38}{'variance':>12}{'proportion':>12}",
    ]
    for c in r["components"]:
        share = "-" if c["proportion"] is None else f"{c['proportion']:.3f}"
        lines.append(f"{c['name']:<38}{c['variance']:>12.6f}{share:>12}")
    fmt = lambda x: "-" if x is None else f"{x:.4f}"  # noqa: E731
    need = r["needed"]
    lines += [
        "",
        f"Eρ² = {fmt(r['erho2'])}   Φ = {fmt(r['phi'])}   (eq. 6.10: n_q = {r['n_queries']}, "
        f"n_h = {r['n_assessors']})",
        f"queries needed for Eρ² ≥ {r['target']}: {need['erho2'] or 'unreachable'}",
        f"queries needed for Φ ≥ {r['target']}: {need['phi'] or 'unreachable'}",
        r["report"],
    ]
    if r["left_out"]:
        shown = ", ".join(f"{q} ({n})" for q, n in list(r["left_out"].items())[:10])
        lines.append(f"left out (fewer assessors): {shown}")
    return "\n".join(lines) + "\n"


def _nested_main(parser, ns) -> int:
    if ns.scores or len(ns.inputs) < 2 or not ns.measure:
        parser.error("--nested needs the judgments with assessors, RUN file(s) and -m MEASURE")
    if ns.format == "csv":
        parser.error("--nested prints text or json")
    try:
        doc = nested(ns)
    except (ValueError, OSError) as error:  # FormatError is a ValueError
        print(f"error: {describe(error)}", file=sys.stderr)
        return 1
    print_document(doc, ns.format, text=nested_text, csv=None)
    return 0


def main(args: list[str]) -> int:
    parser = build_parser()
    ns = parser.parse_args(args)
    if not 0 < ns.target < 1:
        parser.error("--target must be in (0, 1)")
    if ns.nested:
        return _nested_main(parser, ns)
    return run_on_matrix(
        parser, ns, min_runs=1, needs="a G-study", compute=_compute, text=_text, csv=_csv
    )
