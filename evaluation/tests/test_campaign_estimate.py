"""The low-cost recompute: a campaign's estimates, its judging order and its stopping rule,
computed in the background from the judgments the leaderboards use (thesis ch. 7–8)."""

import numpy as np
import pytest

from evaluation.core.lowcost import Metadata, Pool, lowcost_state
from evaluation.models import (
    CampaignEstimate,
    EstimatedLeaderboard,
    Leaderboard,
    Recompute,
    ResultsConfig,
)
from evaluation.services.computers import recompute_run
from evaluation.services.estimates import campaign_estimate_compute
from evaluation.services.recompute import recompute_request
from evaluation.services.results import collection_results_compute
from relevance.services.campaigns import assignment_next
from relevance.services.settings import relevance_campaign_open_set
from tests.helpers.lowcost_campaign_data import (
    CONFIDENT_AFTER,
    FINE,
    MEASURE,
    QUERIES,
    assessors_campaign,
    import_judgment,
    judge,
    make_lowcost_campaign,
    organisers_collection,
    rankings,
)
from tests.helpers.relevance_data import make_campaign
from work.kinds import RECOMPUTE, kind_runner
from work.tasks import collection_data_changed, relevance_campaign_changed

pytestmark = pytest.mark.django_db


collection = pytest.fixture(name="collection")(organisers_collection)
campaign = pytest.fixture(name="campaign")(assessors_campaign)


def core_state(judged: dict[tuple[str, str], float], *, depth=2, measure=MEASURE, **options):
    """The core on the same collection, built here from the test's own tables."""
    pool = Pool.from_rankings(rankings(), depth=depth)
    clips = [*QUERIES, *{c for lists in rankings().values() for r in lists.values() for c in r}]
    metadata = Metadata.from_records([(c, f"Artist {c}", "Rock") for c in clips])
    values = np.full(pool.n_pairs, np.nan)
    for (query, clip), fine in judged.items():
        values[pool.index(query, clip)] = fine
    return lowcost_state(pool, values, metadata, measure=measure, **options)


def stored_order(campaign) -> list[str]:
    entries = campaign.pool.exclude(priority=None).order_by("priority")
    return [f"{e.query.external_id}:{e.clip.external_id}" for e in entries]


def judge_in_stored_order(campaign, assessor, n: int) -> dict[tuple[str, str], float]:
    """Judge ``n`` pairs as "Get next" serves them, recomputing after each, as the app does."""
    done = {}
    for _ in range(n):
        work = assignment_next(campaign=campaign, assessor=assessor)
        judge(work, assessor)
        clip = work.pool_entry.clip.external_id
        done[(work.query.external_id, clip)] = float(FINE[clip[0]])
        campaign_estimate_compute(target_id=campaign.pk)
    return done


def test_the_first_estimate_matches_the_core_and_orders_the_pairs(campaign):
    campaign_estimate_compute(target_id=campaign.pk)
    payload = CampaignEstimate.objects.get(campaign=campaign).payload
    expected = core_state({})  # the numbers come from the core, on the test's own tables
    assert payload["measure"] == MEASURE and (payload["pool"], payload["judged"]) == (12, 0)
    assert [r["system"] for r in payload["systems"]] == [
        expected.scores.systems[s] for s in expected.scores.order()
    ]
    means = dict(zip(expected.scores.systems, expected.scores.expectation, strict=True))
    for row in payload["systems"]:
        assert row["expectation"] == pytest.approx(means[row["system"]])
    assert payload["ranking_confidence"] == pytest.approx(expected.scores.ranking_confidence)
    assert payload["sources"] == {"M_out": 12}  # every pair has metadata: M_out (Table A.1)
    core_order = [f"{q}:{d}" for q, d in expected.pool.pair_names(expected.order)]
    assert stored_order(campaign) == core_order


def test_a_handful_of_judgments_make_the_ranking_confident(campaign, personas):
    # tests/helpers/lowcost_campaign_data.py: 95% after 5 judgments in the core's own order.
    done = judge_in_stored_order(campaign, personas.assessor, CONFIDENT_AFTER - 1)
    before = CampaignEstimate.objects.get(campaign=campaign).payload["stopping"]
    assert not before["stop"] and before["value"] < 0.95
    assert before["value"] == pytest.approx(core_state(done).stopping.value)
    done |= judge_in_stored_order(campaign, personas.assessor, 1)
    estimate = CampaignEstimate.objects.get(campaign=campaign)
    rule = estimate.payload["stopping"]
    expected = core_state(done).stopping
    assert rule["stop"] and rule["value"] == pytest.approx(expected.value)
    assert expected.value >= 0.95
    assert rule["threshold"] == 0.95 and rule["target"] == "relative"
    assert estimate.judged == CONFIDENT_AFTER == len(done)
    assert sorted(done) == [("q1", "g1"), ("q1", "p1"), ("q2", "g2"), ("q2", "p2"), ("q3", "g3")]
    ranking = [r["system"] for r in estimate.payload["systems"]]
    assert ranking == ["GoodEar", "MidFi", "Poorly"]


def test_the_same_five_judgments_are_confident_when_the_order_is_never_updated(campaign, personas):
    # The stale-order fallback: one estimate at the start, none after; "Get next" serves
    # the next-best pair of that first order, and the same 5 judgments settle it.
    campaign_estimate_compute(target_id=campaign.pk)
    done = {}
    for _ in range(CONFIDENT_AFTER):
        work = assignment_next(campaign=campaign, assessor=personas.assessor)
        judge(work, personas.assessor)
        clip = work.pool_entry.clip.external_id
        done[(work.query.external_id, clip)] = float(FINE[clip[0]])
    assert core_state(done).stopping.stop


def test_the_absolute_rule_bounds_the_root_mean_variance_with_the_corrected_threshold(
    collection,
):
    campaign = make_lowcost_campaign(collection, lowcost_target="absolute", lowcost_stop_at=0.05)
    campaign_estimate_compute(target_id=campaign.pk)
    rule = CampaignEstimate.objects.get(campaign=campaign).payload["stopping"]
    expected = core_state({}, target="absolute", half_width=0.05).stopping
    assert rule["target"] == "absolute" and rule["threshold"] == 0.011  # Fig. 8.5 via §8.4
    assert rule["value"] == pytest.approx(expected.value) and rule["stop"] is expected.stop


def test_the_estimates_use_judgments_from_elsewhere_as_the_leaderboards_do(campaign, collection):
    import_judgment(collection, "q1", "g1", 90)
    import_judgment(collection, "q1", "g1", 100, source="other")  # two judgments: mean 95
    campaign_estimate_compute(target_id=campaign.pk)
    estimate = CampaignEstimate.objects.get(campaign=campaign)
    assert estimate.judged == 1
    entry = campaign.pool.get(query__clip__external_id="q1", clip__external_id="g1")
    assert entry.priority is None and entry.weight == 0
    expected = core_state({("q1", "g1"): 95.0})
    assert estimate.payload["ranking_confidence"] == pytest.approx(
        expected.scores.ranking_confidence
    )


def test_once_the_pool_is_judged_the_estimates_are_the_ordinary_leaderboard(personas):
    # The campaign leaves out clips by the query's artist and the query clip itself:
    # those pairs are never judged and count as not relevant, as in the leaderboards.
    campaign = make_campaign(
        personas, assessors=[personas.assessor]
    )  # tests.helpers.relevance_data
    collection = campaign.collection
    lowcost = make_lowcost_campaign(
        collection, cutoff=3, exclude_same_artist=True, lowcost_measure="DCG(scale=fine)@3"
    )
    for n, entry in enumerate(lowcost.pool.select_related("query__clip", "clip")):
        import_judgment(collection, entry.query.external_id, entry.clip.external_id, 7 * n + 3)
    campaign_estimate_compute(target_id=lowcost.pk)
    payload = CampaignEstimate.objects.get(campaign=lowcost).payload
    ResultsConfig.objects.create(collection=collection, measures=["DCG(scale=fine)@3"])
    collection_results_compute(target_id=collection.pk)
    board = Leaderboard.objects.get(collection=collection, measure="DCG(scale=fine)@3").payload
    ordinary = {row["system"]: row["mean"] for row in board["rows"]}
    estimated = {row["system"]: row["expectation"] for row in payload["systems"]}
    assert estimated == pytest.approx(ordinary)
    assert all(row["variance"] == 0 for row in payload["systems"])
    assert payload["stopping"]["stop"] and payload["judged"] == payload["pool"]


def test_pooled_and_deleted_campaigns_are_not_estimated(personas):
    pooled = make_campaign(personas)
    campaign_estimate_compute(target_id=pooled.pk)
    campaign_estimate_compute(target_id=10_000)
    assert not CampaignEstimate.objects.exists()
    assert relevance_campaign_changed(pooled.pk) is False


# --- Through the coalesced recompute machinery ----------------------------------------------


def test_a_burst_of_judgments_asks_for_one_recompute_of_each_open_lowcost_campaign(
    campaign, collection, personas, enqueued, django_capture_on_commit_callbacks
):
    closed = make_lowcost_campaign(collection)
    relevance_campaign_open_set(campaign=closed, is_open=False)
    make_campaign(personas)  # a pooled campaign of another collection
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(10):  # ten judgments' tasks before a worker gets to them
            collection_data_changed(collection.pk)
    rows = Recompute.objects.filter(kind="lowcost")
    assert list(rows.values_list("target_id", "requests")) == [(campaign.pk, 10)]
    assert len([pk for pk in enqueued if pk == rows.get().pk]) == 1


def test_the_lowcost_kind_runs_its_computer_and_settles(campaign, enqueued):
    assert kind_runner("lowcost", table=RECOMPUTE) is campaign_estimate_compute
    recompute_request(kind="lowcost", target_id=campaign.pk)
    row = Recompute.objects.get(kind="lowcost")
    assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.computations, row.error) == ("done", 1, "")
    assert CampaignEstimate.objects.filter(campaign=campaign).exists()


# --- Estimated leaderboards of an incomplete collection ----------------------------------------


def test_an_incomplete_collection_gets_estimated_leaderboards_beside_the_ordinary_ones(
    collection,
):
    import_judgment(collection, "q1", "g1", 100)
    import_judgment(collection, "q2", "p2", 0)
    collection_results_compute(target_id=collection.pk)
    labels = sorted(collection.leaderboards.values_list("measure", flat=True))
    assert labels == ["CG(scale=broad)@5", "CG(scale=fine)@5", "DCG(scale=broad)@5", "DCG(scale=fine)@5"]  # fmt: skip
    estimated = EstimatedLeaderboard.objects.filter(collection=collection)
    assert sorted(estimated.values_list("measure", flat=True)) == labels
    payload = estimated.get(measure="CG(scale=fine)@5").payload
    assert (payload["judged"], payload["pool"]) == (2, 12)
    expected = core_state({("q1", "g1"): 100.0, ("q2", "p2"): 0.0}, depth=5, measure="CG@5")
    means = dict(zip(expected.scores.systems, expected.scores.expectation, strict=True))
    assert {r["system"]: r["expectation"] for r in payload["systems"]} == pytest.approx(means)
    assert payload["ranking_confidence"] == pytest.approx(expected.scores.ranking_confidence)
    assert len(payload["differences"]) == 3


def test_a_complete_collection_keeps_no_estimated_leaderboard(collection):
    import_judgment(collection, "q1", "g1", 100)
    import_judgment(collection, "q2", "g2", 100)
    collection_results_compute(target_id=collection.pk)
    assert EstimatedLeaderboard.objects.filter(collection=collection).exists()
    for query in QUERIES:
        for kind in "gsmp":
            clip = f"{kind}{query[1]}"
            if (query, clip) not in (("q1", "g1"), ("q2", "g2")):
                import_judgment(collection, query, clip, FINE[kind])
    collection_results_compute(target_id=collection.pk)
    assert not EstimatedLeaderboard.objects.filter(collection=collection).exists()


def test_with_one_judged_query_only_the_estimated_leaderboards_exist(collection):
    # An ordinary leaderboard's intervals need two queries; a low-cost campaign's first
    # judgment leaves one: the recompute succeeds with estimates alone instead of failing.
    import_judgment(collection, "q1", "g1", 100)
    collection_results_compute(target_id=collection.pk)
    assert not collection.leaderboards.exists()
    estimated = EstimatedLeaderboard.objects.filter(collection=collection)
    assert estimated.get(measure="CG(scale=fine)@5").payload["judged"] == 1
