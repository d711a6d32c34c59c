"""In Chromium: what an organiser reads where issue 31 found programmer talk, a dead end or
a wrong default — each checked where a person would notice it.

The data are stored as a recompute stores them (``tests/helpers/results_payloads.py``) or computed
by the services on ``tests/crowd_fixtures``' collection, judged on Broad only where said.
"""

import re

import pytest
from playwright.sync_api import expect

from crowd.models import Answer
from evaluation.models import ReliabilityStudy
from evaluation.services import campaign_mapping_compute
from tests.helpers.browser import log_in
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.mappings import judged_on_broad_only
from tests.helpers.personas import PASSWORD
from tests.helpers.results_payloads import MEASURE, store_results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_keeps_its_links_apart_and_campaigns_can_be_started(page, personas):
    log_in(page, personas.organiser.username, PASSWORD)
    nav = page.get_by_role("navigation", name="Organiser")
    # "Deleted collections Relevance campaigns" read as one link before.
    expect(nav).to_contain_text("Archived collections · Deleted collections")
    expect(nav).not_to_contain_text("Deleted collections Relevance campaigns")
    nav.get_by_role("link", name="Preference campaigns").click()
    page.get_by_role("link", name="New preference campaign").click()
    # One collection the organiser may change: straight to its form.
    expect(page.get_by_role("heading", name="New preference campaign")).to_be_visible()
    expect(page).to_have_url(re.compile(f"/collections/{personas.collection.pk}/campaigns/new/$"))


def test_a_typed_wrong_address_under_make_runs_settings_shows_the_styled_page(
    page, personas, settings
):
    settings.DEBUG = True  # as make run serves it
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto("/colections/")
    expect(page.get_by_role("heading", name="There is nothing here")).to_be_visible()
    expect(page.get_by_role("link", name="home page")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Django tried these URL patterns")


def test_the_reliability_page_writes_one_query_and_its_variances_as_people_read_them(
    page, personas
):
    store_results(personas.collection)
    study = ReliabilityStudy.objects.get(collection=personas.collection, measure=MEASURE)
    study.payload = {**study.payload, "needed": {"erho2": 1, "phi": 1}}
    study.save(update_fields=["payload"])
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{personas.collection.pk}/results/")
    page.get_by_role("link", name=re.compile(r"^Reliability of ")).first.click()
    expect(page.get_by_text("1 query reaches Eρ² = 0.95; 1 reaches Φ = 0.95.")).to_be_visible()
    systems = page.get_by_role("cell", name=re.compile(r"^Systems \(σ"))
    expect(systems.locator("sub")).to_have_text("s")
    expect(page.locator("body")).not_to_contain_text("σ²_")


def test_a_broad_only_collections_mapping_and_generator_say_why(page, personas, crowd_collection):
    judged_on_broad_only(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=0)
    campaign_mapping_compute(campaign=campaign)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Satisfaction mapping").first.click()
    expect(
        page.get_by_role("heading", name="Satisfaction mapping: CG(scale=broad)@5")
    ).to_be_visible()
    expect(page.locator(".measure-choice")).to_contain_text(
        "on the Broad scale, because this collection's judgments are on the Broad scale only"
    )
    expect(
        page.get_by_text("binned P(Sat) – (no bin of λ holds a judged list yet)")
    ).to_be_visible()
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Example generator").click()
    expect(page.get_by_role("note")).to_contain_text("This collection has no Fine judgments")


def test_the_examples_csv_columns_and_what_a_deletion_takes_read_as_words(
    page, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    expect(page.get_by_text("query,list_a,list_b")).to_have_count(0)
    page.get_by_text("What the CSV file holds").click()
    columns = page.locator("details.columns dl").first
    expect(columns.get_by_text("list_a", exact=True)).to_be_visible()
    expect(columns).to_contain_text("the two lists: the ids of 5 clips each")

    system = crowd_collection.systems.get(name="S1")
    page.goto(f"/collections/{crowd_collection.pk}/delete/system/{system.pk}/")
    goes = page.locator("ul.goes-with-it")
    expect(goes.get_by_role("listitem").first).to_have_text("1 system")

    worker = Browser(campaign)  # one crowd answer, to one of the campaign's examples
    worker.start("worker=w1")
    worker.answer("a_better")
    example = Answer.objects.get().task.example
    page.goto(f"/collections/{crowd_collection.pk}/delete/example/{example.pk}/")
    expect(page.get_by_text("1 judgment or crowd answer goes with it")).to_be_visible()
