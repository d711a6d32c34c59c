"""How much of each system's top k was judged, beside a leaderboard.

A leaderboard warns about unjudged documents in the top k (they score 0, so the
system's score is a lower bound; :func:`evaluation.core.caveats.unjudged_documents`).
It reads ir_measures' ``Judged@k`` on the measure's scale and depth
(:func:`judged_label`), over the whole lists even when the scores leave unjudged
documents out (``-J``, where every Judged@k would be 1), and how much of each top k holds
a document at all (:func:`judged_summary`: the empty ranks of a shorter list are no
unjudged documents). The results pages (:mod:`evaluation.services.leaderboards`) and the
command line's ``leaderboard`` and ``compare`` give the same figures.

Earshot's ``Judged@k`` differs from ir_measures' ``Judged@k`` in three conventions:

- a list shorter than k: the judged documents are divided by k here (the empty ranks
  count as not judged, as P@k counts them as not relevant), by the list's length there;
- the order of documents tied in score at the cut-off: trec_eval's here (score
  descending, then document id descending), document id ascending there;
- negative judgments (trec_eval's "in the pool but unjudged"): not judged here, judged
  there.
"""

from __future__ import annotations

import numpy as np

from evaluation.core.names import parse_measure
from evaluation.core.scores import ScoreMatrix

__all__ = ["judged_label", "judged_summary"]


def judged_label(label: str, *, default_scale: str) -> tuple[str, int] | None:
    """The ir_measures ``Judged@k`` on the scale and depth of measure ``label``, and k.

    >>> judged_label("CG(scale=fine)@5", default_scale="raw")
    ('Judged(scale=fine)@5', 5)
    """
    measure = parse_measure(label)
    if measure.k is None or measure.family in ("Judged", "num_q", "num_ret"):
        return None
    scale = measure.option("scale") or default_scale
    return parse_measure(f"Judged(scale={scale})@{measure.k}").label, measure.k


def judged_summary(
    judged: ScoreMatrix, retrieved: ScoreMatrix, *, k: int, queries, pool_filters=()
) -> dict:
    """The ``judged`` argument of :func:`evaluation.core.results.leaderboard`.

    ``judged`` holds Judged@k and ``retrieved`` num_ret (the length of each list) per
    system and query; both are read on ``queries`` (the leaderboard's).

    >>> q = ("q1", "q2")
    >>> j = ScoreMatrix("Judged@5", ("A",), q, np.array([[0.6, 0.4]]))
    >>> r = ScoreMatrix("num_ret", ("A",), q, np.array([[3.0, 9.0]]))
    >>> s = judged_summary(j, r, k=5, queries=q)
    >>> s["systems"], s["retrieved"]
    ({'A': 0.5}, {'A': 0.8})
    """
    columns = [judged.queries.index(q) for q in queries]
    lengths = {q: j for j, q in enumerate(retrieved.queries)}
    counts = np.asarray(judged.scores)[:, columns]
    means = dict(zip(judged.systems, counts.mean(axis=1).tolist(), strict=True))
    share = {}
    for system in judged.systems:
        row = retrieved.systems.index(system)
        lists = [retrieved.scores[row, lengths[q]] if q in lengths else 0.0 for q in queries]
        share[system] = float(np.mean(np.minimum(lists, k) / k))
    return {
        "label": judged.measure,
        "k": k,
        "systems": means,
        "pool_filters": list(pool_filters),
        "retrieved": share,
    }
