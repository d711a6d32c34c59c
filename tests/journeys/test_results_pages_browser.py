"""In Chromium: an organiser sorts the leaderboard, sees a plot, downloads its CSV."""

from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD
from tests.helpers.results_payloads import MEASURE, store_results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def system_order(page) -> list[str]:
    return page.locator("#leaderboard tbody tr td:nth-child(2)").all_inner_texts()


def test_an_organiser_sorts_the_leaderboard_sees_plots_and_downloads_csv(page, personas):
    store_results(personas.collection)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{personas.collection.pk}/")
    page.get_by_role("link", name="Results").click()
    page.get_by_role("link", name=f"Leaderboard of {MEASURE}").click()
    expect(page.get_by_role("heading", name=f"Leaderboard: {MEASURE}")).to_be_visible()
    assert system_order(page) == ["Alpha", "Beta", "Gamma"]

    page.get_by_role("button", name="System").click()
    assert system_order(page) == ["Alpha", "Beta", "Gamma"]  # ascending by name
    page.get_by_role("button", name="System").click()
    assert system_order(page) == ["Gamma", "Beta", "Alpha"]
    page.get_by_role("button", name="P(Succ)").click()
    assert system_order(page) == ["Gamma", "Beta", "Alpha"]  # ascending P(Succ)
    header = page.get_by_role("columnheader", name="P(Succ)")
    assert header.get_attribute("aria-sort") == "ascending"

    plot = page.get_by_role("img", name=f"Mean {MEASURE} with 95% confidence intervals")
    box = plot.bounding_box()
    assert box["width"] > 200 and box["height"] > 100  # drawn, not an empty element

    figure = page.locator("#plot-means")
    with page.expect_download() as info:
        figure.get_by_role("link", name="data (CSV)").click()
    download = info.value
    assert download.suggested_filename == "CG-scale-fine--5-means.csv"
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.splitlines()[0] == "label,mean,low,high"
    assert len(text.splitlines()) == 4
    assert quote(MEASURE) in page.url


def test_the_significance_and_system_pages_draw_their_plots_from_the_stored_data(page, personas):
    store_results(personas.collection)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(
        f"/collections/{personas.collection.pk}/results/leaderboard/?measure={quote(MEASURE)}"
    )
    page.get_by_role("link", name="Significance of every pair").click()
    expect(page.get_by_role("heading", name=f"Significance: {MEASURE}")).to_be_visible()
    heat = page.get_by_role("img", name="Adjusted p-values (bootstrap, holm)")
    assert heat.bounding_box()["width"] > 150
    # Three systems: 3 × 3 cells but the diagonal, each titled with its adjusted p-value
    # (tests/helpers/results_payloads.py: Alpha–Gamma p = 0.001, Holm-adjusted × 3).
    cells = page.locator("#plot-pvalues g.marks rect")
    expect(cells).to_have_count(6)
    assert "Alpha – Gamma: 0.003" in cells.locator("title").all_text_contents()

    page.go_back()
    page.get_by_role("link", name="Beta", exact=True).click()
    histogram = page.get_by_role("img", name=f"Distribution of {MEASURE} over queries")
    assert histogram.bounding_box()["height"] > 100
    bars = page.locator("#plot-lambda g.marks rect title").all_text_contents()
    assert bars[5:7] == ["[0.5, 0.6): 1", "[0.6, 0.7): 1"]  # Beta's 0.5 and 0.6
