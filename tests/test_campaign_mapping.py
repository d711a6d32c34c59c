"""A campaign's satisfaction mapping: the §3.3 labelling, binned proportions, fit and storage."""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.stats import binomtest

from evaluation.core import stats
from evaluation.core.answers import label_answers, mapping_payload
from evaluation.core.example_generator import list_score
from evaluation.models import Leaderboard, MappingConfig, SatisfactionMapping
from evaluation.services import campaign_mapping_compute, collection_results_compute
from evaluation.services.mappings import campaign_measures, example_lambdas
from judging.models import Answer, RelevanceJudgment
from judging.models.crowd import choice_as_stored
from judging.services.crowd.answers import answer_submit
from judging.services.crowd.tasks import task_serve
from tests.crowd_fixtures import make_campaign, trap_of, wrong_choice
from tests.test_task_serve import arrive

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
SAT_SUCCESSES = [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]
AGR_COUNTS = [1, 1, 0, 2, 0, 3, 0, 0, 0, 1]
AGR_POSITIVE = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]
AGR_NEGATIVE = [0, 0, 0, 0, 0, 2, 0, 0, 0, 0]


def columns(answers):
    return [o for o, _, _ in answers], [a for _, a, _ in answers], [b for _, _, b in answers]


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


def test_nonpreferences_label_both_lists_and_preferences_label_the_difference():
    labelled = label_answers(*columns(ANSWERS))
    assert_allclose(labelled["sat_scores"], [0.05, 0.05, 0.02, 0.55, 0.95, 0.15, 0.35, 0.92])
    assert labelled["satisfied"].tolist() == [True, False, False, True, True, False, False, True]
    assert labelled["agreement"].tolist() == [0, 0, 0, 0, 1, -1, -1, 1]
    assert_allclose(labelled["deltas"], [-0.9, -0.1, -0.33, -0.37, 0.5, 0.5, -0.55, -0.05])


def test_the_mapping_of_hand_made_answers_has_the_proportions_worked_out_by_hand():
    payload = mapping_payload(MEASURE, *columns(ANSWERS))
    check_hand_made(payload)
    # Five bins with lists: the cubic of eq. (4.3) through their centres.
    centres = [0.05, 0.15, 0.35, 0.55, 0.95]
    expected = stats.fit_cubic(centres, [1 / 3, 0, 0, 1, 1])
    assert_allclose(payload["fit"]["coefficients"], expected.coefficients)
    assert payload["fit"]["r_squared"] == pytest.approx(expected.r_squared)
    # Compared with Table 4.3's CG_l@5 Fine curve over a grid of λ.
    published = stats.published_mapping("CG_l@5", "fine")
    grid = np.linspace(0, 1, 101)
    rms = np.sqrt(np.mean((expected(grid) - published(grid)) ** 2))
    assert payload["thesis_key"] == ["CG_l@5", "fine"]
    assert payload["published"]["coefficients"] == list(published.coefficients)
    assert payload["published"]["rms_fit_difference"] == pytest.approx(rms)


def test_too_few_bins_give_no_fit_and_say_why():
    payload = mapping_payload(MEASURE, ["both_good", "a_better"], [0.5, 0.5], [0.6, 0.1])
    assert payload["fit"] is None and "at least 4 bins" in payload["fit_note"]
    assert payload["endpoint_bias"] is None


# --- with the database: only accepted answers count ---------------------------------


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


@pytest.mark.django_db
def test_the_stored_mapping_counts_only_accepted_answers(crowd_collection):
    campaign = answered_campaign(crowd_collection)
    assert Answer.objects.filter(example__campaign=campaign, accepted_at__isnull=False).count() == 8
    assert campaign_measures(campaign=campaign) == [MEASURE]  # from Example.scores
    assert campaign_mapping_compute(campaign=campaign) == [MEASURE]
    stored = SatisfactionMapping.objects.get(campaign=campaign, measure=MEASURE)
    check_hand_made(stored.payload)
    assert stored.payload["skipped"] == {"no_score": 0, "out_of_range": 0}
    first = stored.computed_at
    campaign_mapping_compute(campaign=campaign)  # idempotent: overwrites its row
    assert SatisfactionMapping.objects.filter(campaign=campaign).count() == 1
    assert SatisfactionMapping.objects.get(campaign=campaign).computed_at >= first


@pytest.mark.django_db
def test_the_leaderboard_uses_the_campaigns_mapping_labelled_as_such(crowd_collection):
    campaign = answered_campaign(crowd_collection)
    campaign_mapping_compute(campaign=campaign)
    collection_results_compute(target_id=crowd_collection.pk)
    board = Leaderboard.objects.get(collection=crowd_collection, measure=MEASURE)
    mapping = board.payload["mapping"]
    fitted = SatisfactionMapping.objects.get(campaign=campaign).payload["fit"]
    assert mapping["source"] == "campaign" and mapping["campaign_id"] == campaign.pk
    assert "the campaign's own mapping" in mapping["label"]
    assert mapping["coefficients"] == fitted["coefficients"]
    other = Leaderboard.objects.get(collection=crowd_collection, measure="DCG(scale=fine)@5")
    assert other.payload["mapping"]["source"] == "published"


@pytest.mark.django_db
def test_lists_without_stored_scores_are_scored_like_the_generator_scores_them(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    examples = list(campaign.examples.prefetch_related("items").order_by("pk"))
    measures = [MEASURE, "DCG(scale=fine)@5"]
    lambdas = example_lambdas(
        campaign=campaign, example_ids=[e.pk for e in examples], measures=measures
    )
    fine = {
        (j.query_id, j.clip_id): j.fine
        for j in RelevanceJudgment.objects.filter(query__collection=crowd_collection)
    }
    for measure in measures:
        for example in examples:
            rows = [
                [fine[(example.query_id, i.clip_id)] for i in example.items.all() if i.side == s]
                for s in "ab"
            ]
            assert_allclose(lambdas[measure][example.pk], list_score(measure, np.array(rows)))


@pytest.mark.django_db
def test_configured_measures_replace_the_defaults_and_drop_old_mappings(crowd_collection):
    campaign = answered_campaign(crowd_collection)
    campaign_mapping_compute(campaign=campaign)
    MappingConfig.objects.create(
        campaign=campaign, measures=["DCG(scale=fine)@5", "RBP(scale=fine)@5"]
    )
    assert campaign_measures(campaign=campaign) == ["DCG(scale=fine)@5", "RBP(scale=fine)@5"]
    campaign_mapping_compute(campaign=campaign)
    stored = dict(
        SatisfactionMapping.objects.filter(campaign=campaign).values_list("measure", "payload")
    )
    assert set(stored) == {"DCG(scale=fine)@5", "RBP(scale=fine)@5"}
    assert stored["DCG(scale=fine)@5"]["n_answers"] == 8
    # No stored λ for these measures: scored from the judgments, so no answer is skipped.
    assert stored["DCG(scale=fine)@5"]["skipped"] == {"no_score": 0, "out_of_range": 0}
    assert stored["DCG(scale=fine)@5"]["published"]["label"].endswith("DCG_l@5 (fine)")
    # System-oriented RBP has no Table 4.3 row (only form=user maps).
    assert stored["RBP(scale=fine)@5"]["published"] is None


@pytest.mark.django_db
def test_a_burst_of_handed_over_answers_asks_for_one_campaign_recompute(
    crowd_collection, monkeypatch, django_capture_on_commit_callbacks
):
    from evaluation.models import Recompute
    from evaluation.services import recompute
    from evaluation.tasks import preference_answers_accepted

    enqueued = []
    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: enqueued.append(pk))
    campaign = make_campaign(crowd_collection, traps=0)
    with django_capture_on_commit_callbacks(execute=True):
        results = [preference_answers_accepted(campaign_id=campaign.pk) for _ in range(20)]
    assert results.count(True) == 1 and len(enqueued) == 1
    row = Recompute.objects.get(kind="campaign", target_id=campaign.pk)
    assert (row.requests, row.status) == (20, "pending")
    assert preference_answers_accepted(campaign_id=999_999) is False  # deleted campaign


def judged_on_broad_only(collection) -> None:
    """The collection's judgments as TREC qrels hold them: Broad only, the Fine score
    split in three as the thesis splits it (§3.1.2): 0–33 → 0, 34–66 → 1, 67–100 → 2."""
    for judgment in RelevanceJudgment.objects.filter(query__collection=collection):
        judgment.broad = 0 if judgment.fine < 34 else 1 if judgment.fine < 67 else 2
        judgment.fine = None
        judgment.save(update_fields=["broad", "fine"])


@pytest.mark.django_db
def test_a_broad_only_collections_mapping_is_on_a_broad_measure_and_bins_its_answers(
    crowd_collection,
):
    """Issue 31, item 6: on TREC qrels the mapping defaulted to CG(scale=fine)@5, every
    Δλ fell in [0.0, 0.1) and "No fit" came with no hint that a Broad measure would work."""
    judged_on_broad_only(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=1, quiz_length=1, max_answers_per_worker=50)
    assert campaign_measures(campaign=campaign) == ["CG(scale=broad)@5"]
    examples = list(campaign.examples.filter(trap__isnull=True).prefetch_related("items"))
    lambdas = example_lambdas(
        campaign=campaign, example_ids=[e.pk for e in examples], measures=["CG(scale=broad)@5"]
    )["CG(scale=broad)@5"]
    broad = {
        (j.query_id, j.clip_id): j.broad
        for j in RelevanceJudgment.objects.filter(query__collection=crowd_collection)
    }
    for example in examples:  # CG_l@5 on Broad: the mean of level / 2 over the 5 ranks
        by_side = [
            [broad[(example.query_id, i.clip_id)] for i in example.items.all() if i.side == s]
            for s in "ab"
        ]
        assert lambdas[example.pk] == pytest.approx([sum(levels) / 2 / 5 for levels in by_side])
    worker = arrive(campaign, "careful")  # passes the one-question quiz (it accepts a_better)
    while (task := task_serve(worker=worker)) is not None:
        choice = (
            "both_good" if not task.is_quiz else choice_as_stored("a_better", swapped=task.swapped)
        )
        answer_submit(worker=worker, key=task.key, choice=choice)
    campaign_mapping_compute(campaign=campaign)
    stored = SatisfactionMapping.objects.get(campaign=campaign)
    assert stored.measure == "CG(scale=broad)@5"
    assert stored.payload["chosen"] == {"because": "default", "scales": ["broad"]}
    # Every list of the 11 work examples labelled satisfactory, binned by its own λ.
    assert stored.payload["n_lists"] == 2 * len(examples)
    assert len({round(x, 1) for pair in lambdas.values() for x in pair}) > 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("scales", "measure"),
    [(("fine",), "CG(scale=fine)@5"), (("fine", "broad"), "CG(scale=fine)@5"),
     (("broad",), "CG(scale=broad)@5"), ((), "CG(scale=fine)@5")],
)  # fmt: skip
def test_the_default_mapping_measure_follows_the_scales_judged(scales, measure):
    from evaluation.services.mappings import default_mapping_measure

    assert default_mapping_measure(scales) == measure
