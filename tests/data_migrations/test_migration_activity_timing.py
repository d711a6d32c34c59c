"""Migration judging 0032 bounds the judging page's figures saved before it (issue 29, item 5).

A row saved before holds what the page reported, believed: it is cut to what the server
observed by its last save — the time from the clip's first audio for the assignment to
the row's ``updated_at`` — and flagged when the page reported more; rows within it are
left as they were.
"""

from datetime import timedelta

from django.utils import timezone

from tests.helpers.migrating import migrate, migration_test

BEFORE = [("judging", "0031_job_task_id")]
AFTER = [("judging", "0032_activity_timing_impossible")]


@migration_test
def test_figures_saved_before_are_cut_to_what_the_server_observed_and_flagged():
    apps = migrate(BEFORE)
    model = lambda name: apps.get_model("judging", name)  # noqa: E731
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    collection = model("Collection").objects.create(owner=owner, name="C")
    clips = [
        model("Clip").objects.create(collection=collection, external_id=name)
        for name in ("q", "bot", "honest", "silent")
    ]
    query = model("Query").objects.create(collection=collection, clip=clips[0])
    campaign = model("RelevanceCampaign").objects.create(collection=collection, name="R")
    work = model("Assignment").objects.create(
        campaign=campaign, query=query, slot=1, assessor=owner
    )
    saved_at = timezone.now() - timedelta(days=1)
    activity = model("JudgmentActivity").objects
    for clip, listened, plays in ((clips[1], 86_400, 100_000), (clips[2], 7.5, 2),
                                  (clips[3], 30.0, 1)):  # fmt: skip
        entry = model("PoolEntry").objects.create(campaign=campaign, query=query, clip=clip)
        activity.create(assignment=work, pool_entry=entry, listened_seconds=listened, plays=plays)
    activity.update(updated_at=saved_at)  # auto_now: set after the rows were made
    for clip in clips[1:3]:  # the "silent" clip's audio never reached the assessor
        model("AudioServed").objects.create(
            assignment=work, clip=clip, size=1000, ranges=[[0, 999]], bytes_sent=1000,
            window_bytes=1000, window_bytes_sent=1000, requests=1,
            first_sent_at=saved_at - timedelta(seconds=16), last_sent_at=saved_at,
        )  # fmt: skip

    apps = migrate(AFTER)
    rows = {
        a.pool_entry.clip.external_id: (a.listened_seconds, a.plays, a.timing_impossible)
        for a in apps.get_model("judging", "JudgmentActivity").objects.select_related(
            "pool_entry__clip"
        )
    }
    # 16 s observed: at most 16 + 1 = 17 s and 1 + 2 × 16 = 33 plays; none observed: 1 s, 1.
    assert rows == {
        "bot": (17.0, 33, True),
        "honest": (7.5, 2, False),
        "silent": (1.0, 1, True),
    }
