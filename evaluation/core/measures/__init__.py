"""Effectiveness measures as pure functions over ``(n_queries, depth)`` matrices.

One module per family: :mod:`.binary` (P, AP, RR, R-precision, recall), :mod:`.gain`
(CG, DCG, nDCG, RBP), :mod:`.qmeasure`, :mod:`.cascade` (ERR, EDCG), :mod:`.gap`,
:mod:`.adr` (including Typke's partially ordered ground truth), :mod:`.bpref` (bpref,
bpref-10, bpref*), :mod:`.lift` (Normalized Lift Curve), :mod:`.segments` (Aly et al.'s
segment-based measures). :mod:`.ideal` builds the ideal ranking that distinguishes the
user- and system-oriented forms; :mod:`.registry` maps measure names to kernels.
"""

from evaluation.core.measures.adr import average_dynamic_recall, average_dynamic_recall_groups
from evaluation.core.measures.binary import (
    average_precision,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
)
from evaluation.core.measures.bpref import bpref, bpref_10, bpref_star
from evaluation.core.measures.cascade import expected_dcg, expected_reciprocal_rank
from evaluation.core.measures.gain import cumulative_gain, dcg, ndcg, rank_biased_precision
from evaluation.core.measures.gap import graded_average_precision
from evaluation.core.measures.ideal import ideal_levels
from evaluation.core.measures.lift import normalized_lift_curve
from evaluation.core.measures.qmeasure import q_measure
from evaluation.core.measures.segments import segment_judgments, segment_measures

__all__ = [
    "average_dynamic_recall",
    "average_dynamic_recall_groups",
    "average_precision",
    "bpref",
    "bpref_10",
    "bpref_star",
    "cumulative_gain",
    "dcg",
    "expected_dcg",
    "expected_reciprocal_rank",
    "graded_average_precision",
    "ideal_levels",
    "ndcg",
    "normalized_lift_curve",
    "precision",
    "q_measure",
    "r_precision",
    "rank_biased_precision",
    "recall",
    "reciprocal_rank",
    "segment_judgments",
    "segment_measures",
]
