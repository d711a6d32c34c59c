"""Rows stored before issue 21's one state machine are carried forward by migration
evaluation 0009: every recompute keeps its state, claims, runs, dirty flag, queue,
message and error, and gains an empty error file and line (the fields of
:class:`work.models.Work` it lacked); jobs are untouched and keep theirs."""

from django.utils import timezone

from tests.helpers.migrating import migrate, migration_test

BEFORE = [
    ("evaluation", "0008_recompute_runs_and_queue"),
    ("judging", "0024_worker_told_of_reinstatement"),
]
AFTER = [
    ("evaluation", "0009_recompute_is_work"),
    ("judging", "0024_worker_told_of_reinstatement"),
]


@migration_test
def test_recomputes_and_jobs_stored_before_keep_their_state_and_gain_an_error_place():
    apps = migrate(BEFORE)
    Recompute = apps.get_model("evaluation", "Recompute")
    now = timezone.now()
    stored = [
        ("idle", 0, False, "interactive", "", ""),
        ("pending", 1, True, "heavy", "waiting for a worker", ""),
        ("running", 1, False, "interactive", "starting", ""),
        ("done", 0, False, "interactive", "", ""),
        ("failed", 2, False, "heavy", "failed", "The worker computing these results stopped"),
    ]
    for target, (status, attempts, dirty, queue, message, error) in enumerate(stored, 1):
        Recompute.objects.create(kind="collection", target_id=target, status=status, runs=3,
                                 attempts=attempts, dirty=dirty, queue=queue, message=message,
                                 error=error, claimed_at=now)  # fmt: skip
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    apps.get_model("judging", "Job").objects.create(
        kind="upload_runs", owner=owner, runs=1, state="failed", queue="heavy",
        error="bad line", error_file="r.txt", error_line=7,
    )  # fmt: skip

    apps = migrate(AFTER)
    rows = apps.get_model("evaluation", "Recompute").objects.order_by("target_id")
    assert [(r.status, r.attempts, r.dirty, r.queue, r.message, r.error) for r in rows] == stored
    assert {(r.runs, r.claimed_at, r.error_file, r.error_line) for r in rows} == {
        (3, now, "", None)
    }
    job = apps.get_model("judging", "Job").objects.get()
    assert (job.state, job.runs, job.queue, job.error, job.error_file, job.error_line) == (
        "failed", 1, "heavy", "bad line", "r.txt", 7,
    )  # fmt: skip
