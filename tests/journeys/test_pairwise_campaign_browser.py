"""In Chromium, with the real Celery worker (issue 32, item 3): an organiser creates a
pairwise campaign; three crowd workers arrive through Prolific links, take the quiz pair
and compare clips until the query is sorted (the worker drives each next round after the
answers' hand-off); the groups appear on the sort page and on the query page, and the
groups file downloaded from the collection page, uploaded again, gives the same groups.

The query q1 has four candidates; the workers hear two tiers, ⟨c1, c2⟩ above ⟨c3, c4⟩, and
say "equally similar" within a tier. With 3 answers per pair and a margin of 1, every pair
across the tiers is 3 to 0 and every pair within a tier 0 to 0 (three "equal"), so
whatever the pivots the groups are ⟨c1, c2⟩, ⟨c3, c4⟩, after two rounds: the first
splits off one tier and the pivot's fellow, the second settles the other tier. The official
Fine judgments (c1, c2 100; c3, c4 0) make four quiz pairs, c1 or c2 against c3 or c4.

About 20 s (22 s measured on the busy shared machine): 15 answers in three browsers, and
two waits for the real worker to drive the next round after the answers' hand-off.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry
from crowd.models import PreferenceCampaign
from pairwise.models import PairwiseSort
from tests.helpers.browser import (
    REAL_WORKER_JOURNEY,
    current_task,
    log_in,
    shot,
    start,
    wait_for_next_page,
    watch_to_the_result,
)
from tests.helpers.pairwise_study import shown_clips
from tests.helpers.personas import PASSWORD
from tests.helpers.platform_links import prolific_id
from tests.helpers.sources import source_for

pytestmark = REAL_WORKER_JOURNEY

TIER = {"c1": 0, "c2": 0, "c3": 1, "c4": 1}


def four_candidates(owner) -> Collection:
    collection = Collection.objects.create(name="Pairs in the browser", owner=owner)
    query = Query.objects.create(
        collection=collection,
        clip=Clip.objects.create(collection=collection, external_id="q1", title="q1"),
    )
    system = collection.systems.create(name="S1")
    source = source_for(collection, "panel")
    for rank, name in enumerate(TIER, start=1):
        clip = Clip.objects.create(collection=collection, external_id=name, title=name)
        RunEntry.objects.create(system=system, query=query, rank=rank, clip=clip)
        fine = 100 if TIER[name] == 0 else 0
        RelevanceJudgment.objects.create(query=query, clip=clip, source=source, fine=fine)
    return collection


def answer(page) -> None:
    """Answer the task on screen as the tiers say, with the keyboard (keys 1–3)."""
    task = current_task(page)
    a, b = shown_clips(task)
    key = 3 if TIER[a] == TIER[b] else (1 if TIER[a] < TIER[b] else 2)
    page.locator("body").press(str(key))
    page.keyboard.press("Enter")
    wait_for_next_page(page, task.key)


def step(page) -> bool:
    """One thing a worker's page asks for; whether it asked an answer."""
    if page.get_by_role("button", name="Submit answer").count():
        answer(page)
        return True
    if page.get_by_role("link", name="Continue").count():  # the quiz pair's feedback
        page.get_by_role("link", name="Continue").click()
        return False
    page.get_by_role("link", name="look for more tasks").click()  # the next round, if made
    return False


def test_an_organiser_creates_a_pairwise_campaign_three_workers_sort_a_query_the_groups_appear(
    page, chromium, live_server, personas, celery_worker_process, tmp_path
):
    collection = four_candidates(personas.organiser)
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto("/campaigns/")
    page.get_by_role("link", name="New pairwise campaign").click()
    page.get_by_label("Collection").select_option(label="Pairs in the browser")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", name="New pairwise campaign")).to_be_visible()
    page.get_by_label("Name:", exact=True).fill("Closer clip")
    page.get_by_label("Margin").fill("1")
    page.get_by_label("Answers per pair").fill("3")
    page.get_by_label("Name of the ground truth").fill("crowd sort")
    page.get_by_label("Quiz length (Q)").fill("1")
    page.get_by_label("Trap rate").fill("0")
    page.get_by_label("Trap answers before trust counts").fill("1")
    page.get_by_label("Refuse answers without listening (checked by the server)").uncheck()
    page.get_by_role("button", name="Create pairwise campaign").click()
    expect(page.get_by_role("heading", name="Closer clip: sorting the clips")).to_be_visible()
    row = page.get_by_role("row", name="q1")
    expect(row).to_contain_text("0 of 3 complete")
    expect(row).to_contain_text("0 of 9")
    shot(page, "pairwise-sort-new")
    campaign = PreferenceCampaign.objects.get(name="Closer clip")
    assert campaign.is_open and campaign.is_pairs

    workers = []
    for n in range(3):
        context = chromium.new_context(
            base_url=live_server.url, viewport={"width": 1280, "height": 900}
        )
        worker = context.new_page()
        link = f"/t/{campaign.token}/?PROLIFIC_PID={prolific_id(f'pair{n}')}&STUDY_ID=st&SESSION_ID=s{n}"
        start(worker, link)
        workers.append(worker)
    expect(
        workers[0].get_by_role("heading", name="Which clip is more similar to the query?")
    ).to_be_visible()
    expect(workers[0].get_by_role("radio", name="They are equally similar")).to_be_visible()
    expect(workers[0].get_by_role("heading", name="Clip A")).to_be_visible()

    sort = PairwiseSort.objects.get(study_id=campaign.pk)
    deadline = time.monotonic() + 120
    while not sort.done:
        assert time.monotonic() < deadline, sort.state
        if not any([step(worker) for worker in workers]):
            time.sleep(0.5)  # the worker drives the next round after the hand-off
        sort.refresh_from_db()

    page.reload()
    row = page.get_by_role("row", name="q1")
    expect(row).to_contain_text("sorted")
    expect(row.get_by_role("listitem")).to_have_text(["c1, c2", "c3, c4"])
    shot(page, "pairwise-sort-done")
    page.goto(f"/collections/{collection.pk}/?show=queries")
    page.get_by_role("link", name="q1", exact=True).click()
    section = page.get_by_role("region", name="Ordered groups: crowd sort")
    expect(section).to_contain_text(
        "Built from the answers of a pairwise study (crowd pairs campaign “Closer clip”)"
    )
    clips = section.get_by_role("row").all_inner_texts()[1:]
    cells = [r.split("\t") for r in clips]  # group, clip (its id, then its title), …
    assert [(c[0], c[1].split()[0]) for c in cells] == [
        ("1", "c1"), ("1", "c2"), ("2", "c3"), ("2", "c4"),
    ]  # fmt: skip
    shot(page, "pairwise-query-page")

    # Export, then import: the downloaded groups file, uploaded as it is, gives the same
    # groups (under the file's NAME, the source's name with "_" for the space).
    page.goto(f"/collections/{collection.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the groups of “crowd sort”").click()
    exported = tmp_path / "crowd-sort-groups.txt"
    download.value.save_as(exported)
    page.get_by_role("link", name="Upload files").click()
    page.get_by_role("link", name="Upload ordered groups").click()
    page.get_by_label("Groups file").set_input_files(exported)
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of ordered groups")
    page.goto(f"/collections/{collection.pk}/?show=queries")
    page.get_by_role("link", name="q1", exact=True).click()
    again = page.get_by_role("region", name="Ordered groups: crowd_sort")
    expect(again).to_contain_text("Imported from a file of ordered groups")
    rows = [r.split("\t") for r in again.get_by_role("row").all_inner_texts()[1:]]
    assert [(c[0], c[1].split()[0]) for c in rows] == [(c[0], c[1].split()[0]) for c in cells]
