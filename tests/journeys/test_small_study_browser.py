"""In Chromium: the leaderboard of a small study (3 MIREX 2011 systems, 2 judged queries)
says what it cannot say, keeps its intervals and plot inside [0, 1], and gives every
system the letter "a" (issue 24). The screenshot goes to ``var/screenshots/``."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.helpers.browser import SHOTS, log_in
from tests.helpers.personas import PASSWORD
from tests.helpers.small_study import MEASURE, small_study

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_small_study_shows_warnings_bounded_intervals_and_letters(page, tmp_path):
    owner, collection = small_study(tmp_path)
    log_in(page, owner.username, PASSWORD)
    page.goto(f"/collections/{collection.pk}/results/leaderboard/?measure={quote(MEASURE)}")
    warnings = page.get_by_role("region", name="What these results cannot say")
    expect(warnings).to_contain_text("2 judged queries are too few for significance tests")
    expect(warnings).to_contain_text("The D-study says")
    letters = page.locator("#leaderboard tbody td.letters").all_inner_texts()
    assert letters == ["a", "a", "a"]
    expect(page.get_by_role("columnheader", name="Letters")).to_be_visible()
    assert "(bootstrap)" in page.locator("#leaderboard tbody tr").first.inner_text()

    plot = page.get_by_role(
        "img", name=f"Mean {MEASURE} with 95% confidence intervals (bootstrap percentile)"
    )
    expect(plot).to_be_visible()
    ticks = [float(t) for t in plot.locator("g.axis.x text").all_text_contents() if t[:1].isdigit()]
    assert ticks and min(ticks) >= 0 and max(ticks) <= 1  # drawn within the measure's bounds
    expect(plot.locator("text", has_text="0fd93c (a)")).to_have_count(1)  # letters on the plot too

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "small-study-leaderboard-after.png"), full_page=True)
