"""Recomputes stored before issue 30 item 3 are carried forward by migration evaluation
0014, and back: every row keeps its state (``pending`` is called ``queued``), its claims
(``attempts`` → ``runs``), its computations started (``runs`` → ``computations``), its
claim time (``claimed_at`` → ``started_at``), its task, heartbeat, dirty flag, queue,
message and error; its progress fraction becomes ``done`` of 10,000 (``total``) and
back. Jobs (work 0002 changes help texts only) keep everything. On both databases: the
renames rebuild the table on SQLite."""

from datetime import timedelta

from django.utils import timezone

from tests.helpers.migrating import migrate, migration_test_on_both

BEFORE = [("evaluation", "0013_foreign_keys_to_moved_models"), ("work", "0001_moved_from_judging")]
AFTER = [
    ("evaluation", "0014_recompute_fields_named_as_work"),
    ("work", "0002_job_fields_named_as_work"),
]

# state, claims, computations, progress, dirty, queue, message, error: one row per state
STORED = [
    ("idle", 0, 0, 0.0, False, "interactive", "", ""),
    ("pending", 1, 2, 0.0, True, "heavy", "waiting for a worker", ""),
    ("running", 1, 3, 0.4567, False, "interactive", "fitting", ""),
    ("done", 0, 5, 1.0, False, "interactive", "", ""),
    ("failed", 2, 2, 0.25, False, "heavy", "failed", "The worker computing these results stopped"),
]
# progress → done of 10,000 (work.models.work.PARTS): round(0.4567 × 10,000) = 4,567, …
DONE_OF = {0.0: 0, 0.4567: 4_567, 1.0: 10_000, 0.25: 2_500}


@migration_test_on_both
def test_recomputes_take_the_names_of_background_work_and_give_them_back():
    apps = migrate(BEFORE)
    Recompute = apps.get_model("evaluation", "Recompute")
    now = timezone.now()
    beat = now - timedelta(seconds=30)
    for target, (status, attempts, runs, progress, dirty, queue, message, error) in enumerate(
        STORED, 1
    ):
        Recompute.objects.create(
            kind="collection", target_id=target, status=status, attempts=attempts, runs=runs,
            progress=progress, dirty=dirty, queue=queue, message=message, error=error,
            claimed_at=now, heartbeat_at=beat, claimed_by="celery@box", task_id=f"t{target}",
        )  # fmt: skip
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    Job = apps.get_model("work", "Job")
    for state in ("queued", "running", "done", "failed", "cancelled"):
        Job.objects.create(kind="upload_runs", owner=owner, state=state, runs=1, done=3, total=7,
                           task_id="j", started_at=now)  # fmt: skip
    jobs_before = list(Job.objects.order_by("pk").values())

    apps = migrate(AFTER)
    rows = apps.get_model("evaluation", "Recompute").objects.order_by("target_id")
    assert [
        (r.state, r.runs, r.computations, r.done, r.total, r.dirty, r.queue, r.message, r.error)
        for r in rows
    ] == [
        ("queued" if status == "pending" else status, attempts, runs, DONE_OF[progress], 10_000,
         dirty, queue, message, error)
        for status, attempts, runs, progress, dirty, queue, message, error in STORED
    ]  # fmt: skip
    assert {(r.started_at, r.heartbeat_at, r.claimed_by) for r in rows} == {
        (now, beat, "celery@box")
    }
    assert [r.task_id for r in rows] == ["t1", "t2", "t3", "t4", "t5"]
    assert list(apps.get_model("work", "Job").objects.order_by("pk").values()) == jobs_before

    apps = migrate(BEFORE)
    rows = apps.get_model("evaluation", "Recompute").objects.order_by("target_id")
    assert [
        (r.status, r.attempts, r.runs, r.progress, r.dirty, r.queue, r.message, r.error)
        for r in rows
    ] == STORED
    assert {(r.claimed_at, r.heartbeat_at, r.claimed_by) for r in rows} == {
        (now, beat, "celery@box")
    }
    assert list(apps.get_model("work", "Job").objects.order_by("pk").values()) == jobs_before
