"""Results recompute time: leaderboards and reliability of a collection, as a recompute does them.

Times what a recompute computes after reading the database (the core's ``evaluate``,
then per measure the leaderboard — intervals, P(Sat), the all-pairs test with its
resamples — and the G/D-study), on:

- the MIREX 2011 AMS collection (18 systems × 100 queries × top 5), every default
  measure, the default bootstrap test with 10,000 resamples;
- a synthetic collection of 100 systems × 1,000 queries × top 5 (deterministic, seed 1).

and a preference campaign's satisfaction mapping (what the ``campaign`` recompute
computes after reading the database: λ of both lists of every answered example through
``evaluate``, the §3.3 labelling, bins with Wilson intervals, the cubic fit, bias and
the Table 4.3 comparison), for a demo-size campaign (90 examples × 3 answers, as the
demo's 60 system-pair and ~30 generated examples) and a thesis-size one (4,115
examples × 1 answer, thesis §3.3), with lists drawn from the MIREX 2011 judgments.

Run: ``python benchmarks/bench_recompute.py [--resamples N] [--skip-synthetic]``
(needs Django settings only for the unsaved ``ResultsConfig`` holding the options).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402

from evaluation.core import evaluate  # noqa: E402
from evaluation.core.published_mappings import published_mapping_for  # noqa: E402
from evaluation.models import ResultsConfig  # noqa: E402
from evaluation.selectors import CollectionRuns, QrelsRecord  # noqa: E402
from evaluation.services.leaderboards import (  # noqa: E402
    core_inputs,
    default_measures,
    leaderboard_payload,
    reliability_payload,
)
from tests.helpers.shared_data import MIREX2011  # noqa: E402

MIREX = Path(os.environ.get("MIREX2011", str(MIREX2011)))


def mirex() -> tuple[CollectionRuns, list[QrelsRecord]]:
    def rows(name):
        text = (MIREX / name).read_text(encoding="utf-8")
        return [line.split("\t") for line in text.splitlines() if line.strip()]

    rankings: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for system, query, doc in rows("runs.tsv"):
        rankings[system].setdefault(query, []).append(doc)
    qrels = [QrelsRecord(q, d, None, float(v)) for q, d, v in rows("judgments.tsv")]
    queries = sorted({q for r in rankings.values() for q in r})
    return CollectionRuns(tuple(sorted(rankings)), tuple(queries), dict(rankings)), qrels


def synthetic(n_systems=100, n_queries=1000, depth=5, pool=50, seed=1):
    rng = np.random.default_rng(seed)
    queries = [f"q{j}" for j in range(n_queries)]
    qrels = [
        QrelsRecord(q, f"{q}d{i}", None, float(rng.integers(0, 101)))
        for q in queries
        for i in range(pool)
    ]
    rankings = {
        f"s{i:03d}": {
            q: [f"{q}d{d}" for d in rng.choice(pool, size=depth, replace=False)] for q in queries
        }
        for i in range(n_systems)
    }
    return CollectionRuns(tuple(rankings), tuple(queries), rankings), qrels


def run(name, runs, qrels, resamples):
    config = ResultsConfig(resamples=resamples)
    measures = default_measures(qrels)
    started = time.perf_counter()
    core_qrels, core_runs = core_inputs(runs, qrels)
    results = evaluate(core_qrels, core_runs, measures)
    scored = time.perf_counter()
    for label in results.labels:
        matrix = results.matrix(label, missing="zero")
        leaderboard_payload(matrix, config=config, mapping=published_mapping_for(label))
        reliability_payload(matrix, target=config.reliability_target)
    done = time.perf_counter()
    print(
        f"{name}: {len(runs.systems)} systems × {len(runs.queries)} queries, "
        f"{len(measures)} measures ({', '.join(measures)}), {config.test} test with "
        f"{resamples:,} resamples: scoring {scored - started:.2f} s, statistics "
        f"{done - scored:.2f} s, total {done - started:.2f} s"
    )


def campaign(name, qrels, *, examples, answers_per_example, seed=7):
    """Time the mapping of a campaign of random lists over MIREX judged clips."""
    from evaluation.core.answers import mapping_payload
    from evaluation.services.mappings import score_lists

    rng = np.random.default_rng(seed)
    by_query: dict[str, list] = defaultdict(list)
    for record in qrels:
        by_query[record.query].append(record)
    queries = sorted(by_query)
    lists, query_of = {}, {}
    for pk in range(examples):
        q = queries[rng.integers(len(queries))]
        docs = [r.clip for r in by_query[q]]
        picked = rng.choice(len(docs), size=10, replace=False)
        lists[pk] = {"a": [docs[i] for i in picked[:5]], "b": [docs[i] for i in picked[5:]]}
        query_of[pk] = q
    measure = "CG(scale=fine)@5"
    outcomes = ["a_better", "b_better", "both_good", "both_bad"]
    started = time.perf_counter()
    lam = score_lists(
        lists=lists, query_of=query_of, qrels_by_query=by_query,
        wanted={pk: {measure} for pk in lists},
    )[measure]  # fmt: skip
    scored = time.perf_counter()
    answers = [(pk, outcomes[rng.integers(4)]) for pk in lists for _ in range(answers_per_example)]
    payload = mapping_payload(
        measure,
        [o for _, o in answers],
        [lam[pk][0] for pk, _ in answers],
        [lam[pk][1] for pk, _ in answers],
    )
    done = time.perf_counter()
    assert payload["n_answers"] == len(answers)
    print(
        f"{name} campaign mapping: {examples:,} examples × {answers_per_example} answers, "
        f"{measure}: scoring the lists {scored - started:.2f} s, mapping "
        f"{done - scored:.3f} s, total {done - started:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--skip-synthetic", action="store_true")
    args = parser.parse_args()
    runs, qrels = mirex()
    run("MIREX 2011", runs, qrels, args.resamples)
    campaign("demo-size", qrels, examples=90, answers_per_example=3)
    campaign("thesis-size", qrels, examples=4115, answers_per_example=1)
    if not args.skip_synthetic:
        run("synthetic", *synthetic(), args.resamples)


if __name__ == "__main__":
    main()
