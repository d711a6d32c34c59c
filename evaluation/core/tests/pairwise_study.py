"""A hand-made pairwise preference study of one query's seven candidates, a … g, for
the three-way QuickSort's tests (test_quicksort_groups.py, test_past_study.py,
test_cli_groups.py).

Worked out by hand with margin 2, 10 answers a pair and seed 0 (the pivots drawn are
asserted by the tests). ``(x, y): (x more similar, y more similar, equal)``:

Round 1, one part {a, b, c, d, e, f, g}, pivot f:
    (a, f) 8 1 1 → +7 ≥ 2: above      (b, f) 7 2 1 → +5: above
    (c, f) 6 2 2 → +4: above          (d, f) 5 3 2 → +2 (the margin exactly): above
    (e, f) 3 4 3 → −1: equal          (g, f) 9 0 1 → +9: above
    → parts {a, b, c, d, g} | {e} equal to f: settled as the group (e, f)
Round 2, part {a, b, c, d, g}, pivot c:
    (a, c) 8 1 1 → +7: above          (g, c) 7 1 2 → +6: above
    (b, c) 3 3 4 → 0: equal           (d, c) 3 3 4 → 0: equal
    → parts {a, g} | {b, d} equal to c | (e, f)
Round 3, part {a, g}, pivot g; part {b, d} (c an earlier pivot), pivot b:
    (a, g) 4 3 3 → +1 < 2: equal → the group (a, g)
    (d, b) 1 6 3 → −5: below → b's middle group is b with the earlier pivot c, (b, c);
    then (d)
Groups: (a, g), (b, c), (d), (e, f) after 3 rounds, 12 pairs, 120 answers.
"""

import csv
import io

from evaluation.core.ordered_groups import PairVotes

QUERY = "q1"
CANDIDATES = tuple("abcdefg")
ROUNDS = [
    {("a", "f"): (8, 1, 1), ("b", "f"): (7, 2, 1), ("c", "f"): (6, 2, 2),
     ("d", "f"): (5, 3, 2), ("e", "f"): (3, 4, 3), ("g", "f"): (9, 0, 1)},
    {("a", "c"): (8, 1, 1), ("b", "c"): (3, 3, 4), ("d", "c"): (3, 3, 4), ("g", "c"): (7, 1, 2)},
    {("a", "g"): (4, 3, 3), ("d", "b"): (1, 6, 3)},
]  # fmt: skip
GROUPS = (("a", "g"), ("b", "c"), ("d",), ("e", "f"))


def answers(rounds=ROUNDS):
    """Every answer as (A, B, answer) as shown, sides alternating pair by pair."""
    out = []
    for round_ in rounds:
        for (x, y), (for_x, for_y, equal) in round_.items():
            said = ["x"] * for_x + ["y"] * for_y + ["equal"] * equal
            for i, what in enumerate(said):
                if i % 2 == 0:  # x shown as A
                    out.append((x, y, {"x": "A", "y": "B", "equal": "equal"}[what]))
                else:  # y shown as A
                    out.append((y, x, {"x": "B", "y": "A", "equal": "equal"}[what]))
    return out


def votes(rounds=ROUNDS) -> PairVotes:
    tally = PairVotes()
    for a, b, answer in answers(rounds):
        tally.add(a, b, answer)
    return tally


MTURK_HEADER = [
    "HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "WorkTimeInSeconds",
    "Input.query", "Input.doc_a", "Input.doc_b", "Answer.choice",
]  # fmt: skip


def mturk_csv(rejected: int = 0) -> str:
    """The study's 120 answers as Mechanical Turk batch results: ten workers a pair,
    the sides as shown, answers written as the form's radio values (A, B, same); and
    ``rejected`` rejected assignments all preferring e over f."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(MTURK_HEADER)
    for i, (a, b, answer) in enumerate(answers()):
        word = {"A": "A", "B": "B", "equal": "same"}[answer]
        writer.writerow([f"H{i // 10}", f"A{i}", f"W{i % 10}", "Approved", "31", QUERY, a, b, word])
    for i in range(rejected):
        writer.writerow(["H99", f"R{i}", f"X{i}", "Rejected", "2", QUERY, "e", "f", "A"])
    return out.getvalue()
