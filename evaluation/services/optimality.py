"""A collection's "Choosing a test" study (thesis ch. 5, §5.3–5.4): asked for on its page,
computed by a recompute of kind ``optimality`` within the limits, with progress, and
stored in :class:`~evaluation.models.OptimalityStudy`.

The study runs every test on the collection's measures and on the combinations of thesis
Table 5.2 its judgments can score (the Broad ones need Broad judgments), with the
collection's seed, and words its verdicts at the collection's α against the test its
results use (:mod:`evaluation.core.optimality`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from catalog.published import Collection
from evaluation import selectors
from evaluation.core import evaluate
from evaluation.core.optimality import TABLE_5_2, split_half_optimality
from evaluation.core.significance import TESTS
from evaluation.models import OptimalityStudy, ResultsConfig
from evaluation.services.leaderboards import core_inputs, default_measures, on_groups
from evaluation.services.limits import optimality_admit
from evaluation.services.recompute import recompute_request
from work.limits import WorkRefused
from work.progress import FractionReport, no_report

MIN_QUERIES = 4
"""Two halves of two queries each: the fewest a split-half study can use."""


def optimality_measures(qrels, configured: list[str]) -> list[str]:
    """The collection's measures, then thesis Table 5.2's that its judgments can score."""
    fine = any(r.fine is not None for r in qrels)
    broad = any(r.broad is not None for r in qrels)
    table = [m for m in TABLE_5_2 if (broad if "broad" in m else fine)]
    return list(dict.fromkeys([*configured, *table]))


def collection_optimality_request(*, collection: Collection, trials: int, resamples: int) -> bool:
    """Store what the organiser asked for and (re)compute the study in the background."""
    with transaction.atomic():
        OptimalityStudy.objects.update_or_create(
            collection=collection, defaults={"trials": trials, "resamples": resamples}
        )
        return recompute_request(kind="optimality", target_id=collection.pk, resend=True)


def collection_optimality_compute(*, target_id: int, report: FractionReport = no_report) -> None:
    """Compute and store (overwriting) collection ``target_id``'s split-half study."""
    collection = Collection.objects.filter(pk=target_id).first()
    if collection is None:
        return  # deleted meanwhile
    study, _ = OptimalityStudy.objects.get_or_create(collection=collection)
    report(0.0, "reading judgments and runs", force=True)
    runs = selectors.collection_runs(collection=collection)
    qrels = selectors.collection_qrels_records(collection=collection)
    judged = len({r.query for r in qrels})
    if len(runs.systems) < 2 or judged < MIN_QUERIES:
        raise WorkRefused(
            f"Choosing a test needs at least 2 systems and {MIN_QUERIES} judged queries (two "
            f"halves of two); this collection has {len(runs.systems)} systems and {judged} "
            "judged queries."
        )
    config = ResultsConfig.for_collection(collection)
    configured = [m for m in config.measures or default_measures(qrels) if not on_groups(m)]
    measures = optimality_measures(qrels, configured)  # of the judgments, not the groups
    n_queries = len(
        {q for system in runs.systems for q in runs.rankings[system]} | {r.query for r in qrels}
    )
    cost = optimality_admit(  # over a limit: refused before any work, the page says why
        n_systems=len(runs.systems), n_queries=n_queries, n_measures=len(measures),
        tests=TESTS, trials=study.trials, resamples=study.resamples,
    )  # fmt: skip
    report(0.02, f"computing {cost.statement}", force=True)
    core_qrels, core_runs = core_inputs(runs, qrels)
    results = evaluate(core_qrels, core_runs, measures, judged_only=config.judged_only)
    matrices = [results.matrix(label, missing="zero") for label in results.labels]

    def step(fraction, message="", *, force=False):
        report(0.05 + 0.9 * fraction, message, force=force)

    result = split_half_optimality(
        matrices, tests=TESTS, trials=study.trials, resamples=study.resamples,
        seed=config.seed, report=step,
    )  # fmt: skip
    study.payload = result.to_dict(alpha=config.alpha, baseline=config.test)
    study.computed_at = timezone.now()
    study.save(update_fields=["payload", "computed_at"])
    report(1.0, "stored", force=True)
