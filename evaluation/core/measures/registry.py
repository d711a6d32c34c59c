"""From a parsed measure name to per-query scores of one matched run.

This is the only place that knows which kernel, scale, gain and ideal ranking a
:class:`~evaluation.core.names.Measure` means; the kernels themselves stay pure
functions of ``(n_queries, depth)`` matrices.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

import numpy as np

from evaluation.core.measures import adr, binary, cascade, gain, gap, inferred, qmeasure
from evaluation.core.measures.bpref import bpref, bpref_10, bpref_star
from evaluation.core.measures.ideal import ideal_levels
from evaluation.core.names import Measure
from evaluation.core.ranking import RankedJudgments
from evaluation.core.scales import Scale, get_gain, get_scale


class _Inputs:
    """The matrices one measure needs, derived lazily from the matched run."""

    def __init__(self, measure: Measure, ranked: RankedJudgments) -> None:
        self.m, self.r = measure, ranked
        self.k = measure.k
        threshold = measure.option("rel")
        self.level = 1.0 if threshold is None else float(threshold)
        default = ranked.qrels.default
        name = measure.option("scale") or default
        # graded measures turn rel=ℓ into a binary scale; binary ones threshold the levels
        split = measure.option("split")
        self.scale: Scale = get_scale(name, threshold=threshold, split=split)
        self.plain_scale: Scale = get_scale(name, split=split)
        self.column = self.scale.source if name != default else default

    @cached_property
    def values(self) -> np.ndarray:
        return self.r.values(self.column)

    @cached_property
    def judged_values(self) -> np.ndarray:
        return self.r.judged_values(self.column)  # -1 where nothing is judged

    @cached_property
    def levels(self) -> np.ndarray:
        # shared by the measures of one evaluation: a (queries x depth) pass each
        return self.r.cached(
            ("levels", self.scale, self.column), lambda: self.scale.levels(self.values)
        )

    @cached_property
    def judged_levels(self) -> np.ndarray:
        return self.scale.levels(self.judged_values)

    @cached_property
    def top_level(self) -> float:
        return self.scale.top_level(np.maximum(self.r.qrels.column(self.column), 0.0))

    @cached_property
    def relevant(self) -> np.ndarray:
        return self.r.cached(
            ("relevant", self.plain_scale, self.column, self.level),
            lambda: (self.plain_scale.levels(self.values) >= self.level).astype(np.float64),
        )

    @cached_property
    def _plain_judged(self) -> np.ndarray:
        return self.plain_scale.levels(self.judged_values)

    @cached_property
    def num_rel(self) -> np.ndarray:
        return ((self._plain_judged >= self.level) & (self.judged_values >= 0)).sum(axis=1)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        return ((self._plain_judged < self.level) & (self.judged_values >= 0)).sum(axis=1)

    @cached_property
    def judged(self) -> np.ndarray:
        return self.r.judged(self.column)

    @property
    def gain(self):
        return get_gain(self.m.option("gain"))

    @property
    def gains(self) -> np.ndarray:
        return self.gain(self.levels)

    @property
    def max_gain(self) -> float:
        return float(self.gain(np.array([self.top_level]))[0])

    def ideal(self, k: int | None = None) -> np.ndarray:
        k = k or self.k
        return ideal_levels(
            self.judged_levels, k=k, form=self.m.option("form"), top_level=self.top_level
        )


def _ap(x: _Inputs) -> np.ndarray:
    if x.k is None:  # trec_eval map, eq. (2.3)
        return binary.average_precision(x.relevant, k=None, normaliser=x.num_rel)
    normaliser = x.k if x.m.option("form") == "user" else np.minimum(x.k, x.num_rel)
    return binary.average_precision(x.relevant, k=x.k, normaliser=normaliser)


def _inferred_ap(x: _Inputs) -> np.ndarray:
    # trec_eval: a negative judgment is "in the pool but unjudged", a document without
    # one is outside the pool
    unjudged = (x.r.match >= 0) & (x.values < 0)
    relevant = (x.relevant > 0) & x.judged
    return inferred.inferred_ap(relevant, x.judged & ~relevant, unjudged, num_rel=x.num_rel)


def _ndcg(x: _Inputs) -> np.ndarray:
    ideal = x.gain(x.judged_levels)
    return gain.ndcg(x.gains, k=x.k, ideal_gains=ideal)


def _adr(x: _Inputs) -> np.ndarray:
    if x.k is not None:
        return adr.average_dynamic_recall(x.levels, k=x.k, ideal_levels=x.ideal())
    if x.m.option("form") == "user":  # k documents of maximal relevance need a k
        raise ValueError("ADR(form=user) needs a cut-off: ADR(form=user)@k")
    ideal = ideal_levels(x.judged_levels, k=None, form="system")
    return adr.average_dynamic_recall_at_n(x.levels, ideal_levels=ideal)


KERNELS: dict[str, Callable[[_Inputs], np.ndarray]] = {
    "P": lambda x: binary.precision(x.relevant, k=x.k),
    "AP": _ap,
    "RR": lambda x: binary.reciprocal_rank(x.relevant, k=x.k),
    "R": lambda x: binary.recall(x.relevant, k=x.k, num_rel=x.num_rel),
    "Rprec": lambda x: binary.r_precision(x.relevant, num_rel=x.num_rel),
    "CG": lambda x: gain.cumulative_gain(x.gains, k=x.k, max_gain=x.max_gain),
    "DCG": lambda x: gain.dcg(x.gains, k=x.k, max_gain=x.max_gain),
    "nDCG": _ndcg,
    "Q": lambda x: qmeasure.q_measure(
        x.gains, k=x.k, beta=x.m.option("beta"), ideal_gains=x.gain(x.ideal())
    ),
    "RBP": lambda x: gain.rank_biased_precision(
        x.gains, k=x.k, p=x.m.option("p"), ideal_gains=x.gain(x.ideal())
    ),
    "ERR": lambda x: cascade.expected_reciprocal_rank(
        x.gains, k=x.k, max_gain=x.max_gain, ideal_gains=x.gain(x.ideal())
    ),
    "EDCG": lambda x: cascade.expected_dcg(
        x.gains, k=x.k, max_gain=x.max_gain, ideal_gains=x.gain(x.ideal())
    ),
    "GAP": lambda x: gap.graded_average_precision(
        x.levels, k=x.k, ideal_levels=x.ideal(), top_level=int(x.top_level)
    ),
    "ADR": lambda x: _adr(x),
    "bpref": lambda x: bpref(
        x.relevant, x.judged, num_rel=x.num_rel, num_nonrel=x.num_nonrel, k=x.k
    ),
    "bpref10": lambda x: bpref_10(x.relevant, x.judged, num_rel=x.num_rel, k=x.k),
    "bpref_star": lambda x: bpref_star(
        x.relevant, x.judged, num_rel=x.num_rel, answer_length=x.r.retrieved, k=x.k
    ),
    # ir_measures' Judged@k: P@k where "relevant" is "has a non-negative judgment"
    # trec_eval's map_cut.k: AP at k over every relevant document, eq. (2.3) cut at k
    "map_cut": lambda x: binary.average_precision(x.relevant, k=x.k, normaliser=x.num_rel),
    "infAP": _inferred_ap,
    "Judged": lambda x: binary.precision(x.judged.astype(np.float64), k=x.k),
    "num_rel": lambda x: x.num_rel.astype(np.float64),
    "num_rel_ret": lambda x: x.relevant.sum(axis=1),
}


#: Families whose scores for a query can depend, in the last bits, on the other queries
#: of the matrix: GAP weights its thresholds by the levels found in the whole matrix.
#: The others compute row by row and can be given a few queries at a time.
WHOLE_MATRIX = frozenset({"GAP"})


def compute(measure: Measure, ranked: RankedJudgments) -> np.ndarray:
    """Per-query scores of ``measure`` for a matched run (aligned with ``ranked.queries``)."""
    if measure.family == "num_q":
        return np.ones(len(ranked.queries))
    if measure.family == "num_ret":
        return ranked.retrieved.astype(np.float64)
    return KERNELS[measure.family](_Inputs(measure, ranked))
