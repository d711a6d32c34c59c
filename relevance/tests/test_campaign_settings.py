"""Campaign settings after the start: checks with messages, redundancy, trust, open/closed,
assessors added and removed (relevance.services.settings and its pages)."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from catalog.models import RelevanceJudgment
from crowd.forms.campaigns import CampaignForm
from crowd.forms.settings import PreferenceSettingsForm
from crowd.models import Answer, Worker
from crowd.services.answers import answer_submit
from crowd.services.settings import (
    PREFERENCE_SETTINGS,
    preference_campaign_open_set,
    preference_campaign_update,
)
from crowd.services.tasks import task_serve
from relevance.models import Assignment
from relevance.services.campaigns import AssignmentTakenBack, assignment_next, judgment_save
from relevance.services.settings import (
    relevance_campaign_assessor_add,
    relevance_campaign_assessor_remove,
    relevance_campaign_open_set,
    relevance_campaign_update,
)
from tests.helpers.crowd_fixtures import arrive, make_campaign, right_choice, trap_of, wrong_choice
from tests.helpers.relevance_data import make_assessor
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign
from work.handoff import ANSWERS_ACCEPTED_TASK

pytestmark = pytest.mark.django_db


def refused(campaign, update, **changes) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as error:
        update(campaign=campaign, changes=changes)
    return error.value.message_dict


# --- preference campaigns -----------------------------------------------------------


def test_every_setting_of_the_create_form_but_the_lists_length_is_on_the_settings_form():
    """A setting the crowd side adds to the campaign form is one line in PREFERENCE_SETTINGS."""
    fixed = {"list_length", "is_open"}
    assert set(CampaignForm.Meta.fields) - fixed == set(PreferenceSettingsForm.Meta.fields)
    assert list(PreferenceSettingsForm.Meta.fields) == list(PREFERENCE_SETTINGS)


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"trap_rate": 1.5}, "trap_rate", "a probability between 0 and 1"),
        ({"trust_threshold": -0.1}, "trust_threshold", "between 0 and 1"),
        ({"quiz_length": 100, "max_answers_per_worker": 100}, "quiz_length", "leaving no real work"),
        ({"quiz_length": 0, "trap_rate": 0.0}, "trap_rate", "no answer is accepted"),
        ({"quiz_length": 0, "min_trap_answers": 0, "trap_rate": 0.1}, "min_trap_answers", "at least 1"),
        ({"screen_out_code": "SAME", "completion_code": "SAME"}, "screen_out_code", "paid as if"),
        ({"completion_code": "has space"}, "completion_code", "no spaces"),
        # The approvals export would write it as '-C1 and it would match no worker's code.
        ({"completion_code": "-C1"}, "completion_code", "spreadsheets read it as a formula"),
        ({"no_consent_code": "=1+1"}, "no_consent_code", "spreadsheets read it as a formula"),
        ({"name": "  "}, "name", "Give the campaign a name."),
        ({"answers_per_example": "many"}, "answers_per_example", "must be an integer"),
    ],
)  # fmt: skip
def test_wrong_preference_settings_are_refused_with_a_message_and_nothing_changes(
    crowd_collection, changes, field, words
):
    campaign = make_campaign(crowd_collection, traps=2, quiz_length=2, trap_rate=0.1)
    before = {f: getattr(campaign, f) for f in PREFERENCE_SETTINGS}
    errors = refused(campaign, preference_campaign_update, **changes)
    assert words in " ".join(errors[field])
    campaign.refresh_from_db()
    assert {f: getattr(campaign, f) for f in PREFERENCE_SETTINGS} == before


def test_what_cannot_change_is_refused_by_name(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=1, trap_rate=0.1)
    with pytest.raises(ValidationError, match="cannot be changed: list_length"):
        preference_campaign_update(campaign=campaign, changes={"list_length": 3})


def test_a_higher_trust_threshold_stops_a_trusted_worker_and_hands_over_once(
    crowd_collection, handed_over, django_capture_on_commit_callbacks
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=4, trust_threshold=0.5,
                             max_answers_per_worker=8)  # fmt: skip
    workers = [arrive(campaign, name) for name in ("w1", "w2")]
    for worker in workers:  # 3 of 4 quiz answers right (trust 0.75), then 4 real answers
        for n in range(8):
            task = task_serve(worker=worker)
            wrong = trap_of(task) and n == 0
            answer_submit(
                worker=worker,
                key=task.key,
                choice=wrong_choice(task) if wrong else right_choice(task),
            )
    accepted = Answer.objects.filter(worker__campaign=campaign, accepted_at__isnull=False)
    assert accepted.count() == 8
    handed_over.clear()

    with django_capture_on_commit_callbacks(execute=True):
        changed = preference_campaign_update(campaign=campaign, changes={"trust_threshold": 0.8})

    assert changed == ["trust_threshold"]
    assert set(Worker.objects.filter(campaign=campaign).values_list("status", flat=True)) == {
        "stopped"
    }
    assert accepted.count() == 0 and Answer.objects.filter(excluded=True).count() == 16
    assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk})]  # one, not two
    handed_over.clear()
    with django_capture_on_commit_callbacks(execute=True):
        preference_campaign_update(campaign=campaign, changes={"instructions": "Listen well."})
    assert handed_over == []  # words change nothing that results depend on


def test_a_closed_campaigns_task_link_says_so_and_reopening_serves_again(client, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    assert preference_campaign_open_set(campaign=campaign, is_open=False) is True
    assert preference_campaign_open_set(campaign=campaign, is_open=False) is False  # already closed
    closed = client.get(f"/t/{campaign.token}/?worker=w9").content.decode()
    assert "closed" in closed.lower()
    preference_campaign_open_set(campaign=campaign, is_open=True)
    assert "closed" not in client.get(f"/t/{campaign.token}/?worker=w9").content.decode().lower()


def test_the_settings_page_shows_each_message_beside_its_field(client, personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=1, trap_rate=0.1)
    client.force_login(personas.organiser)
    url = f"/campaigns/{campaign.pk}/settings/"
    form = client.get(url).content.decode()
    data = {f: getattr(campaign, f) for f in PREFERENCE_SETTINGS}
    data = {f: "" if value is None else value for f, value in data.items()}  # an empty field
    page = html.unescape(client.post(url, {**data, "trap_rate": "2"}).content.decode())
    assert "The trap rate is a probability between 0 and 1" in page
    saved = client.post(url, {**data, "trust_threshold": "0.9"}, follow=True).content.decode()
    assert "Saved: Trust threshold." in saved and "Close the campaign" in form
    campaign.refresh_from_db()
    assert campaign.trust_threshold == 0.9


# --- relevance campaigns ------------------------------------------------------------


def test_more_assessors_per_query_adds_free_slots_and_fewer_removes_only_free_ones(personas):
    campaign = make_relevance_campaign(personas)  # two queries, one slot each
    relevance_campaign_update(campaign=campaign, changes={"assessors_per_query": 3})
    assert campaign.assignments.count() == 2 * 3
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    relevance_campaign_update(campaign=campaign, changes={"assessors_per_query": 1})
    assert campaign.assignments.count() == 2
    assert Assignment.objects.filter(pk=work.pk, assessor=personas.assessor).exists()


def test_fewer_assessors_per_query_than_already_at_work_is_refused_with_numbers(personas):
    bea = make_assessor("bea")
    campaign = make_relevance_campaign(personas, assessors=[personas.assessor, bea],
                                       assessors_per_query=2)  # fmt: skip
    first = assignment_next(campaign=campaign, assessor=personas.assessor)
    Assignment.objects.filter(campaign=campaign, query=first.query, assessor__isnull=True).update(
        assessor=bea
    )
    errors = refused(campaign, relevance_campaign_update, assessors_per_query=1)
    assert errors["assessors_per_query"] == [
        "1 query has 2 assessors at work or done already, so the number per query can go "
        "down to 2 at the lowest."
    ]
    assert campaign.assignments.count() == 4


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"queries_per_assessor": 0}, "queries_per_assessor"), ({"must_listen_seconds": 601}, "must_listen_seconds"),
     ({"take_back_minutes": 0}, "take_back_minutes"), ({"assessors_per_query": 0}, "assessors_per_query"),
     ({"cutoff": 10}, None)],
)  # fmt: skip
def test_wrong_relevance_settings_are_refused(personas, changes, field):
    campaign = make_relevance_campaign(personas)
    with pytest.raises(ValidationError) as error:
        relevance_campaign_update(campaign=campaign, changes=changes)
    if field:
        assert field in error.value.message_dict
    else:
        assert "cannot be changed: cutoff" in error.value.messages[0]


def test_a_closed_relevance_campaign_hands_out_no_query(personas):
    campaign = make_relevance_campaign(personas)
    relevance_campaign_open_set(campaign=campaign, is_open=False)
    with pytest.raises(PermissionDenied):
        assignment_next(campaign=campaign, assessor=personas.assessor)


def test_removing_an_assessor_keeps_their_judgments_and_frees_or_reopens_their_queries(
    client, personas
):
    ada, bea = personas.assessor, make_assessor("bea")
    campaign = make_relevance_campaign(personas, assessors=[ada])
    started = assignment_next(campaign=campaign, assessor=ada)
    entry = campaign.pool.filter(query=started.query).first()
    judgment_save(assignment=started, assessor=ada, pool_entry=entry, broad=2, fine=90)
    Assignment.objects.filter(campaign=campaign).exclude(pk=started.pk).update(assessor=ada)

    outcome = relevance_campaign_assessor_remove(campaign=campaign, assessor=ada)

    assert outcome == {"freed": 1, "reopened": 1}
    assert RelevanceJudgment.objects.filter(assessor=ada, source=campaign.source).count() == 1
    assert campaign.assignments.filter(query=started.query, assessor__isnull=True).count() == 1
    with pytest.raises(AssignmentTakenBack, match="no longer judge"):
        judgment_save(assignment=started, assessor=ada, pool_entry=entry, broad=1, fine=50)
    client.force_login(ada)
    assert client.get(f"/judge/assignments/{started.pk}/").status_code == 404
    # Another assessor can take the query now.
    relevance_campaign_assessor_add(campaign=campaign, assessor=bea)
    assert assignment_next(campaign=campaign, assessor=bea).query_id is not None


def test_only_assessors_can_be_added(personas):
    campaign = make_relevance_campaign(personas)
    with pytest.raises(ValidationError, match="is not an assessor"):
        relevance_campaign_assessor_add(campaign=campaign, assessor=personas.other_organiser)
    assert relevance_campaign_assessor_add(campaign=campaign, assessor=personas.assessor) is False


def test_the_assessors_page_adds_and_removes_with_messages(client, personas):
    bea = make_assessor("bea", owner=personas.organiser)
    campaign = make_relevance_campaign(personas)
    client.force_login(personas.organiser)
    url = f"/relevance-campaigns/{campaign.pk}/assessors/"
    added = client.post(url, {"assessor": bea.pk}, follow=True).content.decode()
    assert "bea can now judge in" in added and "Remove bea" in added
    removed = client.post(f"{url}{bea.pk}/remove/", follow=True).content.decode()
    assert "bea no longer judges in" in removed
    assert not campaign.assessors.filter(pk=bea.pk).exists()


def test_an_open_campaign_refuses_a_trap_rate_its_work_pool_cannot_serve(crowd_collection):
    # Issue 22: 12 examples, 1 quiz and 2 work traps, 9 ordinary examples. Trap rate 0.1
    # needs ceil(9 * 0.1 / 0.9) = 1 work trap, 0.15 needs ceil(1.59) = 2, 0.3 needs
    # ceil(3.86) = 4 (selectors.crowd_integrity.PoolNeeds): refused while open, as opening
    # would be; taken while closed, and then opening is refused.
    campaign = make_campaign(crowd_collection, traps=3, quiz_traps=1, quiz_length=0, trap_rate=0.1)
    errors = refused(campaign, preference_campaign_update, trap_rate=0.3)
    assert "has 2 trap questions and needs 4" in " ".join(errors["trap_rate"])
    campaign.refresh_from_db()
    assert campaign.trap_rate == 0.1
    assert preference_campaign_update(campaign=campaign, changes={"trap_rate": 0.15}) == [
        "trap_rate"
    ]
    preference_campaign_open_set(campaign=campaign, is_open=False)
    assert preference_campaign_update(campaign=campaign, changes={"trap_rate": 0.3}) == [
        "trap_rate"
    ]
    with pytest.raises(ValidationError, match="needs 4"):
        preference_campaign_open_set(campaign=campaign, is_open=True)
