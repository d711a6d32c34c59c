"""In Chromium: the organiser reads the listening behind a worker's answers on the workers
page, then has the satisfaction mapping use only the answers with every clip heard."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from crowd.models import Answer
from evaluation.services import campaign_mapping_compute, recompute
from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rules"),  # listening as the figures below compute it
]


def test_the_workers_listening_shows_and_the_mapping_keeps_only_answers_fully_heard(
    page,
    personas,
    three_answers,
    monkeypatch,
):
    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: None)  # no broker here
    campaign, worker, _ = three_answers
    Answer.objects.filter(worker=worker).update(accepted_at=timezone.now())  # as if trusted
    log_in(page, personas.organiser.username, PASSWORD)

    page.goto(f"/campaigns/{campaign.pk}/workers/")
    table = page.get_by_role("table")
    expect(table.get_by_role("columnheader", name="Listening")).to_be_visible()
    row = table.get_by_role("row").filter(has_text="careful-mostly")
    term = row.locator("abbr").filter(has_text="every clip heard")  # explained where it is used
    expect(term).to_have_attribute("title", "An answer whose query and every clip of both lists had enough coverage, with time from the first clip to the answer to hear them one after another (5 s each, or all of a shorter clip).")  # fmt: skip
    for shown in (
        "every clip heard: 1 of 3",
        "per clip (median): 70 %",
        "12.0 s",
        "every clip needs 15.0 s",
        "not screened",
    ):
        expect(row).to_contain_text(
            shown
        )  # worked out in listening/tests/test_listening_overview.py

    page.goto(f"/collections/{campaign.collection_id}/results/settings/")
    only = page.get_by_role("checkbox", name="Use only the answers with every clip heard")
    only.check()
    page.get_by_role("button", name="Save the mapping settings of Tiny").click()
    expect(page.get_by_text("Saved the mapping of “Tiny”")).to_be_visible()
    expect(only).to_be_checked()

    campaign_mapping_compute(campaign=campaign)  # what the recompute asked for does
    page.goto(f"/collections/{campaign.collection_id}/results/mapping/?campaign={campaign.pk}")
    expect(page.locator("p.listening")).to_contain_text(
        "1 of 3 accepted answers had every clip heard; the mapping uses only those"
    )
