"""In Chromium, with the real Celery worker (issue 32): an organiser creates an
expert-ranking campaign, an expert ranks one query by drag and drop and the other by
keyboard alone (hearing every candidate first), the groups appear on the query page and
the ADR leaderboard, recomputed by the worker, lists the campaign's measure."""

from __future__ import annotations

import re

from django.core.files.base import ContentFile
from playwright.sync_api import expect

from catalog.models import OrderedGroupEntry
from relevance.models import RelevanceCampaign
from tests.helpers.audio_files import sine_wav
from tests.helpers.browser import REAL_WORKER_JOURNEY, log_in, shot, violations, wait_saved
from tests.helpers.ordered_groups import ADR_AT_3, groups_collection, wait_for_leaderboard
from tests.helpers.personas import PASSWORD

pytestmark = REAL_WORKER_JOURNEY


def order_on_page(page) -> list[str]:
    return page.locator("#ranking > li").evaluate_all("els => els.map(e => e.dataset.number)")


def hear_every_candidate(page) -> None:
    """Play each candidate to its end at normal speed, one at a time (1.2 s each)."""
    for number in sorted(order_on_page(page), key=int):
        player = page.get_by_label(f"Candidate {number} clip", exact=True)
        player.evaluate("audio => audio.play()")
        page.wait_for_function(
            "label => document.querySelector(`audio[aria-label='${label}']`).ended",
            arg=f"Candidate {number} clip",
        )
        expect(page.get_by_role("listitem", name=f"Candidate {number}")).to_have_attribute(
            "draggable", "true"
        )


def test_an_organiser_creates_the_campaign_and_an_expert_ranks_by_mouse_and_keyboard(
    page, personas, celery_worker_process
):
    collection = groups_collection(owner_name=personas.organiser.username)
    wav = sine_wav(1.2)
    for clip in collection.clips.all():
        clip.duration = 1.2
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(wav))

    log_in(page, personas.organiser.username, PASSWORD)
    page.goto("/relevance-campaigns/")
    page.get_by_role("link", name="New expert-ranking campaign").click()
    page.get_by_label("Collection").select_option(label=str(collection))
    page.get_by_label(re.compile(r"^Name:?$")).fill("Experts by ear")
    page.get_by_label("Candidates: each system's top k (k)").fill("3")
    page.get_by_label("Must listen (seconds)").fill("1")
    page.get_by_label(personas.assessor.username).check()
    expect(page.get_by_label("Typke et al. 2005", exact=False)).to_be_checked()
    page.get_by_label("official: they count in the results", exact=False).check()
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name="Experts by ear")).to_be_visible()
    expect(page.get_by_role("heading", name="Rankings and groups per query")).to_be_visible()
    campaign = RelevanceCampaign.objects.get(name="Experts by ear")
    page.get_by_role("button", name="Log out").click()

    # The expert: the first query by drag and drop.
    log_in(page, personas.assessor.username, PASSWORD)
    page.get_by_role("button", name="Get next query").click()
    expect(page.get_by_role("heading", name="Put the candidates in order")).to_be_visible()
    first = order_on_page(page)
    assert len(first) == 5
    hear_every_candidate(page)
    last = first[-1]
    page.get_by_role("listitem", name=f"Candidate {last}").drag_to(
        page.get_by_role("listitem", name=f"Candidate {first[0]}")
    )
    expect(page.locator("#ranking-announce")).to_contain_text(f"Candidate {last} is now at place 1")
    wait_saved(page)
    dragged = order_on_page(page)
    assert dragged == [last, *first[:-1]]
    page.reload()  # nothing lost
    assert order_on_page(page) == dragged
    page.get_by_role("button", name="Submit my ranking").click()
    expect(page.get_by_text("Your ranking of this query is submitted.")).to_be_visible()
    shot(page, "ranking-by-drag")
    assert violations(page) == []  # axe-core: no serious or critical problem

    # The second query by keyboard alone: pick up the third, move it to the top, drop.
    page.get_by_role("button", name="Get next query").click()
    expect(page.get_by_role("button", name="Submit my ranking")).to_be_visible()
    second = order_on_page(page)
    hear_every_candidate(page)
    page.get_by_role("listitem", name=f"Candidate {second[2]}").focus()
    page.keyboard.press("Space")
    expect(page.locator("#ranking-announce")).to_contain_text("picked up at place 3")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#ranking-announce")).to_contain_text(
        f"Candidate {second[2]} dropped at place 1 of 5"
    )
    wait_saved(page)
    # … then the last one up by its button
    page.get_by_role("button", name=f"Move up: candidate {second[4]}").click()
    wait_saved(page)
    by_keys = [second[2], second[0], second[1], second[4], second[3]]
    assert order_on_page(page) == by_keys
    page.get_by_role("button", name="Submit my ranking").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Your ranking of this query is submitted.")).to_be_visible()
    shot(page, "ranking-by-keyboard")
    assert OrderedGroupEntry.objects.filter(source=campaign.source).count() == 10
    page.get_by_role("button", name="Log out").click()

    # The organiser: the groups on the campaign's and the query's pages, ADR on the board.
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/relevance-campaigns/{campaign.pk}/")
    expect(page.get_by_role("row", name="q1")).to_contain_text("1 of 1")
    assert violations(page) == []
    page.get_by_role("link", name="q1", exact=True).click()
    section = page.get_by_role("region", name="Ordered groups: Experts by ear")
    expect(section).to_contain_text("Built from the rankings of the experts")
    # one expert: every candidate in one group (tests/test_ranking_submit.py works it out)
    rows = section.get_by_role("row").all_inner_texts()[1:]
    assert sorted(row.split("\t")[:2][1] for row in rows) == ["d1", "d2", "d3", "d4", "d5"]
    assert {row.split("\t")[0] for row in rows} == {"1"}
    wait_for_leaderboard(ADR_AT_3)
    page.goto(f"/collections/{collection.pk}/")
    page.get_by_role("link", name="Results").click()
    expect(page.get_by_role("link", name=f"Leaderboard of {ADR_AT_3}")).to_be_visible()
    shot(page, "ranking-leaderboard")
