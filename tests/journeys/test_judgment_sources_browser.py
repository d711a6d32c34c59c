"""In Chromium: an organiser leaves a pilot source out of the results, then counts it again."""

import pytest
from playwright.sync_api import expect

from catalog.models import RelevanceJudgment
from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD
from tests.helpers.sources import source_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_leaves_a_pilot_source_out_and_counts_it_again(page, personas, handed_over):
    collection = personas.collection
    pilot = source_for(collection, "Pilot run")
    RelevanceJudgment.objects.create(
        query=collection.queries.get(), clip=collection.clips.get(external_id="c2"),
        source=pilot, fine=90,
    )  # fmt: skip
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{collection.pk}/")
    sources = page.get_by_role("region", name="Judgment sources")
    row = sources.get_by_role("row", name="Pilot run")
    expect(row.get_by_role("cell", name="official: counts")).to_be_visible()

    row.get_by_role("button", name="Leave “Pilot run” out of results").click()
    expect(page.get_by_text("“Pilot run” is now left out of results")).to_be_visible()
    row = page.get_by_role("region", name="Judgment sources").get_by_role("row", name="Pilot run")
    expect(row.get_by_role("cell", name="pilot: left out")).to_be_visible()
    pilot.refresh_from_db()
    assert pilot.status == "pilot"

    row.get_by_role("button", name="Count “Pilot run” in results").click()
    expect(page.get_by_text("“Pilot run” now counts")).to_be_visible()
    pilot.refresh_from_db()
    assert pilot.status == "official"
