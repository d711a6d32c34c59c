"""axe-core on every page type (issue 25, item 8): no serious or critical violation.

axe-core (Deque, MPL-2.0) is vendored in ``tests/assets`` with its version in the file
name and evaluated in the page through Playwright (which the site's
Content-Security-Policy does not block: it is the browser's own tooling, not a script of
the page). Each page type is visited as the person who uses it.
"""

import pytest

from relevance.services.campaigns import assignment_next
from tests.helpers.browser import log_in, violations
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD
from tests.helpers.platform_links import prolific_id
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign
from tests.helpers.results_payloads import MEASURE, store_results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_no_page_type_has_a_serious_or_critical_violation(page, personas, crowd_collection):
    from urllib.parse import quote

    c = crowd_collection
    campaign = make_campaign(c, traps=2, quiz_length=1)
    relevance = make_relevance_campaign(personas, must_listen_seconds=0)
    work = assignment_next(campaign=relevance, assessor=personas.assessor)
    store_results(c)
    example = campaign.examples.first()
    organiser_pages = [
        "/", "/people/", "/glossary/", f"/collections/{c.pk}/", f"/collections/{c.pk}/?show=systems",
        f"/collections/{c.pk}/queries/{c.queries.first().pk}/", f"/collections/{c.pk}/listening/",
        f"/collections/{c.pk}/trash/", f"/collections/{c.pk}/uploads/", f"/collections/{c.pk}/uploads/runs/",
        f"/collections/{c.pk}/edit/", f"/collections/{c.pk}/sharing/", f"/collections/{c.pk}/results/",
        f"/collections/{c.pk}/results/leaderboard/?measure={quote(MEASURE)}",
        f"/collections/{c.pk}/results/settings/",
        f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/settings/",
        f"/campaigns/{campaign.pk}/examples/", f"/campaigns/{campaign.pk}/examples/{example.pk}/trap/",
        f"/campaigns/{campaign.pk}/workers/", f"/campaigns/{campaign.pk}/generator/",
        f"/relevance-campaigns/{relevance.pk}/", f"/relevance-campaigns/{relevance.pk}/assessors/",
        f"/collections/{c.pk}/delete/system/{c.systems.first().pk}/",
        "/campaigns/new/", f"/collections/{c.pk}/uploads/answers/",
    ]  # fmt: skip
    found = {}
    page.goto("/login/")
    found["/login/"] = violations(page)
    log_in(page, personas.organiser.username, PASSWORD)
    for path in organiser_pages:
        page.goto(path)
        found[path] = violations(page)
    page.context.clear_cookies()
    log_in(page, personas.assessor.username, PASSWORD)
    for path in ["/", f"/judge/assignments/{work.pk}/"]:
        page.goto(path)
        found[f"assessor {path}"] = violations(page)
    page.context.clear_cookies()
    page.goto(f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id('axe1')}&STUDY_ID=s&SESSION_ID=x")
    found["consent"] = violations(page)
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()
    found["task"] = violations(page)
    page.goto("/t/nope/")
    found["task link 404"] = violations(page)
    bad = {path: v for path, v in found.items() if v}
    assert len(found) > 25 and not bad, bad


def test_organiser_pages_do_not_scroll_sideways_on_a_phone(page, personas, crowd_collection):
    """Issue 25: organiser pages scrolled sideways on a phone. At 390 px wide (a current
    phone) the page is as wide as the screen; wide tables scroll inside themselves."""
    from urllib.parse import quote

    c = crowd_collection
    campaign = make_campaign(c, traps=2, quiz_length=1)
    store_results(c)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, personas.organiser.username, PASSWORD)
    paths = [
        f"/collections/{c.pk}/", f"/collections/{c.pk}/?show=systems", f"/collections/{c.pk}/results/",
        f"/collections/{c.pk}/results/leaderboard/?measure={quote(MEASURE)}", "/people/",
        f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/examples/",
        f"/campaigns/{campaign.pk}/workers/", f"/campaigns/{campaign.pk}/settings/", "/collections/",
    ]  # fmt: skip
    wide = {}
    for path in paths:
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    assert not wide, wide
