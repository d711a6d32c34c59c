"""The campaign page's "Fill the pools from the official judgments" on a collection judged on
the Broad scale alone (TREC qrels), in Chromium: what issue 31 item 3 made work, as the
organiser's browser tests and the Broad-only whole study see it."""

from __future__ import annotations

from playwright.sync_api import expect


def fill_broad_only_pools_and_open(page, *, work: int) -> None:
    """On a closed campaign's page: one click marks ``work`` work trap questions from the
    Broad levels, explained in Broad levels; the pools are then enough, and the campaign
    opens from its settings page (where the organiser is left)."""
    traps = page.get_by_role("region", name="Trap questions")
    expect(traps).to_contain_text("The judgments read are the Broad levels, as no clip has")
    page.get_by_role("button", name="Fill the pools from the official judgments").click()
    expect(
        page.get_by_text(f"Marked from the official judgments: {work} work trap questions.")
    ).to_contain_text("Judgments read: the Broad levels, as no clip has a Fine score")
    expect(page.get_by_text("The trap pools are too small")).to_have_count(0)
    expect(traps.get_by_role("row").filter(has_text="work")).to_have_count(work)
    expect(traps).to_contain_text("where 0 is Not similar, 1 Somewhat similar and 2 Very similar")
    page.get_by_role("link", name="Settings", exact=True).click()
    page.get_by_role("button", name="Open the campaign").click()
    expect(page.get_by_role("heading", name="Open", exact=True)).to_be_visible()
