"""worker_arrive: a platform id names a worker, the browser that first arrived holds them."""

import pytest

from crowd.models import Worker
from crowd.services.workers import Arrival, ArrivalRefused, worker_arrive
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.threads import run_together

pytestmark = pytest.mark.django_db


def mturk(assignment: str) -> Arrival:
    return Arrival(
        "mturk", "W1", assignment_id=assignment, hit_id="H1",
        turk_submit_to="https://workersandbox.mturk.com",
    )  # fmt: skip


def test_the_binding_browser_resumes_and_keeps_the_latest_ids_while_active(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = worker_arrive(campaign=campaign, arrival=mturk("A1"))
    assert len(worker.browser_key) >= 32
    again = worker_arrive(campaign=campaign, arrival=mturk("A2"), browser_worker=worker)
    assert (again.pk, again.assignment_id) == (worker.pk, "A2")


def test_a_finished_worker_keeps_the_assignment_they_finished(crowd_collection):
    # Accepting a second HIT of the same study after finishing must not be paid twice:
    # the done page posts the assignment the work was done under.
    campaign = make_campaign(crowd_collection, traps=0)
    worker = worker_arrive(campaign=campaign, arrival=mturk("A1"))
    Worker.objects.filter(pk=worker.pk).update(status=Worker.FINISHED)
    worker.refresh_from_db()
    worker_arrive(campaign=campaign, arrival=mturk("A2"), browser_worker=worker)
    worker.refresh_from_db()
    assert worker.assignment_id == "A1"


def test_another_browser_is_refused_and_changes_nothing(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = worker_arrive(campaign=campaign, arrival=mturk("A1"))
    with pytest.raises(ArrivalRefused) as refused:
        worker_arrive(campaign=campaign, arrival=mturk("EVIL"))
    assert refused.value.reason == ArrivalRefused.OTHER_BROWSER
    other = worker_arrive(campaign=campaign, arrival=Arrival("generic", "someone"))
    with pytest.raises(ArrivalRefused):
        worker_arrive(campaign=campaign, arrival=mturk("EVIL"), browser_worker=other)
    assert Worker.objects.values_list("assignment_id", "browser_key").get(pk=worker.pk) == (
        "A1", worker.browser_key,
    )  # fmt: skip


def test_a_worker_without_a_browser_is_bound_by_the_next_arrival(crowd_collection):
    # After an organiser's reset, or for a worker made before browsers were bound.
    campaign = make_campaign(crowd_collection, traps=0)
    worker = worker_arrive(campaign=campaign, arrival=mturk("A1"))
    Worker.objects.filter(pk=worker.pk).update(browser_key="")
    bound = worker_arrive(campaign=campaign, arrival=mturk("A1"))
    assert bound.pk == worker.pk and bound.browser_key and bound.browser_key != worker.browser_key
    with pytest.raises(ArrivalRefused):
        worker_arrive(campaign=campaign, arrival=mturk("A1"))


@pytest.mark.django_db(transaction=True)
def test_two_browsers_arriving_at_once_with_one_new_id_bind_one_of_them(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    results = run_together(
        [lambda: worker_arrive(campaign=campaign, arrival=Arrival("generic", "same"))] * 4
    )
    workers = [r for r in results if isinstance(r, Worker)]
    refused = [r for r in results if isinstance(r, ArrivalRefused)]
    assert len(workers) == 1 and len(refused) == 3, results
    assert Worker.objects.get().browser_key == workers[0].browser_key


def test_a_stopped_workers_id_from_a_clean_browser_is_told_the_study_ended_and_gets_nothing(
    crowd_collection,
):
    # The attacker knows (or is) a stopped worker and opens the task link in a clean
    # browser: the page says the study ended for this id, carries no code of any kind,
    # sets no cookie, binds nothing and serves no task; the worker's own browser still
    # gets their screen-out page.
    campaign = make_campaign(crowd_collection, traps=0)
    own = Browser(campaign)
    own.arrive("worker=quitter")
    worker = Worker.objects.get(platform_id="quitter")
    Worker.objects.filter(pk=worker.pk).update(status=Worker.STOPPED, stop_reason=Worker.LOW_TRUST)
    clean = Browser(campaign)
    page = clean.arrive("worker=quitter")
    text = page.content.decode()
    assert page.status_code == 409 and "This study has ended for this id" in text
    assert "another browser" not in text
    assert campaign.completion_code not in text and campaign.screen_out_code not in text
    assert not page.cookies
    assert clean.task().status_code == 403 and clean.done().status_code == 403
    assert Worker.objects.get(pk=worker.pk).browser_key == worker.browser_key
    seen = clean.everything_seen()
    assert campaign.completion_code not in seen and campaign.screen_out_code not in seen
    assert campaign.screen_out_code in own.done().content.decode()
    with pytest.raises(ArrivalRefused) as refused:  # the same through the service
        worker_arrive(campaign=campaign, arrival=Arrival("generic", "quitter"))
    assert refused.value.reason == ArrivalRefused.STOPPED
