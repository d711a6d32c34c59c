"""The small collection the hand-computed tests share.

One query judged on a 3-level (Broad-like) scale, lin gain, top level 2:

- ranking A (levels): ⟨2, 0, 1, 2, 0⟩ — documents a, x, b, c, y
- judgments: a=2, c=2, e=2, b=1, f=1, x=0, y=0, g=0, so the ideal ranking I is
  ⟨2, 2, 2, 1, 1⟩ at k = 5; |R^{>=1}| = 5, |R^{>=2}| = 3.
"""

import numpy as np

from evaluation.core import Qrels, Run

LEVELS = np.array([[2.0, 0.0, 1.0, 2.0, 0.0]])
IDEAL_SYSTEM = np.array([[2.0, 2.0, 2.0, 1.0, 1.0]])
IDEAL_USER = np.full((1, 5), 2.0)
JUDGMENTS = {"a": 2, "c": 2, "e": 2, "b": 1, "f": 1, "x": 0, "y": 0, "g": 0}
RANKING = ["a", "x", "b", "c", "y"]


def qrels() -> Qrels:
    return Qrels.from_records([("q", d, r) for d, r in JUDGMENTS.items()])


def run() -> Run:
    return Run.from_ranked_lists({"q": RANKING}, name="A")
