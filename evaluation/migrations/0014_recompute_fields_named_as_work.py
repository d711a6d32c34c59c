"""Recompute rows take the field names and meanings of every piece of background work
(work.models.Work, issue 30 item 3), with their data:

- ``runs`` (computations started) becomes ``computations``, then ``attempts`` (claims
  by a worker) becomes ``runs``, ``status`` becomes ``state`` and ``claimed_at``
  becomes ``started_at``: renames, nothing copied;
- the state ``pending`` is called ``queued``, as a job's is;
- the progress fraction ``progress`` becomes ``done`` of ``total`` (round(progress ×
  10,000) of 10,000, work.models.work.PARTS), as a job's progress is.

Backwards, every step is undone: ``queued`` is ``pending`` again and ``progress`` is
``done / total``."""

from django.db import migrations, models
from django.db.models import F, Q

PARTS = 10_000  # work.models.work.PARTS when this migration was written


def forward(apps, schema_editor):
    Recompute = apps.get_model("evaluation", "Recompute")
    Recompute.objects.filter(state="pending").update(state="queued")
    for pk, progress in Recompute.objects.values_list("pk", "progress"):
        done = round(min(1.0, max(0.0, progress)) * PARTS)
        Recompute.objects.filter(pk=pk).update(done=done, total=PARTS)


def state_choices(*more: str) -> migrations.AlterField:
    """The ``state`` field with work's states, a recompute's ``idle`` and ``more``."""
    states = ("queued", "running", "done", "failed", "idle", *more)
    return migrations.AlterField(
        model_name="recompute",
        name="state",
        field=models.CharField(choices=[(s, s) for s in states], default="idle", max_length=10),
    )


def backward(apps, schema_editor):
    Recompute = apps.get_model("evaluation", "Recompute")
    Recompute.objects.filter(state="queued").update(state="pending")
    for pk, done, total in Recompute.objects.values_list("pk", "done", "total"):
        progress = min(1.0, done / total) if total else 0.0
        Recompute.objects.filter(pk=pk).update(progress=progress)


class Migration(migrations.Migration):
    dependencies = [
        ("evaluation", "0013_foreign_keys_to_moved_models"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="recompute", name="recompute_progress_0_1"),
        migrations.RenameField(model_name="recompute", old_name="runs", new_name="computations"),
        migrations.RenameField(model_name="recompute", old_name="attempts", new_name="runs"),
        migrations.RenameField(model_name="recompute", old_name="status", new_name="state"),
        migrations.RenameField(
            model_name="recompute", old_name="claimed_at", new_name="started_at"
        ),
        migrations.AddField(
            model_name="recompute", name="done", field=models.PositiveBigIntegerField(default=0)
        ),
        migrations.AddField(
            model_name="recompute",
            name="total",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        state_choices("pending"),  # ``pending`` until the data below is moved
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="recompute", name="progress"),
        state_choices(),
        migrations.AlterField(
            model_name="recompute",
            name="runs",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="Claims by a worker (work.runs.MAX_RUNS)."
            ),
        ),
        migrations.AlterField(
            model_name="recompute",
            name="computations",
            field=models.PositiveIntegerField(default=0, help_text="computations started"),
        ),
        migrations.AlterField(
            model_name="recompute",
            name="task_id",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The Celery task that claimed it: that task redelivered means its worker died.",
                max_length=255,
            ),
        ),
        migrations.AlterField(
            model_name="recompute",
            name="started_at",
            field=models.DateTimeField(
                blank=True, help_text="When it was last claimed.", null=True
            ),
        ),
        migrations.AddConstraint(
            model_name="recompute",
            constraint=models.CheckConstraint(
                condition=Q(total__isnull=True) | Q(done__lte=F("total")),
                name="recompute_done_le_total",
            ),
        ),
    ]
