"""'Get next query': assessors ask for work and never get more than the campaign allows."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from relevance.models import Assignment
from relevance.services.campaigns import assignment_claim, assignment_next
from tests.helpers.relevance_data import at_the_same_instant, make_assessor, make_campaign

pytestmark = pytest.mark.django_db


def test_an_assessor_gets_a_query_and_keeps_it_until_it_is_done(personas):
    campaign = make_campaign(personas)
    first = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert first.assessor == personas.assessor
    assert assignment_next(campaign=campaign, assessor=personas.assessor) == first


def test_a_finished_query_makes_way_for_the_next_one(personas):
    campaign = make_campaign(personas)
    first = assignment_next(campaign=campaign, assessor=personas.assessor)
    Assignment.objects.filter(pk=first.pk).update(completed_at=timezone.now())
    second = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert second.query != first.query


def test_no_assessor_gets_the_same_query_twice(personas):
    campaign = make_campaign(personas, assessors_per_query=2)
    queries = []
    while (work := assignment_next(campaign=campaign, assessor=personas.assessor)) is not None:
        queries.append(work.query_id)
        Assignment.objects.filter(pk=work.pk).update(completed_at=timezone.now())
    assert len(queries) == len(set(queries)) == 2  # both queries of the campaign, once each


def test_a_query_is_not_given_to_more_assessors_than_configured(personas):
    bea, cal = make_assessor("bea"), make_assessor("cal")
    campaign = make_campaign(personas, assessors=[personas.assessor, bea, cal])  # 1 per query
    got = [
        assignment_next(campaign=campaign, assessor=who) for who in (personas.assessor, bea, cal)
    ]
    assert got[2] is None  # two queries, one assessor each: the third asks in vain
    assert got[0].query != got[1].query


def test_queries_with_fewer_assessors_come_first(personas):
    bea = make_assessor("bea")
    campaign = make_campaign(personas, assessors=[personas.assessor, bea], assessors_per_query=2)
    ada_work = assignment_next(campaign=campaign, assessor=personas.assessor)
    bea_work = assignment_next(campaign=campaign, assessor=bea)
    assert bea_work.query != ada_work.query  # every query gets a first assessor first


def test_the_cap_stops_an_assessor_after_so_many_queries(personas):
    campaign = make_campaign(personas, queries_per_assessor=1)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    Assignment.objects.filter(pk=work.pk).update(completed_at=timezone.now())
    assert assignment_next(campaign=campaign, assessor=personas.assessor) is None


def test_only_the_campaigns_assessors_get_work(personas):
    campaign = make_campaign(personas)
    with pytest.raises(PermissionDenied):
        assignment_next(campaign=campaign, assessor=make_assessor("stranger"))


def test_a_closed_campaign_gives_no_work(personas):
    campaign = make_campaign(personas)
    campaign.is_open = False
    campaign.save(update_fields=["is_open"])
    with pytest.raises(PermissionDenied):
        assignment_next(campaign=campaign, assessor=personas.assessor)


def test_a_slot_already_taken_cannot_be_claimed(personas):
    bea = make_assessor("bea")
    campaign = make_campaign(personas, assessors=[personas.assessor, bea])
    slot = campaign.assignments.first()
    assert assignment_claim(assignment_id=slot.pk, assessor=personas.assessor)
    assert not assignment_claim(assignment_id=slot.pk, assessor=bea)
    slot.refresh_from_db()
    assert slot.assessor == personas.assessor


def test_the_database_refuses_two_slots_of_one_query_to_one_assessor(personas):
    campaign = make_campaign(personas, assessors_per_query=2)
    first, second = campaign.assignments.filter(query=campaign.assignments.first().query)
    assert assignment_claim(assignment_id=first.pk, assessor=personas.assessor)
    assert not assignment_claim(assignment_id=second.pk, assessor=personas.assessor)


def test_stale_untouched_work_is_taken_back_before_handing_out_more(personas):
    bea = make_assessor("bea")
    campaign = make_campaign(personas, assessors=[personas.assessor, bea], take_back_minutes=30)
    long_ago = timezone.now() - timedelta(minutes=31)
    ada_1 = assignment_next(campaign=campaign, assessor=personas.assessor, now=long_ago)
    ada_2_query = campaign.assignments.exclude(query=ada_1.query).get()
    assignment_claim(assignment_id=ada_2_query.pk, assessor=make_assessor("cal"))
    # Every query is taken; ada's untouched one is older than 30 min, so bea gets it.
    assert assignment_next(campaign=campaign, assessor=bea) == ada_1


# --- Two assessors at the same instant, on two real database connections ---------------


@pytest.mark.django_db(transaction=True)
def test_two_assessors_asking_at_once_never_share_a_slot(personas):
    """Each thread has its own connection; both read the same free slots, then race."""
    assessors = [make_assessor(f"racer{i}") for i in range(2)]
    campaign = make_campaign(personas, assessors=assessors, assessors_per_query=1)

    def ask(assessor):
        # Both threads aim at the same first free slot, so one claim must lose.
        slot = campaign.assignments.order_by("slot", "pk").first()
        won = assignment_claim(assignment_id=slot.pk, assessor=assessor)
        return won, assignment_next(campaign=campaign, assessor=assessor)

    outcomes = at_the_same_instant(assessors, ask)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(won for won, _ in outcomes) == [False, True]
    got = [work.pk for _, work in outcomes]
    assert None not in got and len(set(got)) == 2  # two queries, one each
    assert Assignment.objects.filter(campaign=campaign, assessor__isnull=False).count() == 2


@pytest.mark.django_db(transaction=True)
def test_many_assessors_at_once_respect_the_redundancy(personas):
    assessors = [make_assessor(f"crowd{i}") for i in range(6)]
    campaign = make_campaign(personas, assessors=assessors, assessors_per_query=2)
    outcomes = at_the_same_instant(
        assessors, lambda assessor: assignment_next(campaign=campaign, assessor=assessor)
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    given = [work for work in outcomes if work is not None]
    assert len(given) == 4  # 2 queries × 2 assessors per query; two assessors ask in vain
    for query in set(campaign.assignments.values_list("query", flat=True)):
        holders = Assignment.objects.filter(campaign=campaign, query=query).exclude(assessor=None)
        assert len(set(holders.values_list("assessor", flat=True))) == holders.count() == 2
