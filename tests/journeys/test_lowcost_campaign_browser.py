"""In Chromium, with a real Celery worker: a low-cost campaign from its first judgment to
"confident".

An assessor judges the pairs "Get next pair" serves, one at a time; the organiser keeps
the campaign page open, and its estimates follow each judgment (the worker recomputes
them, coalesced, a few seconds later). On the collection of
``tests/helpers/lowcost_campaign_data.py`` the ranking of CG_l@2 is 95% confident after 5 of
its 12 pairs (the core's numbers, checked in ``evaluation/tests/test_campaign_estimate.py``); the
organiser then stops the campaign and the assessor gets no more work.
"""

import time

import pytest
from playwright.sync_api import expect

from evaluation.models import CampaignEstimate, Recompute
from relevance.models import Assignment
from tests.helpers.browser import log_in, shot, wait_saved
from tests.helpers.lowcost_campaign_data import (
    CONFIDENT_AFTER,
    broad_of,
    fine_of,
    make_lowcost_campaign,
    make_lowcost_collection,
)
from tests.helpers.personas import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    pytest.mark.real_handoff,
    pytest.mark.django_db(transaction=True),
]
BROAD = ["Not similar", "Somewhat similar", "Very similar"]
WORKER_TIMEOUT = 60_000  # ms: the worker waits 1 s before each coalesced recompute


def judge_the_served_pair(page, assessor) -> str:
    """Score the one candidate on the page as the collection's table says; its clip id."""
    work = Assignment.objects.select_related("pool_entry__clip").get(
        assessor=assessor, completed_at=None
    )
    clip = work.pool_entry.clip.external_id
    fine = fine_of(clip)
    region = page.get_by_role("region", name="Candidate 1", exact=True)
    region.get_by_text(BROAD[broad_of(fine)], exact=True).click()
    number = region.get_by_role("spinbutton", name="Fine score value")
    number.fill(str(fine))
    number.press("Tab")
    wait_saved(page)
    expect(page.get_by_text("This pair is done.")).to_be_visible()
    return clip


def test_a_lowcost_campaign_from_its_first_judgment_to_confident(
    chromium, live_server, celery_worker_process, personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    collection = make_lowcost_collection(personas.organiser, audio_seconds=1.0)
    campaign = make_lowcost_campaign(collection, assessors=[personas.assessor])
    contexts = [
        chromium.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
        for _ in range(2)
    ]
    organiser, assessor = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (organiser, assessor):
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        log_in(organiser, personas.organiser.username, PASSWORD)
        organiser.goto(campaign.get_absolute_url())
        estimates = organiser.locator("#estimates")
        # The worker's first estimate (asked for when the campaign was created) arrives.
        expect(estimates).to_contain_text("No judgments yet.", timeout=WORKER_TIMEOUT)
        expect(estimates).to_contain_text("Judgments made: 0 of 12 pairs")
        # Issue 31: the model's expectations before any judgment are no ranking to read.
        expect(estimates.get_by_text("What the relevance model expects")).to_be_visible()
        expect(estimates.get_by_role("table").first).to_be_hidden()

        log_in(assessor, personas.assessor.username, PASSWORD)
        assessor.get_by_role("button", name="Get next pair").click()
        judged = []
        for n in range(1, 13):
            expect(assessor.locator("section.candidate")).to_have_count(1)  # one pair
            expect(
                assessor.get_by_role("heading", name="How similar is this candidate")
            ).to_be_visible()
            judged.append(judge_the_served_pair(assessor, personas.assessor))
            # The campaign page follows: this judgment counted, and in the estimates.
            expect(estimates).to_contain_text(f"Judgments made: {n} of 12 pairs")
            expect(estimates.locator(".behind")).to_have_count(0, timeout=WORKER_TIMEOUT)
            if "Confident." in estimates.inner_text():
                break
            assessor.get_by_role("button", name="Get next pair").click()
        assert len(judged) == CONFIDENT_AFTER, judged  # 5 of the 12 pairs
        assert judged == ["g1", "p1", "g2", "p2", "g3"]  # the core's order (§8.3)
        expect(estimates).to_contain_text("The stopping rule is met: you can stop the campaign.")
        table = estimates.get_by_role("table").first
        systems = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
        assert systems == ["GoodEar", "MidFi", "Poorly"]
        stored = CampaignEstimate.objects.get(campaign=campaign).payload["stopping"]
        assert stored["stop"] and stored["value"] >= 0.95
        shot(organiser, "lowcost-campaign-confident")

        final = Recompute.objects.filter(kind="lowcost", target_id=campaign.pk)
        asked_before = final.get().requests
        organiser.get_by_role("button", name="Stop the campaign").click()
        expect(organiser.get_by_text("“Low-cost 2025” is closed.")).to_be_visible()
        assessor.goto("/")
        expect(assessor.get_by_text("No judging campaign is open for you yet.")).to_be_visible()
        # Stopping asks for final estimates: let the worker finish them before the
        # database is emptied for the next test.
        settled = final.filter(requests__gt=asked_before, state=Recompute.DONE, dirty=False)
        deadline = time.monotonic() + WORKER_TIMEOUT / 1000
        while not settled.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert settled.exists(), final.get().to_dict()
        busy = Recompute.objects.filter(state__in=[Recompute.QUEUED, Recompute.RUNNING])
        assert not busy.exists(), list(busy.values("kind", "state", "message"))
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
