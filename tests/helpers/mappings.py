"""A preference campaign whose answers make a satisfaction mapping with hand-worked
proportions (thesis §3.3), and the mapping stored as the pages read it."""

from __future__ import annotations

import math

import pytest
from django.utils import timezone
from scipy.stats import binomtest

from catalog.models import RelevanceJudgment
from crowd.models import PreferenceCampaign, choice_as_stored
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.core.answers import mapping_payload
from evaluation.models import SatisfactionMapping
from tests.helpers.crowd_fixtures import arrive, make_campaign, trap_of, wrong_choice

MEASURE = "CG(scale=fine)@5"


# Eight hand-made answers (outcome about the stored lists, λa, λb) and what §3.3 makes
# of them, worked out by hand:
#
# P(Sat | λ): only nonpreferences label lists, both lists alike.
#   both_good (0.05, 0.95) → 0.05 ✓, 0.95 ✓      both_bad (0.05, 0.15) → 0.05 ✗, 0.15 ✗
#   both_bad  (0.02, 0.35) → 0.02 ✗, 0.35 ✗      both_good (0.55, 0.92) → 0.55 ✓, 0.92 ✓
#   bin [0, .1): 0.05 ✓, 0.05 ✗, 0.02 ✗ → 1/3    bin [.1, .2): 0.15 ✗ → 0/1
#   bin [.3, .4): 0.35 ✗ → 0/1                   bin [.5, .6): 0.55 ✓ → 1/1
#   bin [.9, 1]: 0.95 ✓, 0.92 ✓ → 2/2            8 lists, the other bins empty.
#   Endpoint bias (eq. 3.11) = sqrt(((1/3)² + (1 − 1)²) / 2) = sqrt(1/18) = 0.235702.
#
# P(Agr | Δλ): every answer, binned by |Δλ| = |λa − λb|; Agr = sign(Δλ) · preference.
#   both_good Δ = −0.90 → bin 9, Agr 0      both_bad Δ = −0.10 → bin 1, Agr 0
#   both_bad  Δ = −0.33 → bin 3, Agr 0      both_good Δ = −0.37 → bin 3, Agr 0
#   a_better (0.8, 0.3)  Δ = +0.50 → bin 5, Agr +1 (prefers the larger λ)
#   b_better (0.8, 0.3)  Δ = +0.50 → bin 5, Agr −1
#   a_better (0.1, 0.65) Δ = −0.55 → bin 5, Agr −1
#   b_better (0.2, 0.25) Δ = −0.05 → bin 0, Agr +1
#   counts: bin0 1, bin1 1, bin3 2, bin5 3, bin9 1
#   P(Agr=1):  1/1, 0/1, 0/2, 1/3, 0/1      P(Agr=−1): 0/1, 0/1, 0/2, 2/3, 0/1
#   distance to one (eq. 3.12) = sqrt((0 + 1 + 1 + 4/9 + 1) / 5) = sqrt(31/45) = 0.829993
#   distance to zero (eq. 3.13) = sqrt((4/9) / 5) = sqrt(4/45) = 0.298142
ANSWERS = [
    ("both_good", 0.05, 0.95),
    ("both_bad", 0.05, 0.15),
    ("both_bad", 0.02, 0.35),
    ("both_good", 0.55, 0.92),
    ("a_better", 0.8, 0.3),
    ("b_better", 0.8, 0.3),
    ("a_better", 0.1, 0.65),
    ("b_better", 0.2, 0.25),
]


SAT_COUNTS = [3, 1, 0, 1, 0, 1, 0, 0, 0, 2]


def columns(answers):
    return [o for o, _, _ in answers], [a for _, a, _ in answers], [b for _, _, b in answers]


def campaign_scored_as_answers(crowd_collection, **options):
    """A campaign (one trap, a one-question quiz) whose work examples are the eight of
    :data:`ANSWERS` with their scores; and the answer each should get, by example id."""
    campaign = make_campaign(
        crowd_collection, traps=1, quiz_length=1, max_answers_per_worker=50, **options
    )
    work = list(campaign.examples.filter(trap__isnull=True).order_by("pk"))
    for example in work[len(ANSWERS) :]:
        example.delete()
    wanted = {}
    for example, (outcome, a, b) in zip(work, ANSWERS, strict=False):
        example.scores = {MEASURE: [a, b]}
        example.save(update_fields=["scores"])
        wanted[example.pk] = outcome
    return campaign, wanted


def answered_campaign(crowd_collection):
    """One trusted worker (passes a one-question quiz) gives the eight answers above."""
    campaign, wanted = campaign_scored_as_answers(crowd_collection)
    trusted = arrive(campaign, "trusted")
    while (task := task_serve(worker=trusted)) is not None:
        stored = wanted.get(task.example_id) or trap_of(task).accepted_answers[0]
        answer_submit(
            worker=trusted, key=task.key, choice=choice_as_stored(stored, swapped=task.swapped)
        )
    # A careless worker misses the quiz: stopped, their answers never count. (Their quiz
    # question is made for them from the judgments, issue 29, so its answer is drawn:
    # they give one it does not accept.)
    careless = arrive(campaign, "careless")
    task = task_serve(worker=careless)
    answer_submit(worker=careless, key=task.key, choice=wrong_choice(task))
    return campaign


def store_mapping(collection) -> PreferenceCampaign:
    campaign = PreferenceCampaign.objects.create(collection=collection, name="Study")
    payload = mapping_payload(MEASURE, *columns(ANSWERS))
    payload.update(n_examples=8, skipped={"no_score": 0, "out_of_range": 0})
    SatisfactionMapping.objects.create(
        campaign=campaign, measure=MEASURE, payload=payload, computed_at=timezone.now()
    )
    return campaign


def check_hand_made(payload):
    sat = payload["satisfaction"]
    assert sat["counts"] == SAT_COUNTS and sat["successes"] == SAT_SUCCESSES
    assert sat["proportion"][0] == pytest.approx(1 / 3) and sat["proportion"][2] is None
    # Wilson intervals, independently from scipy.
    low, high = binomtest(1, 3).proportion_ci(method="wilson")
    assert (sat["ci_low"][0], sat["ci_high"][0]) == pytest.approx((low, high))
    agr = payload["agreement"]
    assert agr["counts"] == AGR_COUNTS
    assert agr["positive"]["successes"] == AGR_POSITIVE
    assert agr["negative"]["successes"] == AGR_NEGATIVE
    assert payload["endpoint_bias"] == pytest.approx(math.sqrt(1 / 18))
    assert payload["distance_to_one"] == pytest.approx(math.sqrt(31 / 45))
    assert payload["distance_to_zero"] == pytest.approx(math.sqrt(4 / 45))
    assert (payload["n_answers"], payload["n_lists"], payload["n_preferences"]) == (8, 8, 4)


SAT_SUCCESSES = [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]


AGR_COUNTS = [1, 1, 0, 2, 0, 3, 0, 0, 0, 1]


AGR_POSITIVE = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]


AGR_NEGATIVE = [0, 0, 0, 0, 0, 2, 0, 0, 0, 0]


def judged_on_broad_only(collection) -> None:
    """The collection's judgments as TREC qrels hold them: Broad only, the Fine score
    split in three as the thesis splits it (§3.1.2): 0–33 → 0, 34–66 → 1, 67–100 → 2."""
    for judgment in RelevanceJudgment.objects.filter(query__collection=collection):
        judgment.broad = 0 if judgment.fine < 34 else 1 if judgment.fine < 67 else 2
        judgment.fine = None
        judgment.save(update_fields=["broad", "fine"])
