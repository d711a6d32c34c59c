"""In Chromium: an organiser deletes an example (the confirmation says what goes with it)
and brings it back from the collection's deleted things (issue 25, item 3)."""

import pytest
from playwright.sync_api import expect

from crowd.models import Example
from tests.helpers.browser import log_in
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_example_is_deleted_after_a_confirmation_and_restored(page, personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    example = campaign.examples.order_by("pk").first()
    items = example.items.count()
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/examples/")
    page.get_by_role("link", name=f"Delete example {example.pk}", exact=True).click()
    expect(page.get_by_role("heading", name=f"Delete example “{example}”?")).to_be_visible()
    expect(page.get_by_text(f"{items} example items")).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("It can be restored below for 30 days")).to_be_visible()
    assert not Example.objects.filter(pk=example.pk).exists()

    page.get_by_role("button", name=f"Restore example “{example}”").click()
    expect(page.get_by_text(f"Restored {example}.")).to_be_visible()
    assert page.url.endswith(f"/campaigns/{campaign.pk}/examples/")  # back where it was
    assert Example.objects.get(pk=example.pk).items.count() == items
