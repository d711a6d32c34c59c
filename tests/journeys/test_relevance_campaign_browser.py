"""In Chromium: the organiser follows a campaign's progress and agreement and downloads qrels."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from listening.services.audio_served import audio_served_record
from relevance import selectors
from relevance.services.campaigns import judgment_save
from tests.helpers.browser import log_in, shot
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_assessor, two_assessors_on_one_query

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def judged_campaign(personas):
    """Two assessors judged the same four candidates, each page reporting 5 s of listening
    and one play per candidate: bea's clips reached her 10 s before, ada's never did (her
    figures are impossible: cut to the 1 s of slack and flagged, issue 29)."""
    ada, bea = personas.assessor, make_assessor("bea")
    campaign, ada_work, bea_work = two_assessors_on_one_query(personas, ada, bea)
    entries = list(campaign.pool.filter(query=ada_work.query).order_by("clip__external_id"))
    for entry in entries:
        audio_served_record(
            clip=entry.clip, size=1000, byte_range=None, assignment=bea_work,
            now=timezone.now() - timedelta(seconds=10),
        )  # fmt: skip
    for work, who, scores in ((ada_work, ada, [(2, 90), (1, 60), (0, 10), (1, 45)]),
                              (bea_work, bea, [(2, 80), (0, 40), (0, 20), (2, 70)])):  # fmt: skip
        for entry, (broad, fine) in zip(entries, scores, strict=True):
            judgment_save(assignment=work, assessor=who, pool_entry=entry, broad=broad,
                          fine=fine, listened_seconds=5, judging_seconds=15, plays=1)  # fmt: skip
    return campaign


def test_the_organiser_sees_progress_and_agreement_and_downloads_qrels(
    page, personas, judged_campaign, tmp_path
):
    log_in(page, personas.organiser.username, PASSWORD)
    page.get_by_role("link", name="Relevance campaigns").click()
    page.get_by_role("link", name="Similarity 2025").click()
    expect(page.get_by_role("heading", name="Similarity 2025")).to_be_visible()

    by_assessor = page.get_by_role("table").nth(0)
    expect(by_assessor.get_by_role("row", name="ada")).to_contain_text("60 s")  # 4 × 15 s
    expect(by_assessor.get_by_role("row", name="bea")).to_contain_text("4")
    impossible = by_assessor.get_by_role(
        "columnheader", name="Candidates with impossible listening figures"
    )
    expect(impossible.locator("abbr")).to_have_attribute(
        "title", re.compile("^The judging page reported more listening time")
    )
    ada_cells = by_assessor.get_by_role("row", name="ada").get_by_role("cell")
    bea_cells = by_assessor.get_by_role("row", name="bea").get_by_role("cell")
    expect(ada_cells.nth(5)).to_have_text("4 s")  # 4 × (0 s observed + 1 s slack), not 20
    expect(ada_cells.nth(7)).to_have_text("4")  # every candidate flagged
    expect(bea_cells.nth(5)).to_have_text("20 s")  # 4 × 5 s, within the 10 s observed
    expect(bea_cells.nth(7)).to_have_text("0")
    expect(
        page.get_by_text("On 4 query–clip pairs of 1 query judged by two or more")
    ).to_be_visible()
    expect(page.get_by_role("row", name="Fine (α interval)")).to_be_visible()
    shot(page, "campaign-organiser-desktop")

    page.get_by_label("Scale").select_option("fine")
    page.get_by_label("Policy").select_option("mean")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download qrels").click()
    path = tmp_path / "fine.qrels"
    info.value.save_as(path)
    text = path.read_text()
    assert text == selectors.campaign_qrels(campaign=judged_campaign, scale="fine", policy="mean")
    rows = [line.split() for line in text.splitlines()]
    assert len(rows) == 4 and all(len(row) == 4 and row[1] == "0" for row in rows)
    # Means of (90, 80), (60, 40), (10, 20), (45, 70) by clip id order, halves up.
    assert sorted(int(row[3]) for row in rows) == sorted([85, 50, 15, 58])

    with page.expect_download() as info:
        page.get_by_role("link", name="Download every judgment as CSV").click()
    assert info.value.suggested_filename == f"campaign-{judged_campaign.pk}-judgments.csv"

    page.set_viewport_size({"width": 375, "height": 812})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    shot(page, "campaign-organiser-phone")
