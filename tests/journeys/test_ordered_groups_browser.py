"""In Chromium, with the real Celery worker (issue 32): an organiser uploads a groups file
into a collection that holds runs, watches the import to its result, sees the groups of a
query in order with each clip playable, and finds ADR on the leaderboard, recomputed by the
worker after the import (values worked out by hand in ``tests/helpers/ordered_groups.py``)."""

from __future__ import annotations

import re

from django.core.files.base import ContentFile
from playwright.sync_api import expect

from tests.helpers.audio_files import sine_wav
from tests.helpers.browser import (
    REAL_WORKER_JOURNEY,
    count,
    log_in,
    play_through,
    shot,
    watch_to_the_result,
)
from tests.helpers.ordered_groups import (
    ADR_AT_3,
    ADR_BY_HAND,
    GROUPS_FILE,
    groups_collection,
    wait_for_leaderboard,
)
from tests.helpers.personas import PASSWORD

pytestmark = REAL_WORKER_JOURNEY

MEASURE = ADR_AT_3


def test_an_organiser_uploads_groups_sees_them_on_the_query_page_and_adr_on_the_leaderboard(
    page, personas, celery_worker_process, tmp_path
):
    collection = groups_collection(owner_name=personas.organiser.username)
    wav = sine_wav(0.5)
    for clip in collection.clips.filter(external_id__in=["d4", "d5"]):
        clip.duration = 0.5
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(wav))
    groups = tmp_path / "experts-groups.txt"
    groups.write_text(GROUPS_FILE, encoding="utf-8")

    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/collections/{collection.pk}/")
    page.get_by_role("link", name="Upload files").click()
    page.get_by_role("link", name="Upload ordered groups").click()
    expect(page.get_by_role("heading", name="Upload ordered groups")).to_be_visible()
    page.get_by_label("Groups file").set_input_files(groups)
    page.get_by_role("button", name="Upload and import").click()
    watch_to_the_result(page, "Upload of ordered groups")
    shot(page, "groups-upload-result")
    expect(count(page, "Queries with new groups")).to_have_text("2")
    expect(count(page, "Clips placed in groups")).to_have_text("6")

    # The query page: q2's groups in order, each clip with its player.
    page.goto(f"/collections/{collection.pk}/?show=queries")
    page.get_by_role("link", name="q2", exact=True).click()
    section = page.get_by_role("region", name="Ordered groups: experts")
    expect(section).to_contain_text("Imported from a file of ordered groups")
    clips = section.get_by_role("row").all_inner_texts()[1:]
    assert [row.split("\t")[:2] for row in clips] == [["1", "d4"], ["2", "d1"], ["2", "d5"]]
    play_through(page, "experts, group 1, clip d4")
    play_through(page, "experts, group 2, clip d5")
    shot(page, "groups-query-page")

    # ADR on the leaderboard, once the worker has recomputed the results.
    wait_for_leaderboard(MEASURE)
    page.goto(f"/collections/{collection.pk}/")
    page.get_by_role("link", name="Results").click()
    page.get_by_role("link", name=f"Leaderboard of {MEASURE}").click()
    expect(page.get_by_role("heading", name=f"Leaderboard: {MEASURE}")).to_be_visible()
    systems = page.locator("#leaderboard tbody tr td:nth-child(2)").all_inner_texts()
    assert systems == ["A", "B", "C"]  # by ADR: 1, 17/36, 1/9
    for rank, (system, value) in enumerate(ADR_BY_HAND.items(), start=1):
        row = page.get_by_role("row", name=re.compile(rf"^{rank} {system} {value:.4f} \["))
        expect(row).to_be_visible()
    shot(page, "groups-leaderboard")
