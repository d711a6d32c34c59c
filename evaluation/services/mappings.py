"""A preference campaign's satisfaction mapping, measured from its accepted answers.

The mathematics — labelling answers as observations of P(Sat | λ) and P(Agr | Δλ)
(thesis §3.3), binning, the cubic fit of eq. (4.3), the bias measures and the
comparison with Table 4.3 — is :func:`evaluation.core.answers.mapping_payload`; this
module reads the answers, finds λ of each example's lists and stores the result.

Only accepted answers count (``Answer.accepted_at`` set: trusted workers, examples that
are not trap questions, answers not excluded), less those of workers who answer the
opposite of the others more often than the same (issue 29: every worker of the campaign
fitted together by :func:`evaluation.core.worker_agreement.agreement_fit`, anchored by
the trap and quiz questions' keys; a worker found so only after their last checkpoint —
their examples were answered by others later — is left out here all the same, and the
rates go back to the workers page through
:func:`crowd.services.agreement.workers_agreement_store`), and with the campaign's
``MappingConfig.full_listening_only`` only those whose every clip was heard (issue 23:
:func:`crowd.selectors.listening.answers_fully_heard`, the rule the workers page
shows). λ of each list comes from
``Example.scores`` when the example generator stored it, else from
:func:`evaluation.core.evaluate` with each example's two lists as two one-query runs
judged by the collection's consolidated judgments.

Payload of :class:`~evaluation.models.SatisfactionMapping` (what pages, exports and the
API show): the document of :func:`~evaluation.core.answers.mapping_payload`, plus
``n_examples``, ``skipped: {no_score, out_of_range}``, ``campaign: {id, name}``,
``listening: {full_only, answers, full}`` (whether the filter was on; the accepted
answers, and how many of them had every clip heard, whether or not the filter was on),
``chosen: {because, scales}`` (why these measures, and the scales the collection is
judged on: :class:`MeasureChoice`; a Broad-only collection gets a Broad measure) and
``opposite: {workers_left_out, answers_left_out}`` (accepted answers of workers who
answer the opposite of the others, left out).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from catalog.published import collection_judged_scales
from crowd.published import (
    Answer,
    Example,
    PreferenceCampaign,
    answers_fully_heard,
    campaign_agreement_answers,
    workers_agreement_store,
)
from evaluation import selectors
from evaluation.core import evaluate
from evaluation.core.answers import mapping_payload
from evaluation.core.names import parse_measure
from evaluation.core.worker_agreement import agreement_fit
from evaluation.models import DEFAULT_MAPPING_MEASURE, MappingConfig, SatisfactionMapping
from evaluation.services.leaderboards import core_inputs
from evaluation.services.recompute import recompute_request
from evaluation.services.results import collection_results_request
from work.progress import FractionReport, no_report


def canonical(name: str) -> str:
    """The measure's canonical label (as leaderboards and ``evaluate`` name it)."""
    return parse_measure(name).label


@dataclass(frozen=True)
class MeasureChoice:
    """The measures of a campaign's mapping and why (stored in each payload as ``chosen``,
    which the mapping page puts in words): ``because`` is ``settings`` (the results
    settings name them), ``examples`` (the example generator stored λ of them) or
    ``default``; ``scales`` are those the collection's official judgments are on."""

    measures: list[str]
    because: str
    scales: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"because": self.because, "scales": list(self.scales)}


def default_mapping_measure(scales: tuple[str, ...], list_length: int = 5) -> str:
    """CG_l@k (thesis Table 3.2: among the least biased measures) at the campaign's list
    length k (5 in the thesis' lists; at a cut-off beyond the lists' length λ could never
    reach 1 and the top bins would stay empty), on the Fine scale, or on the Broad scale
    when the collection is judged on Broad only (TREC qrels): a Fine measure would score
    every list 0 there, and no answer could be binned (issue 31)."""
    measure = DEFAULT_MAPPING_MEASURE.replace("@5", f"@{list_length}")
    if "fine" in scales or not scales:
        return measure
    return measure.replace("scale=fine", "scale=broad")


def campaign_measure_choice(*, campaign: PreferenceCampaign) -> MeasureChoice:
    """The configured measures, else those the examples were generated for, else
    :func:`default_mapping_measure` for the scales the collection is judged on."""
    scales = collection_judged_scales(collection=campaign.collection)
    names, because = list(MappingConfig.for_campaign(campaign).measures), "settings"
    if not names:
        keys: set[str] = set()
        for scores in campaign.examples.exclude(scores={}).values_list("scores", flat=True):
            keys.update(scores)
        names, because = sorted(keys), "examples"
    if not names:
        names, because = [default_mapping_measure(scales, campaign.list_length)], "default"
    return MeasureChoice(list(dict.fromkeys(canonical(n) for n in names)), because, scales)


def campaign_measures(*, campaign: PreferenceCampaign) -> list[str]:
    """The measures of the campaign's mapping (:func:`campaign_measure_choice`)."""
    return campaign_measure_choice(campaign=campaign).measures


def campaign_mapping_request(*, campaign: PreferenceCampaign, resend: bool = False) -> bool:
    """Ask for the campaign's mapping to be recomputed after the current transaction
    (``resend``: send a pending recompute's task again, as "Recompute now" does). A pairs
    campaign (issue 32) compares two clips, not two lists with their effectiveness: it has
    no mapping, and nothing is asked."""
    if campaign.is_pairs:
        return False
    return recompute_request(kind="campaign", target_id=campaign.pk, resend=resend)


# --- λ of the examples' lists --------------------------------------------------------


def example_lambdas(
    *, campaign: PreferenceCampaign, example_ids: Iterable[int], measures: list[str]
) -> dict[str, dict[int, tuple[float, float]]]:
    """``{measure: {example id: (λa, λb)}}`` for the examples given.

    ``Example.scores`` is used where it holds the measure (the generator stored λ on
    the judgments it generated from); the other examples are scored through
    :func:`evaluation.core.evaluate`, each example a pseudo-query judged with its
    query's consolidated judgments, list a and list b two runs. An example whose
    query has no judgments gets no λ (and is skipped).
    """
    ids = sorted(set(example_ids))
    out: dict[str, dict[int, tuple[float, float]]] = {m: {} for m in measures}
    missing: dict[int, set[str]] = {}
    for pk, scores in Example.objects.filter(pk__in=ids).values_list("pk", "scores"):
        stored = {canonical(name): value for name, value in (scores or {}).items()}
        for m in measures:
            if m in stored and stored[m] is not None and len(stored[m]) == 2:
                out[m][pk] = (float(stored[m][0]), float(stored[m][1]))
            else:
                missing.setdefault(pk, set()).add(m)
    if not missing:
        return out
    lists = selectors.example_lists(example_ids=list(missing))
    query_of = dict(
        Example.objects.filter(pk__in=list(missing)).values_list("pk", "query__clip__external_id")
    )
    by_query: dict[str, list] = {}
    for record in selectors.collection_qrels_records(collection=campaign.collection):
        by_query.setdefault(record.query, []).append(record)
    scored = score_lists(lists=lists, query_of=query_of, qrels_by_query=by_query, wanted=missing)
    for m, pairs in scored.items():
        out[m].update(pairs)
    return out


def score_lists(
    *,
    lists: dict[int, dict[str, list[str]]],
    query_of: dict[int, str],
    qrels_by_query: dict[str, list],
    wanted: dict[int, set[str]],
) -> dict[str, dict[int, tuple[float, float]]]:
    """λ of lists a and b of each example for the measures ``wanted[example]``.

    Each example is a pseudo-query judged with its query's consolidated judgments
    (``qrels_by_query``: :class:`~evaluation.selectors.QrelsRecord` lists), and list a
    and list b are two runs, scored by :func:`evaluation.core.evaluate`.
    """
    pseudo = {pk: f"e{pk}" for pk in wanted}
    qrels = [
        record._replace(query=pseudo[pk])
        for pk in wanted
        for record in qrels_by_query.get(query_of[pk], [])
    ]
    needed = sorted({m for measures in wanted.values() for m in measures})
    out: dict[str, dict[int, tuple[float, float]]] = {m: {} for m in needed}
    if not qrels:
        return out
    runs = selectors.CollectionRuns(
        systems=("a", "b"),
        queries=tuple(pseudo.values()),
        rankings={
            side: {pseudo[pk]: lists[pk][side] for pk in wanted if lists[pk][side]}
            for side in ("a", "b")
        },
    )
    core_qrels, core_runs = core_inputs(runs, qrels)
    results = evaluate(core_qrels, core_runs, needed)
    for m in needed:
        a = results.per_query("a", m)
        b = results.per_query("b", m)
        for pk, measures in wanted.items():
            q = pseudo[pk]
            if m in measures and q in a and q in b:
                out[m][pk] = (float(a[q]), float(b[q]))
    return out


# --- compute and store ---------------------------------------------------------------


def campaign_mapping_compute(
    *, campaign: PreferenceCampaign, report: FractionReport = no_report
) -> list[str]:
    """Compute and store (overwriting) the campaign's mapping for each configured measure.

    Measures no longer configured lose their stored mapping. Returns the measures stored.
    """
    choice = campaign_measure_choice(campaign=campaign)
    measures = choice.measures
    full_only = MappingConfig.for_campaign(campaign).full_listening_only
    accepted = Answer.objects.filter(
        example__campaign=campaign,
        accepted_at__isnull=False,
        excluded=False,
        example__trap__isnull=True,
    )
    opposite = campaign_workers_opposite(campaign=campaign)
    found = list(accepted.order_by("pk").values_list("pk", "example_id", "outcome", "worker_id"))
    rows = [(pk, example, outcome) for pk, example, outcome, w in found if w not in opposite]
    left_out = {"workers_left_out": len(opposite), "answers_left_out": len(found) - len(rows)}
    heard = answers_fully_heard(answers=accepted)
    listening = {"full_only": full_only, "answers": len(rows), "full": len(heard)}
    answers = [(example, outcome) for pk, example, outcome in rows if not full_only or pk in heard]
    report(0.1, f"{len(answers)} accepted answers: scoring the lists", force=True)
    lambdas = example_lambdas(
        campaign=campaign, example_ids=[e for e, _ in answers], measures=measures
    )
    payloads = {}
    for n, measure in enumerate(measures):
        report(0.3 + 0.6 * n / len(measures), f"{measure}: binning and fitting")
        scores = lambdas[measure]
        kept, no_score, out_of_range = [], 0, 0
        for example_id, outcome in answers:
            pair = scores.get(example_id)
            if pair is None:
                no_score += 1
            elif not all(0.0 <= x <= 1.0 and math.isfinite(x) for x in pair):
                out_of_range += 1
            else:
                kept.append((outcome, *pair))
        payload = mapping_payload(
            measure,
            [o for o, _, _ in kept],
            [a for _, a, _ in kept],
            [b for _, _, b in kept],
        )
        payload["n_examples"] = len({e for e, _ in answers if e in scores})
        payload["skipped"] = {"no_score": no_score, "out_of_range": out_of_range}
        payload["campaign"] = {"id": campaign.pk, "name": campaign.name}
        payload["listening"] = listening
        payload["chosen"] = choice.to_dict()
        payload["opposite"] = left_out
        payloads[measure] = payload
    now = timezone.now()
    with transaction.atomic():
        campaign.satisfaction_mappings.exclude(measure__in=measures).delete()
        for measure, payload in payloads.items():
            SatisfactionMapping.objects.update_or_create(
                campaign=campaign,
                measure=measure,
                defaults={"payload": payload, "computed_at": now},
            )
    return measures


def campaign_workers_opposite(*, campaign: PreferenceCampaign) -> set[int]:
    """Fit every worker's agreement with the others (see the module doc), store it on the
    workers, and return the workers who answer the opposite of the others more often
    than chance (:attr:`~evaluation.core.worker_agreement.WorkerAgreement.disagrees`)."""
    answers = campaign_agreement_answers(campaign=campaign)
    fits = agreement_fit(
        workers=answers.workers, examples=answers.examples, answers=answers.answers,
        keys=answers.keys,
    )  # fmt: skip
    workers_agreement_store(campaign=campaign, fits=fits)
    return {worker for worker, fit in fits.items() if fit.disagrees}


def campaign_mapping_recompute(*, target_id: int, report: FractionReport = no_report) -> None:
    """The ``campaign`` recompute: its mapping, then a leaderboard recompute of its collection
    (so that P(Sat) follows the new mapping)."""
    campaign = PreferenceCampaign.objects.select_related("collection").filter(pk=target_id).first()
    if campaign is None or campaign.is_pairs:
        return  # deleted meanwhile, or no mapping (campaign_mapping_request)
    campaign_mapping_compute(campaign=campaign, report=report)
    report(0.95, "stored; asking for the leaderboards", force=True)
    collection_results_request(collection=campaign.collection)
    report(1.0, "stored", force=True)
