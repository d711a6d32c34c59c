"""Rows stored before issue 21 are carried forward by migrations evaluation 0008 and
judging 0020: a recompute running when they run has been claimed once (so a worker dying
under it again fails it for good instead of running it a third time), every other
recompute has no claim counted, and every recompute and job waits in the interactive
queue, where all work waited before."""

from django.utils import timezone

from tests.helpers.migrating import migrate, migration_test

BEFORE = [
    ("evaluation", "0007_leaderboard_parts_for_pages"),
    ("judging", "0022_crowd_fake_identities"),
]
AFTER = [("evaluation", "0008_recompute_runs_and_queue"), ("judging", "0023_job_queue")]


@migration_test
def test_recomputes_and_jobs_stored_before_get_their_claims_and_queue():
    apps = migrate(BEFORE)
    Recompute = apps.get_model("evaluation", "Recompute")
    now = timezone.now()
    for target, status in enumerate(["idle", "pending", "running", "done", "failed"], 1):
        Recompute.objects.create(kind="collection", target_id=target, status=status, runs=3,
                                 claimed_at=now)  # fmt: skip
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    apps.get_model("judging", "Job").objects.create(kind="upload_runs", owner=owner, runs=1,
                                                    state="running")  # fmt: skip

    apps = migrate(AFTER)
    rows = apps.get_model("evaluation", "Recompute").objects.order_by("target_id")
    assert [(r.status, r.attempts, r.runs, r.queue) for r in rows] == [
        ("idle", 0, 3, "interactive"),
        ("pending", 0, 3, "interactive"),
        ("running", 1, 3, "interactive"),
        ("done", 0, 3, "interactive"),
        ("failed", 0, 3, "interactive"),
    ]
    job = apps.get_model("judging", "Job").objects.get()
    assert (job.state, job.runs, job.queue) == ("running", 1, "interactive")
