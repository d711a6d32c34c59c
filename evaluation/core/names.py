"""Measure names, parsed like ir_measures (``nDCG@10``, ``RBP(p=0.8)@5``) or trec_eval
(``ndcg_cut.10``, ``P_5``, ``map``).

Measures of the thesis take options in parentheses:

=============  ================================================================
``gain``       ``lin`` (default) or ``exp``, for CG, DCG, nDCG, Q, RBP, ERR, EDCG
``rel``        ℓ_min: binary scale, relevant when the level is at least ℓ_min
``form``       ``system`` (default, thesis ch. 5) or ``user`` (thesis ch. 3)
``scale``      ``raw`` (as judged), ``broad``, ``fine``, ``graded3..5``
``split``      how a graded scale splits Fine: ``range`` (default) or ``cells``
               (:mod:`evaluation.core.scales`, thesis §3.1.2)
``p``          RBP persistence (default 0.8); ``beta`` Q-measure β (default 1)
=============  ================================================================

Without ``form`` a measure is system-oriented, so ``nDCG@10`` equals trec_eval's
``ndcg_cut.10``. Beware that ``AP@k`` is the thesis' AP@k (eq. 5.6, normalised by
min(k, R)), not ir_measures' ``AP@k`` (trec_eval ``map_cut.k``, normalised by R);
``AP`` without a cut-off is trec_eval's ``map``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evaluation.core.measures.ideal import FORMS
from evaluation.core.scales import GAINS, GRADED, GRADED_SPLITS, SCALE_NAMES, get_scale


@dataclass(frozen=True)
class Family:
    """What a measure name may carry: a cut-off (required or not) and which options."""

    name: str
    options: tuple[str, ...]
    cutoff: str  # "required", "optional" or "none"
    description: str


_COMMON = ("rel", "scale", "split")
FAMILIES = {
    f.name: f
    for f in [
        Family("P", _COMMON, "required", "precision, eq. (2.2)"),
        Family(
            "AP", (*_COMMON, "form"), "optional", "average precision, eqs. (3.1)/(5.6); no k: map"
        ),
        Family("RR", _COMMON, "optional", "reciprocal rank, eq. (3.2)"),
        Family("R", _COMMON, "required", "recall at k"),
        Family("Rprec", _COMMON, "none", "R-precision"),
        Family("CG", (*_COMMON, "gain"), "required", "cumulative gain, eq. (3.3)"),
        Family("DCG", (*_COMMON, "gain"), "required", "discounted cumulative gain, eq. (3.4)"),
        Family("nDCG", (*_COMMON, "gain"), "optional", "normalised DCG, eq. (2.10)"),
        Family("Q", (*_COMMON, "gain", "form", "beta"), "required", "Q-measure, eqs. (3.5)/(5.7)"),
        Family(
            "RBP", (*_COMMON, "gain", "form", "p"), "required", "rank-biased precision, (3.6)/(5.8)"
        ),
        Family(
            "ERR", (*_COMMON, "gain", "form"), "required", "expected reciprocal rank, eq. (3.7)"
        ),
        Family("EDCG", (*_COMMON, "gain", "form"), "required", "expected DCG, eq. (3.10)"),
        Family("GAP", (*_COMMON, "form"), "required", "graded average precision, (3.8)/(5.9)"),
        Family(
            "ADR",
            (*_COMMON, "form"),
            "optional",
            "average dynamic recall, (3.9)/(2.17); no k: over the ground truth's n items",
        ),
        Family("bpref", _COMMON, "optional", "bpref (trec_eval)"),
        Family("bpref10", _COMMON, "optional", "bpref-10 (Buckley & Voorhees 2004)"),
        Family("bpref_star", _COMMON, "optional", "bpref* (Serra 2007, eq. 1)"),
        Family("map_cut", _COMMON, "required", "trec_eval map_cut.k: AP at k over all relevant"),
        Family("infAP", _COMMON, "none", "inferred AP (trec_eval infAP; Yilmaz & Aslam 2006)"),
        Family(
            "Judged",
            ("scale", "split"),
            "required",
            "fraction of the top k with a judgment: ÷ k for a shorter list, trec_eval's tie "
            "order, negative = unjudged (ir_measures: ÷ the list's length, ids ascending, "
            "negative = judged; evaluation.core.judged)",
        ),
        Family("num_q", (), "none", "number of queries (summed)"),
        Family("num_ret", (), "none", "documents retrieved (summed)"),
        Family("num_rel", _COMMON, "none", "relevant documents (summed)"),
        Family("num_rel_ret", _COMMON, "none", "relevant documents retrieved (summed)"),
    ]
}

ALIASES = {
    "ndcg": "nDCG",
    "NDCG": "nDCG",
    "map": "AP",
    "MAP": "AP",
    "recip_rank": "RR",
    "MRR": "RR",
    "Bpref": "bpref",
    "bpref-10": "bpref10",
    "bpref*": "bpref_star",
    "R-Prec": "Rprec",
    "Recall": "R",
    "NumQ": "num_q",
    "NumRet": "num_ret",
    "NumRel": "num_rel",
    "NumRelRet": "num_rel_ret",
}
TREC_CUTOFF = {"P": "P", "recall": "R", "ndcg_cut": "nDCG", "map_cut": "map_cut"}
TREC_PLAIN = {
    "map",
    "infAP",
    "recip_rank",
    "Rprec",
    "bpref",
    "ndcg",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
}
DEFAULTS = {"gain": "lin", "form": "system", "p": 0.8, "beta": 1.0, "split": "range"}
SUMMED = {"num_q", "num_ret", "num_rel", "num_rel_ret"}
#: Families that only see relevant / not relevant (level >= rel, default 1).
BINARY = {
    "P", "AP", "RR", "R", "Rprec", "bpref", "bpref10", "bpref_star", "num_rel_ret", "map_cut",
    "infAP", "Judged",
}  # fmt: skip


class MeasureNameError(ValueError):
    """An unknown measure name or option; the message lists what is valid."""


@dataclass(frozen=True)
class Measure:
    """A parsed measure: family, cut-off and options (sorted ``(name, value)`` pairs).

    ``label`` is how results name it: the canonical ir_measures-style name, or the
    trec_eval name (``P_5``, ``ndcg_cut_10``) when it was asked for that way.
    """

    family: str
    k: int | None = None
    options: tuple[tuple[str, object], ...] = ()
    label: str = ""

    def option(self, name: str, default=None):
        return dict(self.options).get(name, DEFAULTS.get(name, default))

    @property
    def key(self) -> tuple:
        """Identity with defaults filled in: ``RBP@5`` and ``RBP(p=0.8)@5`` share it."""
        allowed = FAMILIES[self.family].options
        return (self.family, self.k, tuple((o, self.option(o)) for o in allowed))

    @property
    def relevance_levels(self) -> int | None:
        """How many relevance levels the measure tells apart: 2 for a binary measure or a
        ``rel=ℓ`` scale, else the scale's :math:`n_\\mathcal{L}` (``None`` when the scale
        is ``raw`` or left to the judgments' default column).

        >>> parse_measure("CG(scale=graded4)@5").relevance_levels
        4
        >>> parse_measure("P(scale=fine)@5").relevance_levels, parse_measure("nDCG@5").relevance_levels
        (2, None)
        """
        if self.family in BINARY or self.option("rel") is not None:
            return 2
        scale = self.option("scale")
        return get_scale(scale).levels_count if scale else None

    @property
    def summed(self) -> bool:
        """Aggregated over queries by a sum (trec_eval's counts) instead of a mean."""
        return self.family in SUMMED

    def __str__(self) -> str:
        return self.label


def with_options(measure: Measure, **options) -> Measure:
    """``measure`` with ``options`` set (replacing those it had), under its canonical name.

    >>> with_options(parse_measure("CG@5"), scale="fine").label
    'CG(scale=fine)@5'
    """
    merged = {**dict(measure.options), **options}
    return _parse_ir(_canonical(measure.family, measure.k, merged))


def _canonical(family: str, k: int | None, options: dict) -> str:
    text = family
    if options:
        text += "(" + ",".join(f"{key}={_show(options[key])}" for key in sorted(options)) + ")"
    return f"{text}@{k}" if k is not None else text


def _show(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _valid_names() -> str:
    return (
        ", ".join(FAMILIES)
        + "; trec_eval: "
        + ", ".join(sorted(TREC_PLAIN) + [f"{t}.k" for t in TREC_CUTOFF])
    )


def _parse_value(family: str, key: str, raw: str):
    if key in ("p", "beta", "rel"):
        try:
            value = float(raw)
        except ValueError:
            raise MeasureNameError(
                f"{family}: option {key} must be a number, got {raw!r}"
            ) from None
        if key == "p" and not 0 < value < 1:
            raise MeasureNameError(f"{family}: p must be in (0, 1), got {raw}")
        return value
    valid = {"gain": tuple(GAINS), "form": FORMS, "scale": SCALE_NAMES, "split": GRADED_SPLITS}[key]
    if raw not in valid:
        raise MeasureNameError(f"{family}: {key}={raw!r} is not valid; valid: {', '.join(valid)}")
    return raw


_IR = re.compile(r"^(?P<name>[A-Za-z_][\w*-]*?)(?:\((?P<opts>[^)]*)\))?(?:@(?P<k>\d+))?$")
_TREC = re.compile(r"^(?P<name>P|recall|ndcg_cut|map_cut)[._](?P<ks>\d+(?:,\d+)*)$")


def parse_measures(text: str) -> list[Measure]:
    """Parse one name, expanding trec_eval's cut-off lists (``P.5,10`` gives P_5 and P_10).

    >>> [m.label for m in parse_measures("ndcg_cut.5,10")]
    ['ndcg_cut_5', 'ndcg_cut_10']
    """
    text = text.strip()
    match = _TREC.match(text)
    if match:
        name = match["name"]
        return [
            Measure(TREC_CUTOFF[name], int(k), (), f"{name}_{k}") for k in match["ks"].split(",")
        ]
    if text in TREC_PLAIN:
        return [Measure(ALIASES.get(text, text), None, (), text)]
    return [_parse_ir(text)]


def parse_measure(text: str) -> Measure:
    """Parse a measure name.

    >>> parse_measure("nDCG@10")
    Measure(family='nDCG', k=10, options=(), label='nDCG@10')
    >>> parse_measure("RBP(p=0.8)@5").option("p")
    0.8
    >>> parse_measure("P.5").label
    'P_5'
    """
    measures = parse_measures(text)
    if len(measures) != 1:
        raise MeasureNameError(f"{text!r} names {len(measures)} measures; give one cut-off")
    return measures[0]


def _parse_ir(text: str) -> Measure:
    match = _IR.match(text)
    family = ALIASES.get(match["name"], match["name"]) if match else None
    if family not in FAMILIES:
        raise MeasureNameError(f"unknown measure {text!r}; valid: {_valid_names()}")
    spec = FAMILIES[family]
    k = int(match["k"]) if match["k"] else None
    if k is not None and spec.cutoff == "none":
        raise MeasureNameError(f"{family} takes no cut-off (@k)")
    if k is None and spec.cutoff == "required":
        raise MeasureNameError(f"{family} needs a cut-off, e.g. {family}@5")
    if k is not None and k < 1:
        raise MeasureNameError(f"{text}: the cut-off must be at least 1")
    options: dict = {}
    for item in filter(None, (s.strip() for s in (match["opts"] or "").split(","))):
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or key not in spec.options:
            valid = ", ".join(spec.options) or "none"
            raise MeasureNameError(f"{family}: unknown option {item!r}; valid options: {valid}")
        options[key] = _parse_value(family, key, raw.strip())
    if "split" in options and options.get("scale") not in GRADED:
        raise MeasureNameError(f"{family}: split applies to scale={', '.join(GRADED)} only")
    if family == "AP" and k is None and "form" in options:
        raise MeasureNameError("AP without a cut-off is trec_eval's map; form needs AP@k")
    return Measure(family, k, tuple(sorted(options.items())), _canonical(family, k, options))
