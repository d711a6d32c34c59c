"""In Chromium: an organiser opens a campaign's mapping, sees the plot, downloads its CSV."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import log_in
from tests.helpers.mappings import MEASURE, store_mapping
from tests.helpers.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_mapping_page_draws_its_plot_and_downloads_the_data(page, personas):
    store_mapping(personas.collection)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{personas.collection.pk}/results/")
    page.get_by_role("link", name=f"Mapping of {MEASURE}").click()
    expect(page.get_by_role("heading", name=f"Satisfaction mapping: {MEASURE}")).to_be_visible()

    plot = page.get_by_role("img", name=f"P(Sat | λ) of {MEASURE} with 95% Wilson intervals")
    box = plot.bounding_box()
    assert box["width"] > 200 and box["height"] > 100  # drawn, not an empty element

    with page.expect_download() as info:
        page.locator("#plot-psat").get_by_role("link", name="data (CSV)").click()
    download = info.value
    assert download.suggested_filename == "Study-CG-scale-fine--5-psat.csv"
    lines = Path(download.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "series,x,y,low,high,count"
    assert lines[1].startswith("P(Sat) per bin,0.05,0.333")
