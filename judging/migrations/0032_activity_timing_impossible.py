# Issue 29, item 5: the judging page's listening time and plays are kept bounded by the
# time the server observed, and flagged when the page reported more. Rows saved before are
# bounded the same way, with the time from the clip's first audio to the row's last save.

from django.db import migrations, models

SLACK_SECONDS = 1.0  # listening.services.audio_served.CLAIM_SLACK_SECONDS when this was written
PLAYS_PER_SECOND = 2  # listening.services.audio_served.PLAYS_PER_SECOND
BATCH = 2000


def bound_saved_timings(apps, schema_editor):
    JudgmentActivity = apps.get_model("judging", "JudgmentActivity")
    AudioServed = apps.get_model("judging", "AudioServed")
    last = 0
    while True:
        batch = list(
            JudgmentActivity.objects.filter(pk__gt=last)
            .order_by("pk")
            .select_related("pool_entry")[:BATCH]
        )
        if not batch:
            return
        last = batch[-1].pk
        first_audio = {
            (assignment_id, clip_id): sent_at
            for assignment_id, clip_id, sent_at in AudioServed.objects.filter(
                assignment_id__in={a.assignment_id for a in batch}, bytes_sent__gt=0
            ).values_list("assignment_id", "clip_id", "first_sent_at")
        }
        changed = []
        for activity in batch:
            sent_at = first_audio.get((activity.assignment_id, activity.pool_entry.clip_id))
            observed = (
                max(0.0, (activity.updated_at - sent_at).total_seconds()) if sent_at else 0.0
            )
            most_listened = observed + SLACK_SECONDS
            most_plays = 1 + int(observed * PLAYS_PER_SECOND)
            if activity.listened_seconds > most_listened or activity.plays > most_plays:
                activity.listened_seconds = min(activity.listened_seconds, most_listened)
                activity.plays = min(activity.plays, most_plays)
                activity.timing_impossible = True
                changed.append(activity)
        JudgmentActivity.objects.bulk_update(
            changed, ["listened_seconds", "plays", "timing_impossible"]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0031_job_task_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="judgmentactivity",
            name="timing_impossible",
            field=models.BooleanField(
                default=False,
                help_text="The page reported more listening time or plays than the server "
                "observed since the clip first reached the assessor; the figures kept are "
                "bounded by it.",
            ),
        ),
        migrations.RunPython(bound_saved_timings, migrations.RunPython.noop),
    ]
