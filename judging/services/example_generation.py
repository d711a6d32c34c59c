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
(as the thesis reports for CG_e@k). Candidate lists are drawn per query from a pool
that ranges from the query's least to its most similar clips (so that both small and
large differences exist), in random order; a pair is never used twice in either order.

λ comes from ``evaluation.core``'s measures through
:func:`judging.services.list_scores.list_score` (user-oriented measures only, see there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from judging.services.list_scores import list_score

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

    @property
    def unfilled(self) -> list[tuple[str, int, int]]:
        """(measure, bin, examples) of every combination below ``per_bin``."""
        return [(m, b, n) for (m, b), n in sorted(self.counts.items()) if n < self.per_bin]

    def table(self) -> str:
        """A text table: one row per measure, one column per bin, unfilled ones starred."""
        head = f"{'measure/scale':38s}" + "".join(f"{bin_label(b):>11s}" for b in range(N_BINS))
        rows = [head]
        for m in self.measures:
            cells = []
            for b in range(N_BINS):
                n = self.counts[(m, b)]
                cells.append(f"{n}{'*' if n < self.per_bin else ''}".rjust(11))
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
    score: Callable[[str, np.ndarray], np.ndarray] = list_score,
) -> GeneratorReport:
    """Run the §3.2.1 greedy generator on ``judgments`` (query → clip → Fine).

    Queries with fewer than k judged clips are skipped. Deterministic for a ``seed``.
    """
    rng = np.random.default_rng(seed)
    measures = tuple(measures)
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

    report = GeneratorReport(measures=measures, per_bin=per_bin)
    report.counts = {(m, b): 0 for m in measures for b in range(N_BINS)}
    active = list(report.counts)
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
    return report


def examples_generate(*, campaign, measures: Sequence[str], per_bin: int = 200, seed: int = 0,
                      max_examples: int | None = None) -> GeneratorReport:  # fmt: skip
    """Run the generator on the campaign's collection's Fine judgments and add the
    examples to the campaign (each with its λ per measure in ``Example.scores``).

    Several judgments of one pair are averaged.
    """
    from judging.models import Example, RelevanceJudgment
    from judging.services.preference import examples_create

    collection = campaign.collection
    sums: dict[tuple[int, int], list[float]] = {}
    rows = RelevanceJudgment.objects.filter(query__collection=collection, fine__isnull=False)
    for query_id, clip_id, fine in rows.values_list("query_id", "clip_id", "fine"):
        sums.setdefault((query_id, clip_id), []).append(fine)
    queries = {q.pk: q for q in collection.queries.all()}
    # A query's own clip is never one of its results.
    own = {q.pk: q.clip_id for q in queries.values()}
    judgments: dict[str, dict[str, float]] = {}
    for (query_id, clip_id), values in sums.items():
        if clip_id != own[query_id]:
            judgments.setdefault(str(query_id), {})[str(clip_id)] = sum(values) / len(values)
    report = generate_examples(
        judgments, measures, k=campaign.list_length, per_bin=per_bin, seed=seed,
        max_examples=max_examples,
    )  # fmt: skip
    clips = {c.pk: c for c in collection.clips.all()}
    specs = [
        {
            "query": queries[int(e.query)],
            "list_a": [clips[int(c)] for c in e.list_a],
            "list_b": [clips[int(c)] for c in e.list_b],
            "scores": {m: list(v) for m, v in e.scores.items()},
        }
        for e in report.examples
    ]
    examples_create(campaign=campaign, examples=specs, source=Example.SOURCE_GENERATOR)
    return report
