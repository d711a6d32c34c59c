"""In Chromium, with the real Celery worker on the embedded Redis: an organiser runs the
example generator and watches its progress to the result, and changes a results setting
and sees the recompute it starts finish."""

import re

import pytest
from playwright.sync_api import expect

from crowd.models import Example
from evaluation.models import Leaderboard
from tests.helpers.browser import log_in, shot
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD
from work.models import Job

pytestmark = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    pytest.mark.real_handoff,
    pytest.mark.django_db(transaction=True),
]


def test_an_organiser_runs_the_generator_and_watches_it_to_the_result(
    page, personas, crowd_collection, celery_worker_process
):
    campaign = make_campaign(crowd_collection, traps=0)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Example generator").click()
    expect(page.get_by_role("heading", name="Coverage now")).to_be_visible()
    page.get_by_label("Examples per bin").fill("4")
    page.get_by_role("button", name="Run the generator").click()
    expect(page.get_by_role("heading", name=re.compile(r"Add up to \d+ examples"))).to_be_visible()
    page.get_by_role("button", name="Yes, add them").click()

    expect(page).to_have_url(re.compile(r"/jobs/\d+/$"))
    expect(page.get_by_role("heading", name="Example generator")).to_be_visible()
    expect(page.get_by_label("Progress")).to_be_attached()
    shot(page, "generator-job")
    # The page polls the job and moves to its result by itself once the worker is done.
    expect(page).to_have_url(re.compile(r"/jobs/\d+/result/$"), timeout=60_000)
    expect(page.get_by_role("heading", name="Example generator: done")).to_be_visible()
    job = Job.objects.get()
    added = Example.objects.filter(campaign=campaign, source="generator").count()
    assert job.state == "done" and job.result["added"] == added > 0
    expect(page.locator("p.summary")).to_contain_text(f"{added} new example")
    expect(page.get_by_role("table", name="Examples found per |Δλ| bin")).to_be_visible()
    shot(page, "generator-result")


def test_an_organiser_changes_a_results_setting_and_sees_the_recompute_finish(
    page, personas, crowd_collection, celery_worker_process
):
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{crowd_collection.pk}/")
    page.get_by_role("link", name="Results", exact=True).click()
    page.get_by_role("link", name="Results settings").click()
    page.get_by_label("Measures of the leaderboards").fill("P(rel=50,scale=fine)@5")
    page.get_by_label("Significance test").select_option("t")
    page.get_by_role("button", name="Save and recompute").click()
    expect(page.get_by_text("Saved results; the results are being recomputed.")).to_be_visible()
    # A time a person reads, not a machine's (issue 31: "recomputed at 2026-11-28T06:49:14 UTC").
    done = re.compile(r"Results recomputed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.")
    expect(page.get_by_text(done)).to_be_visible(timeout=60_000)
    shot(page, "results-settings")
    page.get_by_role("link", name="See the new results").click()
    expect(page.get_by_role("link", name="Leaderboard of P(rel=50,scale=fine)@5")).to_be_visible()
    # The settings page opened again says when, as a person reads a time, too.
    page.goto(f"/collections/{crowd_collection.pk}/results/settings/")
    expect(
        page.get_by_text(re.compile(r"Results last computed at \d{4}-\d\d-\d\d \d\d:"))
    ).to_be_visible()
    board = Leaderboard.objects.get(collection=crowd_collection)
    assert board.measure == "P(rel=50,scale=fine)@5" and board.payload["test"] == "t"
