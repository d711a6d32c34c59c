"""Listening evidence by coverage (issue 23): the bytes of each clip's listening window sent."""

from django.db import migrations, models


def whole_file_as_window(apps, schema_editor):
    """Rows from before: their window is the whole file (what the old rule read)."""
    AudioServed = apps.get_model("judging", "AudioServed")
    AudioServed.objects.update(
        window_bytes=models.F("size"), window_bytes_sent=models.F("bytes_sent")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0017_people_belong_to_organisers"),
    ]

    operations = [
        migrations.AddField(
            model_name="audioserved",
            name="window_bytes",
            field=models.PositiveBigIntegerField(
                default=0,
                help_text="Bytes of the clip's listening window: its first EARSHOT_LISTEN_WINDOW_SECONDS (the whole file when shorter or of unknown length).",
            ),
        ),
        migrations.AddField(
            model_name="audioserved",
            name="window_bytes_sent",
            field=models.PositiveBigIntegerField(
                default=0, help_text="Distinct bytes of the listening window sent."
            ),
        ),
        migrations.RunPython(whole_file_as_window, migrations.RunPython.noop),
    ]
