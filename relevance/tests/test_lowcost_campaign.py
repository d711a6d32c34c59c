"""Low-cost relevance campaigns on the judging side: settings, serving single pairs, leases,
the stale-order fallback, and saving a pair's judgment (thesis ch. 8 in the app)."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from relevance import selectors
from relevance.models import Assignment, RelevanceCampaign
from relevance.services.campaigns import AssignmentTakenBack, assignment_next, judgment_save
from relevance.services.lowcost import pool_priorities_store
from relevance.services.settings import (
    relevance_campaign_assessor_remove,
    relevance_campaign_open_set,
    relevance_campaign_update,
)
from tests.helpers.lowcost_campaign_data import (
    assessors_campaign,
    import_judgment,
    judge,
    make_lowcost_campaign,
    organisers_collection,
)
from tests.helpers.relevance_data import at_the_same_instant, make_assessor, make_campaign
from work.handoff import RELEVANCE_CAMPAIGN_CHANGED_TASK

pytestmark = pytest.mark.django_db


collection = pytest.fixture(name="collection")(organisers_collection)
campaign = pytest.fixture(name="campaign")(assessors_campaign)


def pair(assignment) -> str:
    return f"{assignment.query.external_id}:{assignment.pool_entry.clip.external_id}"


def order_by(campaign, pairs: list[str]):
    """Store a judging order as the evaluation layer would: ``pairs`` first to last."""
    entries = {
        f"{e.query.external_id}:{e.clip.external_id}": e.pk
        for e in campaign.pool.select_related("query__clip", "clip")
    }
    priorities = {entries[p]: (1.0 / n, n) for n, p in enumerate(pairs, start=1)}
    pool_priorities_store(campaign=campaign, priorities=priorities)


# --- Creating one -----------------------------------------------------------------------


def test_it_gets_one_free_assignment_per_pair_and_no_query_slots(campaign):
    assert campaign.is_lowcost and campaign.lowcost_measure == "CG(scale=fine)@2"
    rows = Assignment.objects.filter(campaign=campaign)
    assert rows.count() == campaign.pool.count() == 12  # 3 queries × clips g, s, m, p
    assert not rows.filter(pool_entry__isnull=True).exists()
    assert sorted(rows.values_list("pool_entry", flat=True)) == sorted(
        campaign.pool.values_list("pk", flat=True)
    )
    assert not rows.exclude(assessor=None).exists()


@pytest.mark.django_db(transaction=True)
def test_creating_one_asks_evaluation_for_its_first_estimates_by_task_name(collection, handed_over):
    campaign = make_lowcost_campaign(collection)
    assert handed_over == [(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign.pk})]


def test_a_measure_without_a_probabilistic_form_or_deeper_than_the_pool_is_refused(collection):
    with pytest.raises(ValidationError) as refused:
        make_lowcost_campaign(collection, lowcost_measure="AP@2")
    assert "defines CG, DCG, nDCG, RBP" in refused.value.message_dict["lowcost_measure"][0]
    with pytest.raises(ValidationError) as refused:
        make_lowcost_campaign(collection, lowcost_measure="nDCG@5")
    assert "top 5 but the pool holds each system's top 2" in str(refused.value)
    assert not RelevanceCampaign.objects.exists()  # nothing half-made


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"lowcost_stop_at": 1.0}, "lowcost_stop_at"),  # certainty needs every pair
        ({"lowcost_stop_at": 0.4}, "lowcost_stop_at"),  # below a coin toss
        ({"lowcost_target": "absolute", "lowcost_stop_at": 0.0}, "lowcost_stop_at"),
        ({"lowcost_target": "absolute", "lowcost_stop_at": 0.9}, "lowcost_stop_at"),
        ({"lowcost_target": "everything"}, "lowcost_target"),
        ({"assessors_per_query": 2}, "assessors_per_query"),
        ({"queries_per_assessor": 3}, "queries_per_assessor"),
    ],
)
def test_careless_settings_are_refused_naming_the_field(collection, options, field):
    with pytest.raises(ValidationError) as refused:
        make_lowcost_campaign(collection, **options)
    assert list(refused.value.message_dict) == [field]


def test_the_database_refuses_a_second_assignment_of_one_pair_in_the_same_slot(campaign):
    from django.db import IntegrityError, transaction

    row = Assignment.objects.filter(campaign=campaign).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Assignment.objects.create(
            campaign=campaign, query=row.query, pool_entry=row.pool_entry, slot=0
        )


# --- Changing one after it started (relevance.services.settings) --------------------


def test_its_measure_target_and_stop_can_change_and_ask_for_a_new_order(
    campaign, django_capture_on_commit_callbacks, handed_over
):
    with django_capture_on_commit_callbacks(execute=True):
        changed = relevance_campaign_update(
            campaign=campaign,
            changes={"lowcost_measure": "nDCG@2", "lowcost_target": "absolute",
                     "lowcost_stop_at": 0.05},
        )  # fmt: skip
    assert changed == ["lowcost_measure", "lowcost_target", "lowcost_stop_at"]
    campaign.refresh_from_db()
    assert (campaign.lowcost_measure, campaign.lowcost_stop_at) == ("nDCG@2", 0.05)
    assert handed_over == [(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign.pk})]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"assessors_per_query": 2}, "assessors_per_query"),  # each pair is judged once
        ({"queries_per_assessor": 3}, "queries_per_assessor"),
        ({"lowcost_measure": "CG@5"}, "lowcost_measure"),  # deeper than the pool (k = 2)
        ({"lowcost_stop_at": 1.5}, "lowcost_stop_at"),
    ],
)
def test_careless_changes_are_refused_naming_the_field(campaign, changes, field):
    with pytest.raises(ValidationError) as refused:
        relevance_campaign_update(campaign=campaign, changes=changes)
    assert field in refused.value.message_dict
    assert campaign.assignments.filter(pool_entry__isnull=True).count() == 0  # no query slots


def test_a_pooled_campaign_has_no_lowcost_settings_to_change(personas):
    pooled = make_campaign(personas)
    with pytest.raises(ValidationError) as refused:
        relevance_campaign_update(campaign=pooled, changes={"lowcost_measure": "DCG@3"})
    assert "Only a low-cost campaign" in refused.value.message_dict["lowcost_measure"][0]


def test_removing_an_assessor_frees_their_untouched_pair_and_reopens_a_started_one(
    campaign, personas
):
    order_by(campaign, ["q1:g1", "q1:p1", "q2:g2"])
    ada, bea = personas.assessor, make_assessor("bea")
    campaign.assessors.add(bea)
    started = assignment_next(campaign=campaign, assessor=ada)
    judgment_save(assignment=started, assessor=ada, pool_entry=started.pool_entry,
                  listened_seconds=2)  # fmt: skip
    untouched = assignment_next(campaign=campaign, assessor=bea)
    assert relevance_campaign_assessor_remove(campaign=campaign, assessor=bea) == {
        "freed": 1, "reopened": 0,
    }  # fmt: skip
    assert relevance_campaign_assessor_remove(campaign=campaign, assessor=ada) == {
        "freed": 0, "reopened": 1,
    }  # fmt: skip
    carl = make_assessor("carl")
    campaign.assessors.add(carl)
    # q1:g1 has a second free slot (ada's partial work is kept in the first).
    again = assignment_next(campaign=campaign, assessor=carl)
    assert (pair(again), again.slot) == ("q1:g1", 1) and again.pk != started.pk
    untouched.refresh_from_db()
    assert untouched.assessor is None


# --- Get next: single pairs by the stored order ------------------------------------------


def test_get_next_serves_the_pair_of_highest_stored_priority(campaign, personas):
    order_by(campaign, ["q2:p2", "q1:g1", "q3:s3"])
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert work.is_pair and pair(work) == "q2:p2"
    assert assignment_next(campaign=campaign, assessor=personas.assessor) == work  # kept
    bea = make_assessor("bea")
    campaign.assessors.add(bea)
    assert pair(assignment_next(campaign=campaign, assessor=bea)) == "q1:g1"


def test_before_the_first_estimate_pairs_go_in_pool_order(campaign, personas):
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert work.pool_entry == campaign.pool.order_by("pk").first()


def test_a_stale_order_serves_the_next_best_unjudged_pair(campaign, personas):
    # The order was stored before any judgment; two judgments later it is stale (no
    # recompute ran): the next-best free pair of that order is served.
    order_by(campaign, ["q1:g1", "q1:p1", "q2:g2", "q2:p2"])
    ada = personas.assessor
    for expected in ("q1:g1", "q1:p1", "q2:g2"):
        work = assignment_next(campaign=campaign, assessor=ada)
        assert pair(work) == expected
        judge(work, ada)


def test_a_pair_judged_elsewhere_meanwhile_is_skipped(campaign, collection, personas):
    order_by(campaign, ["q1:g1", "q1:p1"])
    import_judgment(collection, "q1", "g1", 95)  # an import, after the order was stored
    assert pair(assignment_next(campaign=campaign, assessor=personas.assessor)) == "q1:p1"


def test_nothing_is_served_once_every_pair_is_judged(campaign, personas):
    ada = personas.assessor
    served = set()
    while (work := assignment_next(campaign=campaign, assessor=ada)) is not None:
        served.add(pair(work))
        judge(work, ada)
    assert len(served) == 12


def test_a_stopped_campaign_serves_nothing_and_asks_for_final_estimates(
    campaign, personas, django_capture_on_commit_callbacks, handed_over
):
    with django_capture_on_commit_callbacks(execute=True):
        assert relevance_campaign_open_set(campaign=campaign, is_open=False) is True
    assert handed_over == [(RELEVANCE_CAMPAIGN_CHANGED_TASK, {"campaign_id": campaign.pk})]
    assert relevance_campaign_open_set(campaign=campaign, is_open=False) is False  # already stopped
    campaign.refresh_from_db()
    with pytest.raises(PermissionDenied):
        assignment_next(campaign=campaign, assessor=personas.assessor)


# --- Leases -------------------------------------------------------------------------------


def held_since_before_the_take_back_time(campaign, ada):
    """Ada took the best pair (q1:g1) longer ago than the campaign's take-back time;
    bea is a second assessor. Returns (bea, ada's pair, when ada took it)."""
    order_by(campaign, ["q1:g1", "q1:p1"])
    bea = make_assessor("bea")
    campaign.assessors.add(bea)
    long_ago = timezone.now() - campaign.take_back_after - timedelta(minutes=1)
    held = assignment_next(campaign=campaign, assessor=ada, now=long_ago)
    assert pair(held) == "q1:g1"
    return bea, held, long_ago


def test_an_untouched_lease_expires_and_the_pair_goes_to_someone_else(campaign, personas):
    ada = personas.assessor
    bea, held, long_ago = held_since_before_the_take_back_time(campaign, ada)
    # While the lease holds, bea gets the next pair; once it has expired, the best one.
    recent = long_ago + timedelta(minutes=1)
    assert pair(assignment_next(campaign=campaign, assessor=bea, now=recent)) == "q1:p1"
    Assignment.objects.filter(assessor=bea).update(completed_at=timezone.now())
    again = assignment_next(campaign=campaign, assessor=bea)
    assert again.pk == held.pk and again.assessor == bea
    # Ada's page, still open, cannot save into bea's pair.
    with pytest.raises(AssignmentTakenBack):
        judge(held, ada)


def test_a_lease_with_something_saved_is_kept(campaign, personas):
    ada = personas.assessor
    bea, held, _ = held_since_before_the_take_back_time(campaign, ada)
    judgment_save(assignment=held, assessor=ada, pool_entry=held.pool_entry, listened_seconds=3)
    assert pair(assignment_next(campaign=campaign, assessor=bea)) == "q1:p1"


# --- Two assessors at once, on two real database connections --------------------------------


@pytest.mark.django_db(transaction=True)
def test_assessors_asking_at_the_same_instant_never_share_a_pair(collection):
    assessors = [make_assessor(f"racer{i}") for i in range(4)]
    campaign = make_lowcost_campaign(collection, assessors=assessors)
    order_by(campaign, ["q1:g1", "q1:p1", "q2:g2", "q2:p2"])  # all aim at q1:g1 first
    outcomes = at_the_same_instant(
        assessors, lambda assessor: assignment_next(campaign=campaign, assessor=assessor)
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(pair(work) for work in outcomes) == ["q1:g1", "q1:p1", "q2:g2", "q2:p2"]
    held = Assignment.objects.filter(campaign=campaign).exclude(assessor=None)
    assert held.count() == 4 and len(set(held.values_list("pool_entry", flat=True))) == 4


# --- Saving a pair's judgment -------------------------------------------------------------


def test_a_pair_is_done_after_its_one_judgment(campaign, personas):
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    saved = judge(work, personas.assessor)
    assert (saved.candidates_done, saved.candidates_total, saved.assignment_done) == (1, 1, True)
    work.refresh_from_db()
    assert work.completed_at is not None


def test_an_assessor_cannot_judge_another_candidate_of_the_pairs_query(campaign, personas):
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    other = campaign.pool.filter(query=work.query).exclude(pk=work.pool_entry_id).first()
    with pytest.raises(ValidationError, match="not a candidate"):
        judgment_save(
            assignment=work, assessor=personas.assessor, pool_entry=other, broad=2, fine=99
        )
    assert not other.clip.judgments.exists()


def test_a_judgment_for_a_pair_already_judged_elsewhere_is_kept_beside_it(
    campaign, collection, personas
):
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    query, clip = work.query.external_id, work.pool_entry.clip.external_id
    import_judgment(collection, query, clip, 10)  # lands while the assessor listens
    saved = judge(work, personas.assessor, fine=30)
    assert saved.assignment_done
    fines = sorted(work.pool_entry.clip.judgments.values_list("fine", flat=True))
    assert fines == [10, 30]  # both count; evaluation consolidates them (mean: 20)
    assert assignment_next(campaign=campaign, assessor=personas.assessor) != work


def test_an_assessor_hears_only_the_query_and_the_candidate_of_their_pair(campaign, personas):
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    others = campaign.pool.filter(query=work.query).exclude(pk=work.pool_entry_id)
    hears = selectors.clip_in_assessor_assignments
    assert hears(user=personas.assessor, clip=work.query.clip)
    assert hears(user=personas.assessor, clip=work.pool_entry.clip)
    assert not any(hears(user=personas.assessor, clip=e.clip) for e in others)


def test_pair_progress_counts_judgments_out_of_the_full_pool(campaign, collection, personas):
    ada = personas.assessor
    judge(assignment_next(campaign=campaign, assessor=ada), ada)
    assignment_next(campaign=campaign, assessor=ada)  # held, not judged yet
    import_judgment(collection, "q3", "m3", 30)
    progress = selectors.campaign_pair_progress(campaign=campaign)
    assert (progress.pool, progress.judged, progress.by_campaign, progress.in_progress) == (
        12,
        2,
        1,
        1,
    )
    assert progress.share == pytest.approx(2 / 12)


# --- Cheap, and robust to a dead broker ----------------------------------------------------------


def test_get_next_reads_the_stored_order_in_a_few_queries(
    campaign, personas, django_assert_max_num_queries
):
    # No model fit in the request: permission, unfinished work, take-back, the first 20
    # free pairs by stored priority (LIMIT 20, whatever the pool size), which of them were
    # judged elsewhere meanwhile, the claim (in a savepoint).
    order_by(campaign, ["q3:m3"])
    with django_assert_max_num_queries(9):
        work = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert pair(work) == "q3:m3"


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_a_campaign_is_still_created_and_serves_pairs(
    collection, personas, monkeypatch, caplog
):
    from work import handoff

    def broken(name, *, kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr(handoff, "send_task", broken)
    campaign = make_lowcost_campaign(collection, assessors=[personas.assessor])
    assert "could not send evaluation.relevance_campaign_changed" in caplog.text
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert work.pool_entry == campaign.pool.order_by("pk").first()  # pool order, no estimate
