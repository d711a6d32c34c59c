"""Answers to (query, A, B) preference pairs: "A is more similar", "B is more similar"
or "they are equally similar" (Urbano, Morato, Marrero and Martín 2010), counted per
pair whichever side each candidate was shown on.

>>> votes = PairVotes()
>>> votes.add("x", "y", "A"); votes.add("y", "x", "B"); votes.add("x", "y", "equal")
>>> votes.count("x", "y"), votes.count("y", "x")
((2, 0, 1), (0, 2, 1))
"""

from __future__ import annotations

ANSWERS = ("A", "B", "equal")


class PairVotes:
    """The answers of one query's pairs: for each unordered pair, how many said each."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, str], list[int]] = {}

    def add(self, a: str, b: str, answer: str, times: int = 1) -> None:
        """Record ``times`` answers to the pair shown as (A = ``a``, B = ``b``)."""
        if a == b:
            raise ValueError(f"a pair compares two different candidates, not {a!r} with itself")
        if answer not in ANSWERS:
            raise ValueError(f"answer {answer!r} is not one of {', '.join(ANSWERS)}")
        low, high = sorted((a, b))
        counts = self._counts.setdefault((low, high), [0, 0, 0])
        if answer == "equal":
            counts[2] += times
        elif (answer == "A") == (a == low):
            counts[0] += times
        else:
            counts[1] += times

    def count(self, x: str, y: str) -> tuple[int, int, int]:
        """``(x more similar, y more similar, equal)`` answers of the pair {x, y}."""
        low, high = sorted((x, y))
        first, second, equal = self._counts.get((low, high), (0, 0, 0))
        return (first, second, equal) if x == low else (second, first, equal)

    def answers(self, x: str, y: str) -> int:
        """How many answers the pair {x, y} has."""
        return sum(self.count(x, y))

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair with an answer, as sorted tuples."""
        return list(self._counts)

    def candidates(self) -> list[str]:
        """Every candidate named by a pair, sorted."""
        return sorted({doc for pair in self._counts for doc in pair})
