"""A campaign's satisfaction mapping: the §3.3 labelling, binned proportions, fit and storage."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from catalog.models import RelevanceJudgment
from crowd.models import Answer, choice_as_stored
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.core import stats
from evaluation.core.answers import label_answers, mapping_payload
from evaluation.core.example_generator import list_score
from evaluation.models import Leaderboard, MappingConfig, SatisfactionMapping
from evaluation.services import campaign_mapping_compute, collection_results_compute
from evaluation.services.mappings import campaign_measures, example_lambdas
from tests.helpers.crowd_fixtures import arrive, make_campaign
from tests.helpers.mappings import (
    ANSWERS,
    MEASURE,
    answered_campaign,
    check_hand_made,
    columns,
    judged_on_broad_only,
)


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
    from work.tasks import preference_answers_accepted

    enqueued = []
    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: enqueued.append(pk))
    campaign = make_campaign(crowd_collection, traps=0)
    with django_capture_on_commit_callbacks(execute=True):
        results = [preference_answers_accepted(campaign_id=campaign.pk) for _ in range(20)]
    assert results.count(True) == 1 and len(enqueued) == 1
    row = Recompute.objects.get(kind="campaign", target_id=campaign.pk)
    assert (row.requests, row.state) == (20, "queued")
    assert preference_answers_accepted(campaign_id=999_999) is False  # deleted campaign


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
    # At the campaign's list length: lists of 2 scored at 5 could never pass λ = 0.4.
    assert default_mapping_measure(scales, 2) == measure.replace("@5", "@2")
