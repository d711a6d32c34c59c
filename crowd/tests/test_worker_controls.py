"""An organiser acts on one worker: exclude (with a reason), reinstate, rebind a browser.

After any forgive, exclude or reinstate, a worker's trust, "missed" and accepted answers
agree (:func:`assert_consistent` recounts them from the answers), and each action hands
the campaign over to evaluation exactly once, however many workers it touched.
"""

import pytest

from crowd.models import Answer, Worker
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from crowd.services.traps import trap_question_contest
from crowd.services.workers import worker_browser_reset, worker_exclude, worker_reinstate
from tests.helpers.crowd_fixtures import arrive, assert_consistent, make_campaign, work
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import prolific_id
from work.handoff import ANSWERS_ACCEPTED_TASK

P1 = f"PROLIFIC_PID={prolific_id('p1')}"

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(crowd_collection):
    return make_campaign(
        crowd_collection, traps=6, quiz_length=2, trap_rate=0.3, trust_threshold=0.75,
        max_answers_per_worker=6,
    )  # fmt: skip


def test_excluding_a_worker_excludes_every_answer_and_says_why(
    campaign, handed_over, django_capture_on_commit_callbacks
):
    worker = arrive(campaign, "good")
    work(worker, miss_traps=False)
    worker.refresh_from_db()
    assert worker.trusted and Answer.objects.filter(worker=worker, accepted_at__isnull=False)
    handed_over.clear()

    with django_capture_on_commit_callbacks(execute=True):
        worker_exclude(worker=worker, reason="  Same answer to everything.  ")

    worker.refresh_from_db()
    assert (worker.status, worker.stop_reason, worker.stop_note) == (
        Worker.STOPPED, Worker.BY_ORGANISER, "Same answer to everything.",
    )  # fmt: skip
    assert worker.status_label == "stopped: excluded by the organiser"
    assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk})]
    assert_consistent(campaign)


def test_excluding_needs_a_reason(campaign):
    from django.core.exceptions import ValidationError

    worker = arrive(campaign, "w")
    with pytest.raises(ValidationError):
        worker_exclude(worker=worker, reason="   ")
    worker.refresh_from_db()
    assert worker.status == Worker.ACTIVE


def test_reinstating_brings_a_low_trust_worker_back_and_the_rules_no_longer_stop_them(
    campaign, handed_over, django_capture_on_commit_callbacks
):
    worker = arrive(campaign, "careless")
    work(worker, miss_traps=True)
    worker.refresh_from_db()
    assert (worker.status, worker.stop_reason) == (Worker.STOPPED, Worker.LOW_TRUST)
    handed_over.clear()

    with django_capture_on_commit_callbacks(execute=True):
        worker_reinstate(worker=worker)

    worker.refresh_from_db()
    assert worker.status in (Worker.ACTIVE, Worker.FINISHED) and worker.trusted_by_organiser
    assert worker.trust < campaign.trust_threshold and worker.trusted  # the organiser's word
    assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk})]
    assert_consistent(campaign)
    work(worker, miss_traps=True)  # more missed traps: still not stopped
    worker.refresh_from_db()
    assert worker.status != Worker.STOPPED
    assert_consistent(campaign)


def test_only_a_stopped_worker_can_be_reinstated(campaign):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        worker_reinstate(worker=arrive(campaign, "fine"))


def test_forgive_exclude_reinstate_and_count_again_keep_everything_consistent(
    campaign, handed_over, django_capture_on_commit_callbacks
):
    workers = [arrive(campaign, f"w{i}") for i in range(4)]
    for i, worker in enumerate(workers):
        work(worker, miss_traps=i % 2 == 1)
    assert_consistent(campaign)
    missed = (
        Answer.objects.filter(worker__campaign=campaign, correct=False)
        .values_list("example__trap", flat=True)
        .first()
    )
    from crowd.models import TrapQuestion

    trap = TrapQuestion.objects.get(pk=missed)
    steps = [
        lambda: trap_question_contest(trap=trap),
        lambda: worker_exclude(worker=workers[0], reason="test"),
        lambda: worker_reinstate(worker=workers[1]),
        lambda: worker_reinstate(worker=workers[0]),
        lambda: trap_question_contest(trap=trap, contested=False),
    ]
    for step in steps:
        handed_over.clear()
        with django_capture_on_commit_callbacks(execute=True):
            step()
        assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk})]
        for worker in workers:
            worker.refresh_from_db()
        assert_consistent(campaign)


def test_the_fast_answer_rule_stops_a_worker_after_that_many_fast_answers(crowd_collection):
    campaign = make_campaign(
        crowd_collection, traps=0, fast_answer_seconds=10, stop_after_fast_answers=3,
        trust_check_every=1,  # a checkpoint after every answer (crowd/tests/test_worker_trust_update.py)
    )  # fmt: skip
    worker = arrive(campaign, "speedy")
    for expected in (Worker.ACTIVE, Worker.ACTIVE, Worker.STOPPED):
        task = task_serve(worker=worker)
        answer_submit(worker=worker, key=task.key, choice="a_better")  # in milliseconds
        worker.refresh_from_db()
        assert worker.status == expected
    assert worker.stop_reason == Worker.FAST_ANSWERS
    assert worker.status_label == "stopped: too many fast answers"
    assert_consistent(campaign)


def test_with_no_fast_rule_fast_answers_are_only_flagged(crowd_collection):
    from crowd import selectors

    campaign = make_campaign(crowd_collection, traps=0, fast_answer_seconds=10)
    worker = arrive(campaign, "speedy")
    work(worker, miss_traps=False, tasks=3)
    worker.refresh_from_db()
    assert worker.status == Worker.ACTIVE
    [row] = selectors.worker_rows(campaign=campaign, workers=[worker])
    assert (row.answers, row.fast_answers) == (3, 3)
    assert all(a.fast for a in selectors.campaign_answers(campaign=campaign))


def test_a_new_browser_for_a_worker_who_lost_theirs(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    old = Browser(campaign)
    old.start(f"{P1}&STUDY_ID=s&SESSION_ID=a")
    old.answer("a_better")
    new = Browser(campaign)
    assert new.arrive(f"{P1}&STUDY_ID=s&SESSION_ID=a").status_code == 409

    worker_browser_reset(worker=Worker.objects.get(platform_id=prolific_id("p1")))

    assert new.arrive(f"{P1}&STUDY_ID=s&SESSION_ID=b").status_code == 302
    assert new.task().status_code == 200  # consent kept, work goes on where it was
    assert old.task().status_code == 403  # the old browser's session ended
    assert Worker.objects.get(platform_id=prolific_id("p1")).answer_count == 1
    assert Browser(campaign).arrive(P1).status_code == 409  # bound again


# --- the organiser's pages ---------------------------------------------------------------


def test_the_workers_page_pages_through_thousands_and_shows_why_a_worker_stopped(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    Worker.objects.bulk_create(
        Worker(campaign=campaign, platform="generic", platform_id=f"w{i:03d}", seed=i)
        for i in range(120)
    )
    stopped = Worker.objects.get(platform_id="w060")
    worker_exclude(worker=stopped, reason="Copied answers")
    client.force_login(personas.organiser)
    first = client.get(f"/campaigns/{campaign.pk}/workers/").content.decode()
    assert "w000" in first and "w049" in first and "w050" not in first
    assert "Page 1 of 3 (120 in all)" in first
    second = client.get(f"/campaigns/{campaign.pk}/workers/?page=2").content.decode()
    assert "w060" in second and "stopped: excluded by the organiser" in second
    assert "Copied answers" in second and "Reinstate w060" in second
    only = client.get(f"/campaigns/{campaign.pk}/workers/?status=stopped").content.decode()
    assert "w060" in only and "w000" not in only


def test_exclude_and_reinstate_from_the_page(client, personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign, "w1")
    work(worker, miss_traps=False, tasks=2)
    client.force_login(personas.organiser)
    base = f"/campaigns/{campaign.pk}/workers/{worker.pk}"
    no_reason = client.post(f"{base}/exclude/", {"reason": ""})
    assert no_reason.status_code == 302
    worker.refresh_from_db()
    assert worker.status == Worker.ACTIVE
    back = client.post(f"{base}/exclude/", {"reason": "bot", "next": "https://evil.example/"})
    assert back.url == f"/campaigns/{campaign.pk}/workers/"  # never off-site
    worker.refresh_from_db()
    assert (worker.status, worker.stop_note) == (Worker.STOPPED, "bot")
    page = f"/campaigns/{campaign.pk}/workers/?page=1"
    assert client.post(f"{base}/reinstate/", {"next": page}).url == page
    worker.refresh_from_db()
    assert worker.status == Worker.ACTIVE


def test_another_organiser_can_do_nothing_to_a_worker(client, personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = arrive(campaign, "w1")
    client.force_login(personas.other_organiser)
    for action in ("exclude", "reinstate", "reset-browser"):
        response = client.post(
            f"/campaigns/{campaign.pk}/workers/{worker.pk}/{action}/", {"reason": "x"}
        )
        assert response.status_code == 404
    assert client.get(f"/campaigns/{campaign.pk}/workers/").status_code == 404
    assert client.get(f"/campaigns/{campaign.pk}/answers/").status_code == 404
    worker.refresh_from_db()
    assert worker.status == Worker.ACTIVE and worker.browser_key


def test_the_answers_page_is_paginated_and_filters_by_worker_and_speed(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=10)
    for name in ("w1", "w2"):
        work(arrive(campaign, name), miss_traps=False)
    client.force_login(personas.organiser)
    w1 = Worker.objects.get(platform_id="w1")
    page = client.get(f"/campaigns/{campaign.pk}/answers/?worker={w1.pk}").content.decode()
    assert "Answers of w1" in page and ">w2<" not in page
    fast = client.get(f"/campaigns/{campaign.pk}/answers/?fast=1").content.decode()
    assert "fast only" in fast and "<strong>fast</strong>" in fast


def test_a_reinstated_worker_is_told_once_on_their_next_visit_that_they_may_go_on(
    client, personas, crowd_collection
):
    """Issue 25: after "Reinstate" nothing told the worker she could come back."""
    campaign = make_campaign(crowd_collection, traps=0)
    worker = Browser(campaign)
    worker.start("worker=careful")
    stopped = Worker.objects.get(platform_id="careful")
    Worker.objects.filter(pk=stopped.pk).update(status=Worker.STOPPED, stop_reason=Worker.LOW_TRUST)
    worker_reinstate(worker=stopped)
    told = "you may go on with the study"
    assert told in worker.task().content.decode()
    assert told not in worker.task().content.decode()  # once
