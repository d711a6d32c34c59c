"""Recomputes count their claims (``attempts``, at most ``work.runs.MAX_RUNS``) and say
which queue their task goes to. A row running when this migration runs was claimed once:
it starts at one claim, so that a worker dying under it again fails it for good."""

from django.db import migrations, models


def count_the_claim_of_running_rows(apps, schema_editor):
    Recompute = apps.get_model("evaluation", "Recompute")
    Recompute.objects.filter(status="running").update(attempts=1)


class Migration(migrations.Migration):
    dependencies = [
        ("evaluation", "0007_leaderboard_parts_for_pages"),
    ]

    operations = [
        migrations.AddField(
            model_name="recompute",
            name="attempts",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Claims by a worker since the row was last requested anew (work.runs.MAX_RUNS).",
            ),
        ),
        migrations.AddField(
            model_name="recompute",
            name="queue",
            field=models.CharField(
                default="interactive",
                help_text="The Celery queue its task is sent to.",
                max_length=20,
            ),
        ),
        migrations.RunPython(count_the_claim_of_running_rows, migrations.RunPython.noop),
    ]
