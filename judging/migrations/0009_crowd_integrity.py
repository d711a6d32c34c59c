# Crowd integrity (issue 12): listening evidence (AudioServed), per-campaign listening and
# speed rules, quiz and work pools of trap questions, workers bound to a browser, and
# why a worker was stopped. Existing rows are carried forward by carry_forward below.

import django.db.models.deletion
from django.db import migrations, models


def carry_forward(apps, schema_editor):
    """What the new fields mean for rows made before them.

    - A worker stopped before this migration was stopped for low trust (the only rule).
    - Workers made by the answers importer (seed 0, trusted, generic) are the
      organiser's own import: trusted by the organiser.
    - Trap questions already shown in a quiz have had their answers revealed in
      feedback: they form the quiz pool. A campaign with a quiz gets its pool topped up
      to ``quiz_length`` from its other trap questions, oldest first.
    - Workers keep an empty browser key: the next arrival with their id binds a browser.
    """
    Worker = apps.get_model("judging", "Worker")
    TrapQuestion = apps.get_model("judging", "TrapQuestion")
    PreferenceCampaign = apps.get_model("judging", "PreferenceCampaign")
    PreferenceTask = apps.get_model("judging", "PreferenceTask")
    Worker.objects.filter(status="stopped").update(stop_reason="low_trust")
    Worker.objects.filter(seed=0, platform="generic", trusted=True).update(
        trusted_by_organiser=True
    )
    quizzed = PreferenceTask.objects.filter(is_quiz=True).values("example_id")
    TrapQuestion.objects.filter(example_id__in=quizzed).update(pool="quiz")
    for campaign in PreferenceCampaign.objects.filter(quiz_length__gt=0):
        traps = TrapQuestion.objects.filter(example__campaign=campaign, contested=False)
        missing = campaign.quiz_length - traps.filter(pool="quiz").count()
        if missing > 0:
            more = traps.filter(pool="work").order_by("pk").values_list("pk", flat=True)[:missing]
            TrapQuestion.objects.filter(pk__in=list(more)).update(pool="quiz")


def carry_back(apps, schema_editor):
    """Nothing to undo: the fields that held the meaning are dropped."""


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0008_relevance_campaign_lowcost_mode"),
    ]

    operations = [
        migrations.CreateModel(
            name="AudioServed",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("size", models.PositiveBigIntegerField(help_text="Bytes in the clip's file.")),
                (
                    "ranges",
                    models.JSONField(
                        default=list,
                        help_text="Byte ranges sent, merged: [[first, last], …], inclusive.",
                    ),
                ),
                (
                    "bytes_sent",
                    models.PositiveBigIntegerField(
                        default=0,
                        help_text="Distinct bytes of the file sent (the ranges' total length).",
                    ),
                ),
                ("requests", models.PositiveIntegerField(default=0)),
                ("first_sent_at", models.DateTimeField()),
                ("last_sent_at", models.DateTimeField()),
            ],
            options={
                "verbose_name_plural": "audio served",
                "ordering": ["first_sent_at", "pk"],
            },
        ),
        migrations.AddField(
            model_name="answer",
            name="clips_heard",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Clips (query included) whose audio the server sent for the task.",
            ),
        ),
        migrations.AddField(
            model_name="preferencecampaign",
            name="fast_answer_seconds",
            field=models.PositiveSmallIntegerField(
                default=10,
                help_text="An answer given sooner than this after its task was shown is flagged as fast; 0 flags nothing.",
            ),
        ),
        migrations.AddField(
            model_name="preferencecampaign",
            name="listening_check",
            field=models.BooleanField(
                default=True,
                help_text="Refuse an answer until the server has sent the audio of the query and of at least min_clips_per_list clips of each list, and min_seconds_on_task have passed since the task was shown.",
            ),
        ),
        migrations.AddField(
            model_name="preferencecampaign",
            name="min_clips_per_list",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="Listening check: clips of each list whose audio must be fetched.",
            ),
        ),
        migrations.AddField(
            model_name="preferencecampaign",
            name="min_seconds_on_task",
            field=models.PositiveSmallIntegerField(
                default=5,
                help_text="Listening check: seconds from showing a task to accepting its answer.",
            ),
        ),
        migrations.AddField(
            model_name="preferencecampaign",
            name="stop_after_fast_answers",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Stop a worker once this many of their answers are fast; 0 never stops.",
            ),
        ),
        migrations.AddField(
            model_name="trapquestion",
            name="pool",
            field=models.CharField(
                choices=[
                    ("quiz", "quiz (shown first, with feedback)"),
                    ("work", "work (mixed in, no feedback)"),
                ],
                default="work",
                help_text="Quiz questions are revealed in feedback; work questions never are.",
                max_length=4,
            ),
        ),
        migrations.AddField(
            model_name="worker",
            name="browser_key",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text="Secret of the browser this worker is bound to; empty: the next arrival binds.",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="worker",
            name="listening_refusals",
            field=models.PositiveIntegerField(
                default=0, help_text="Answers refused because the listening check was not met."
            ),
        ),
        migrations.AddField(
            model_name="worker",
            name="stop_note",
            field=models.TextField(blank=True, help_text="The organiser's reason for excluding."),
        ),
        migrations.AddField(
            model_name="worker",
            name="stop_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("low_trust", "low trust"),
                    ("fast_answers", "too many fast answers"),
                    ("organiser", "excluded by the organiser"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="worker",
            name="stopped_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="worker",
            name="trusted_by_organiser",
            field=models.BooleanField(
                default=False,
                help_text="Reinstated (or imported) by the organiser: their answers count whatever the automatic rules say.",
            ),
        ),
        migrations.AlterField(
            model_name="preferencecampaign",
            name="is_open",
            field=models.BooleanField(
                default=True,
                help_text="Closed: no new arrivals and no new tasks; a task on screen can still be answered within its lease.",
            ),
        ),
        migrations.AlterField(
            model_name="worker",
            name="status",
            field=models.CharField(
                choices=[("active", "active"), ("stopped", "stopped"), ("finished", "finished")],
                default="active",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="trapquestion",
            constraint=models.CheckConstraint(
                condition=models.Q(("pool__in", ["quiz", "work"])), name="trap_pool_known"
            ),
        ),
        migrations.AddConstraint(
            model_name="worker",
            constraint=models.CheckConstraint(
                condition=models.Q(("status", "stopped"), ("stop_reason", ""), _connector="OR"),
                name="worker_stop_reason_only_when_stopped",
            ),
        ),
        migrations.AddField(
            model_name="audioserved",
            name="assignment",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="audio_served",
                to="judging.assignment",
            ),
        ),
        migrations.AddField(
            model_name="audioserved",
            name="clip",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="judging.clip"
            ),
        ),
        migrations.AddField(
            model_name="audioserved",
            name="task",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="audio_served",
                to="judging.preferencetask",
            ),
        ),
        migrations.AddConstraint(
            model_name="audioserved",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("task__isnull", False), ("assignment__isnull", True)),
                    models.Q(("task__isnull", True), ("assignment__isnull", False)),
                    _connector="OR",
                ),
                name="audio_served_for_one_piece_of_work",
            ),
        ),
        migrations.AddConstraint(
            model_name="audioserved",
            constraint=models.UniqueConstraint(
                condition=models.Q(("task__isnull", False)),
                fields=("task", "clip"),
                name="audio_served_once_per_task_clip",
            ),
        ),
        migrations.AddConstraint(
            model_name="audioserved",
            constraint=models.UniqueConstraint(
                condition=models.Q(("assignment__isnull", False)),
                fields=("assignment", "clip"),
                name="audio_served_once_per_assignment_clip",
            ),
        ),
        migrations.RunPython(carry_forward, carry_back),
    ]
