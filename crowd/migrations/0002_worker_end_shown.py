# Issue 31: the end page each worker was shown, which the approvals follow. Workers who
# arrived before are "unrecorded" (their status stands in for it); new workers start
# with "" (none yet).

from django.db import migrations, models

FIELD = dict(
    max_length=10,
    blank=True,
    choices=[
        ("unrecorded", "not recorded"),
        ("", "none"),
        ("no_consent", "the no-consent code"),
        ("screen_out", "the screen-out page"),
        ("completion", "the completion code"),
    ],
    help_text="The strongest end page this worker was shown: the completion code (or "
    "Mechanical Turk's submission), the screen-out page, or the no-consent code; what the "
    "approvals recommend follows it (issue 31). Empty: none yet. Not recorded: the worker "
    "arrived before Earshot recorded it, and their status stands in for it.",
)


class Migration(migrations.Migration):
    dependencies = [("crowd", "0001_moved_from_judging")]

    operations = [
        # The rows already there get "unrecorded" ...
        migrations.AddField(
            model_name="worker",
            name="end_shown",
            field=models.CharField(default="unrecorded", **FIELD),
            preserve_default=False,
        ),
        # ... and new rows "" (a default of the model only: no row changes).
        migrations.AlterField(
            model_name="worker", name="end_shown", field=models.CharField(default="", **FIELD)
        ),
    ]
