"""``list_score``: λ of artificial ranked lists through ``evaluation.core``'s measures.

The example generator (thesis §3.2.1) needs the effectiveness of lists that no system
produced. Each list becomes a one-query "run" whose judgments are exactly its own k
clips, and :func:`evaluation.core.measures.registry.compute` scores it — the same
kernels, scales and gains as everywhere else in Earshot; nothing is re-implemented here.

Because a measure sees only the list's own judgments, only **user-oriented** measures
(thesis ch. 3: the ideal is k documents of the top level) make sense: ``P``, ``CG``,
``DCG`` (normalised by k·g(top)), and ``AP``, ``Q``, ``RBP``, ``ERR``, ``EDCG``, ``GAP``,
``ADR`` with ``form=user``. Measures normalised by the full judgments (``nDCG``, ``R``,
``Rprec``, ``bpref*``, ``form=system``) are refused, as is the ``raw`` scale (its top
level would come from the list itself). Names as in :mod:`evaluation.core.names`, e.g.
``P(rel=60,scale=fine)@5``, ``CG(scale=fine)@5``, ``RBP(form=user,scale=graded4)@5``.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.measures.registry import compute
from evaluation.core.names import FAMILIES, Measure, parse_measure
from evaluation.core.ranking import RankedJudgments
from evaluation.core.trec.model import Qrels

USER_ORIENTED = {"P", "RR", "CG", "DCG", "AP", "Q", "RBP", "ERR", "EDCG", "GAP", "ADR"}
FINE_SCALES = {"fine", "graded3", "graded4", "graded5"}


def user_measure(name: str) -> Measure:
    """Parse ``name`` and refuse what cannot score a list on its own Fine judgments."""
    measure = parse_measure(name)
    if measure.family not in USER_ORIENTED or measure.k is None:
        raise ValueError(f"{name}: the generator needs a user-oriented measure with a cut-off")
    if "form" in FAMILIES[measure.family].options and measure.option("form") != "user":
        raise ValueError(f"{name}: add form=user (the generator's lists have no other judgments)")
    if measure.option("scale") not in FINE_SCALES:
        raise ValueError(f"{name}: give scale=fine or graded3..5 (lists are judged on Fine)")
    return measure


def list_score(measure: str, fine: np.ndarray) -> np.ndarray:
    """λ of each row of ``fine`` (``(n_lists, k)`` Fine judgments, in rank order)."""
    parsed = user_measure(measure)
    fine = np.asarray(fine, dtype=np.float64)
    n, depth = fine.shape
    names = [f"list{i:09d}" for i in range(n)]
    qrels = Qrels.from_arrays(
        np.repeat(names, depth),
        np.tile([f"rank{r}" for r in range(depth)], n),
        {"fine": fine.ravel()},
        default="fine",
    )
    if list(qrels.query_ids) != names:  # the rows below assume the lists keep their order
        raise AssertionError("unexpected order of the lists")
    match = qrels.offsets[:-1, None] + np.arange(depth)[None, :]
    ranked = RankedJudgments(
        qrels, tuple(names), match, np.full(n, depth, dtype=np.int64), np.arange(n)
    )
    return compute(parsed, ranked)
