"""The example generator of thesis §3.2.1: artificial examples that fill |Δλ| bins.

From known Fine judgments, build pairs of ranked lists of k judged clips for a query so
that every chosen (measure, scale, bin) combination gets at least ``per_bin`` examples,
with bins β ∈ {[0, 0.1), [0.1, 0.2), …, [0.9, 1]} of |Δλ| = |λ_A − λ_B|:

    repeat: take the combination with the fewest examples so far (ties: the first);
            try to create a new example whose |Δλ| falls in its bin;
            if one exists, keep it and count it in the bin it falls under for *every*
            measure/scale; otherwise ignore that combination from now on;
    until every combination has ``per_bin`` examples or is ignored.

The report lists how many examples each combination got and which could not be filled
(as the thesis reports for CG_e@k). ``bins`` narrows the search to some bins (an example
found for one still counts wherever it falls), ``progress`` is told how far it got, and
:func:`reachable_bins` says beforehand which bins no list pair can reach at all. Candidate lists are drawn per query from a pool
that ranges from the query's least to its most similar clips (so that both small and
large differences exist), in random order; a pair is never used twice in either order.

λ of a list no system produced (:func:`list_score`): each list becomes a one-query
"run" whose judgments are exactly its own k clips, scored by
:func:`evaluation.core.measures.registry.compute` — the same kernels, scales and gains
as everywhere else; nothing is re-implemented here. Because a measure sees only the
list's own judgments, only **user-oriented** measures (thesis ch. 3: the ideal is k
documents of the top level) make sense: ``P``, ``CG``, ``DCG`` (normalised by
k·g(top)), and ``AP``, ``Q``, ``RBP``, ``ERR``, ``EDCG``, ``GAP``, ``ADR`` with
``form=user``. Measures normalised by the full judgments (``nDCG``, ``R``, ``Rprec``,
``bpref*``, ``form=system``) are refused, as is the ``raw`` scale (its top level would
come from the list itself). Names as in :mod:`evaluation.core.names`, e.g.
``P(rel=60,scale=fine)@5``, ``CG(scale=fine)@5``, ``RBP(form=user,scale=graded4)@5``.

The Django side (:mod:`crowd.services.examples`) reads a campaign's judgments,
calls :func:`generate_examples` and stores the examples it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from evaluation.core.measures.registry import compute
from evaluation.core.names import FAMILIES, Measure, parse_measure
from evaluation.core.ranking import RankedJudgments
from evaluation.core.trec.model import Qrels

USER_ORIENTED = {"P", "RR", "CG", "DCG", "AP", "Q", "RBP", "ERR", "EDCG", "GAP", "ADR"}
FINE_SCALES = {"fine", "graded3", "graded4", "graded5"}


def user_measure(name: str, *, scale: str = "fine") -> Measure:
    """Parse ``name`` and refuse what cannot score a list on its own judgments: Fine
    scores (the generator's), or Broad levels with ``scale="broad"``."""
    measure = parse_measure(name)
    if measure.family not in USER_ORIENTED or measure.k is None:
        raise ValueError(f"{name}: the generator needs a user-oriented measure with a cut-off")
    if "form" in FAMILIES[measure.family].options and measure.option("form") != "user":
        raise ValueError(f"{name}: add form=user (the generator's lists have no other judgments)")
    if scale == "broad" and measure.option("scale") != "broad":
        raise ValueError(f"{name}: give scale=broad (the lists are judged on Broad)")
    if scale != "broad" and measure.option("scale") not in FINE_SCALES:
        raise ValueError(f"{name}: give scale=fine or graded3..5 (lists are judged on Fine)")
    return measure


def list_score(measure: str, fine: np.ndarray, *, scale: str = "fine") -> np.ndarray:
    """λ of each row of ``fine`` (``(n_lists, k)`` judgments on ``scale``, in rank order:
    Fine scores by default, Broad levels with ``scale="broad"`` for a measure on that
    scale, such as ``CG(scale=broad)@5``)."""
    parsed = user_measure(measure, scale=scale)
    fine = np.asarray(fine, dtype=np.float64)
    n, depth = fine.shape
    names = [f"list{i:09d}" for i in range(n)]
    qrels = Qrels.from_arrays(
        np.repeat(names, depth),
        np.tile([f"rank{r}" for r in range(depth)], n),
        {scale: fine.ravel()},
        default=scale,
    )
    if list(qrels.query_ids) != names:  # the rows below assume the lists keep their order
        raise AssertionError("unexpected order of the lists")
    match = qrels.offsets[:-1, None] + np.arange(depth)[None, :]
    ranked = RankedJudgments(
        qrels, tuple(names), match, np.full(n, depth, dtype=np.int64), np.arange(n)
    )
    return compute(parsed, ranked)


N_BINS = 10


def bin_of(delta: float) -> int:
    """The |Δλ| bin: [0,0.1) → 0, …, [0.9,1] → 9 (a hair of float noise forgiven)."""
    return min(int(abs(delta) * N_BINS + 1e-9), N_BINS - 1)


def bin_label(b: int) -> str:
    return f"[{b / N_BINS:.1f}, {(b + 1) / N_BINS:.1f}{']' if b == N_BINS - 1 else ')'}"


@dataclass(frozen=True)
class GeneratedExample:
    query: str
    list_a: tuple[str, ...]
    list_b: tuple[str, ...]
    scores: dict[str, tuple[float, float]]


@dataclass
class GeneratorReport:
    measures: tuple[str, ...]
    per_bin: int
    examples: list[GeneratedExample] = field(default_factory=list)
    counts: dict[tuple[str, int], int] = field(default_factory=dict)
    ignored: list[tuple[str, int]] = field(default_factory=list)
    bins: tuple[int, ...] = tuple(range(N_BINS))
    """The bins asked for; ``counts`` covers every bin all the same."""

    @property
    def unfilled(self) -> list[tuple[str, int, int]]:
        """(measure, bin, examples) of every combination asked for that is below ``per_bin``."""
        return [
            (m, b, n)
            for (m, b), n in sorted(self.counts.items())
            if n < self.per_bin and b in self.bins
        ]

    def table(self) -> str:
        """A text table: one row per measure, one column per bin, unfilled ones starred."""
        head = f"{'measure/scale':38s}" + "".join(f"{bin_label(b):>11s}" for b in range(N_BINS))
        rows = [head]
        for m in self.measures:
            cells = []
            for b in range(N_BINS):
                n = self.counts[(m, b)]
                short = n < self.per_bin and b in self.bins
                cells.append(f"{n}{'*' if short else ''}".rjust(11))
            rows.append(f"{m:38s}" + "".join(cells))
        rows.append(f"{len(self.examples)} examples; * = fewer than {self.per_bin}")
        return "\n".join(rows)


def _pool(fine: np.ndarray, *, k: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``(size, k)`` indices of judged clips: lists of every quality, in random orders."""
    n = len(fine)
    order = np.argsort(fine, kind="stable")  # least similar first
    quantile = np.empty(n)
    quantile[order] = (np.arange(n) + 0.5) / n
    lists = np.empty((size, k), dtype=np.int64)
    for row in range(size):
        target = rng.uniform(0, 1)
        width = rng.choice([0.03, 0.1, 0.3, 10.0])
        weights = np.exp(-(((quantile - target) / width) ** 2)) + 1e-12
        chosen = rng.choice(n, size=k, replace=False, p=weights / weights.sum())
        mode = rng.uniform()
        if mode < 0.2:  # best first
            chosen = chosen[np.argsort(-fine[chosen], kind="stable")]
        elif mode < 0.3:  # worst first
            chosen = chosen[np.argsort(fine[chosen], kind="stable")]
        lists[row] = chosen
    return lists


def _extremes(fine: np.ndarray, k: int) -> np.ndarray:
    """``(4, k)`` Fine values: the k best clips best first and worst first, the k worst ditto."""
    ordered = np.sort(fine)
    best, worst = ordered[::-1][:k], ordered[:k]
    return np.stack([best, best[::-1], worst, worst[::-1]])


def reachable_bins(
    judgments: Mapping[str, Mapping[str, float]],
    measures: Sequence[str],
    *,
    k: int = 5,
    score: Callable[[str, np.ndarray], np.ndarray] = list_score,
) -> dict[str, int]:
    """The highest |Δλ| bin each measure can reach: every bin above it cannot be filled.

    For each query with at least k judged clips, the largest |Δλ| between two of its
    lists is at most λ of the best list (its k most similar clips, most similar first)
    minus λ of the worst (its k least similar, least similar first), for measures that
    grow with every clip's gain and weigh the top ranks most — every user-oriented
    measure of :func:`user_measure` (thesis §3.1). Both orders of both lists are
    scored, so a measure indifferent to order is covered too. Returns ``{measure:
    highest bin}``, ``-1`` when no query has k judged clips.

    >>> reachable_bins({"q": {"a": 100, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0}}, ["CG(scale=fine)@5"])
    {'CG(scale=fine)@5': 2}
    """
    for m in measures:
        user_measure(m)
    lists = [
        _extremes(np.array(list(docs.values()), dtype=float), k)
        for docs in judgments.values()
        if len(docs) >= k
    ]
    highest = {}
    for m in measures:
        if not lists:
            highest[m] = -1
            continue
        scores = score(m, np.concatenate(lists)).reshape(len(lists), 4)
        widest = float(np.max(scores.max(axis=1) - scores.min(axis=1)))
        highest[m] = bin_of(widest)
    return highest


def generate_examples(
    judgments: Mapping[str, Mapping[str, float]],
    measures: Sequence[str],
    *,
    k: int = 5,
    per_bin: int = 200,
    seed: int = 0,
    pool_size: int = 400,
    attempts: int = 3000,
    max_examples: int | None = None,
    bins: Sequence[int] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    score: Callable[[str, np.ndarray], np.ndarray] = list_score,
) -> GeneratorReport:
    """Run the §3.2.1 greedy generator on ``judgments`` (query → clip → Fine).

    Parameters
    ----------
    judgments : mapping of query → (clip → Fine)
        Known Fine judgments (0–100); queries with fewer than k judged clips are skipped.
    measures : sequence of str
        User-oriented measures with a cut-off (see :func:`user_measure`).
    k : int
        Clips per list.
    per_bin : int
        Examples wanted in every (measure, bin) combination.
    seed : int
        The generator is deterministic for a seed.
    pool_size : int
        Candidate lists drawn per query.
    attempts : int
        Tries to fill one combination before it is ignored.
    max_examples : int or None
        Stop after this many examples.
    bins : sequence of int or None
        The |Δλ| bins (0–9) to fill; all ten when ``None``.
    progress : callable or None
        ``progress(done, total, message)``: ``total`` is the examples wanted
        (combinations × ``per_bin``); ``done`` those found, plus what an ignored
        combination still lacked.
    score : callable
        λ of lists, ``score(measure, fine)``; :func:`list_score` unless a test says so.

    Returns
    -------
    GeneratorReport
        The examples (query, list a, list b, λ per measure) and the counts per bin.
    """
    rng = np.random.default_rng(seed)
    measures = tuple(measures)
    chosen = tuple(sorted(set(range(N_BINS) if bins is None else bins)))
    if not chosen or any(not 0 <= b < N_BINS for b in chosen):
        raise ValueError(f"bins must be among 0–{N_BINS - 1}, got {list(bins or [])}")
    tell = progress or (lambda done, total, message: None)
    total = len(measures) * len(chosen) * per_bin
    tell(0, total, "drawing candidate lists")
    queries = sorted(q for q, docs in judgments.items() if len(docs) >= k)
    docs = {q: sorted(judgments[q]) for q in queries}
    pools, scores, sorted_idx = {}, {}, {}
    for q in queries:
        fine = np.array([judgments[q][d] for d in docs[q]], dtype=float)
        pool = _pool(fine, k=k, size=pool_size, rng=rng)
        pools[q] = pool
        for m in measures:
            s = score(m, fine[pool])
            scores[(q, m)] = s
            sorted_idx[(q, m)] = np.argsort(s, kind="stable")

    report = GeneratorReport(measures=measures, per_bin=per_bin, bins=chosen)
    report.counts = {(m, b): 0 for m in measures for b in range(N_BINS)}
    active = [(m, b) for m in measures for b in chosen]
    cells = tuple(active)

    def done() -> int:
        lacking = set(report.ignored)
        return sum(per_bin if c in lacking else min(report.counts[c], per_bin) for c in cells)

    used: set[tuple[str, bytes, bytes]] = set()

    def find(m: str, b: int) -> tuple[str, int, int] | None:
        lo, hi = b / N_BINS, (b + 1) / N_BINS + (1e-9 if b == N_BINS - 1 else 0)
        for _ in range(attempts):
            q = queries[rng.integers(len(queries))]
            s, idx = scores[(q, m)], sorted_idx[(q, m)]
            ordered = s[idx]
            i = int(rng.integers(len(s)))
            ranges = [
                (np.searchsorted(ordered, s[i] + lo, "left"), np.searchsorted(ordered, s[i] + hi, "left")),
                (np.searchsorted(ordered, s[i] - hi, "right"), np.searchsorted(ordered, s[i] - lo, "right")),
            ]  # fmt: skip
            sizes = [max(0, end - start) for start, end in ranges]
            if not sum(sizes):
                continue
            pick = int(rng.integers(sum(sizes)))
            start, _ = ranges[0] if pick < sizes[0] else ranges[1]
            j = int(idx[start + (pick if pick < sizes[0] else pick - sizes[0])])
            a, c = pools[q][i], pools[q][j]
            if np.array_equal(a, c) or bin_of(s[i] - s[j]) != b:
                continue
            key = (q, *sorted([a.tobytes(), c.tobytes()]))
            if key in used:
                continue
            used.add(key)
            return q, i, j
        return None

    while active:
        m, b = min(active, key=lambda mb: report.counts[mb])
        if report.counts[(m, b)] >= per_bin:
            break
        if max_examples is not None and len(report.examples) >= max_examples:
            break
        tell(done(), total, f"{len(report.examples)} examples so far")
        found = find(m, b)
        if found is None:
            active.remove((m, b))
            report.ignored.append((m, b))
            continue
        q, i, j = found
        lambdas = {}
        for m2 in measures:
            la, lb = float(scores[(q, m2)][i]), float(scores[(q, m2)][j])
            lambdas[m2] = (round(la, 6), round(lb, 6))
            report.counts[(m2, bin_of(la - lb))] += 1
        report.examples.append(
            GeneratedExample(
                query=q,
                list_a=tuple(docs[q][x] for x in pools[q][i]),
                list_b=tuple(docs[q][x] for x in pools[q][j]),
                scores=lambdas,
            )
        )
    tell(total, total, f"{len(report.examples)} examples")
    return report
