# The move by area (issue 30): state only, generated from the models.

import crowd.models
import django.db.models.deletion
from django.conf import settings
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0002_moved_from_judging'),
        ('crowd', '0001_moved_from_judging'),
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
        ('relevance', '0001_moved_from_judging'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.CreateModel(
                    name='AssessorScreen',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('result', models.CharField(blank=True, choices=[('', 'not decided'), ('passed', 'passed'), ('failed', 'failed')], max_length=6)),
                        ('right', models.PositiveSmallIntegerField(blank=True, help_text='Trials answered right in the last decided try.', null=True)),
                        ('tries', models.PositiveSmallIntegerField(default=0, help_text='Tries decided.')),
                        ('tries_allowed', models.PositiveSmallIntegerField(default=2)),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('assessor', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='headphone_screens', to=settings.AUTH_USER_MODEL)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='headphone_screens', to='relevance.relevancecampaign')),
                    ],
                    options={
                        'db_table': 'judging_assessorscreen',
                        'ordering': ['campaign', 'assessor'],
                    },
                ),
                migrations.CreateModel(
                    name='AudioServed',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('size', models.PositiveBigIntegerField(help_text="Bytes in the clip's file.")),
                        ('ranges', models.JSONField(default=list, help_text='Byte ranges sent, merged: [[first, last], …], inclusive.')),
                        ('bytes_sent', models.PositiveBigIntegerField(default=0, help_text="Distinct bytes of the file sent (the ranges' total length).")),
                        ('window_bytes', models.PositiveBigIntegerField(default=0, help_text="Bytes of the clip's listening window: its first EARSHOT_LISTEN_WINDOW_SECONDS (the whole file when shorter or of unknown length).")),
                        ('window_bytes_sent', models.PositiveBigIntegerField(default=0, help_text='Distinct bytes of the listening window sent.')),
                        ('requests', models.PositiveIntegerField(default=0)),
                        ('first_sent_at', models.DateTimeField()),
                        ('last_sent_at', models.DateTimeField()),
                        ('assignment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audio_served', to='relevance.assignment')),
                        ('clip', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='catalog.clip')),
                        ('task', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audio_served', to='crowd.preferencetask')),
                    ],
                    options={
                        'verbose_name_plural': 'audio served',
                        'db_table': 'judging_audioserved',
                        'ordering': ['first_sent_at', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='HeadphoneTrial',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveSmallIntegerField(help_text='1 to 6, the order shown.')),
                        ('key', models.CharField(default=crowd.models._token, editable=False, max_length=64, unique=True)),
                        ('target', models.PositiveSmallIntegerField(help_text='The quiet interval: the right answer.')),
                        ('antiphase', models.PositiveSmallIntegerField(help_text='The interval in antiphase.')),
                        ('seed', models.BigIntegerField(help_text="Seeds the tones' phases: every trial's bytes differ.")),
                        ('sent_at', models.DateTimeField(blank=True, help_text='When its audio was first sent: no answer before.', null=True)),
                        ('chosen', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('answered_at', models.DateTimeField(blank=True, null=True)),
                        ('screen', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='trials', to='listening.assessorscreen')),
                        ('worker', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='headphone_trials', to='crowd.worker')),
                    ],
                    options={
                        'db_table': 'judging_headphonetrial',
                        'ordering': ['worker', 'position'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='assessorscreen',
                    constraint=models.UniqueConstraint(fields=('campaign', 'assessor'), name='assessor_screen_once_per_campaign'),
                ),
                migrations.AddConstraint(
                    model_name='assessorscreen',
                    constraint=models.CheckConstraint(condition=models.Q(('tries__lte', models.F('tries_allowed'))), name='assessor_screen_tries_allowed'),
                ),
                migrations.AddConstraint(
                    model_name='audioserved',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('task__isnull', False), ('assignment__isnull', True)), models.Q(('task__isnull', True), ('assignment__isnull', False)), _connector='OR'), name='audio_served_for_one_piece_of_work'),
                ),
                migrations.AddConstraint(
                    model_name='audioserved',
                    constraint=models.UniqueConstraint(condition=models.Q(('task__isnull', False)), fields=('task', 'clip'), name='audio_served_once_per_task_clip'),
                ),
                migrations.AddConstraint(
                    model_name='audioserved',
                    constraint=models.UniqueConstraint(condition=models.Q(('assignment__isnull', False)), fields=('assignment', 'clip'), name='audio_served_once_per_assignment_clip'),
                ),
                migrations.AddConstraint(
                    model_name='headphonetrial',
                    constraint=models.UniqueConstraint(fields=('worker', 'position'), name='headphone_trial_once'),
                ),
                migrations.AddConstraint(
                    model_name='headphonetrial',
                    constraint=models.UniqueConstraint(condition=models.Q(('screen__isnull', False)), fields=('screen', 'position'), name='headphone_trial_once_per_screen'),
                ),
                migrations.AddConstraint(
                    model_name='headphonetrial',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('screen__isnull', True), ('worker__isnull', False)), models.Q(('screen__isnull', False), ('worker__isnull', True)), _connector='OR'), name='headphone_trial_one_owner'),
                ),
                migrations.AddConstraint(
                    model_name='headphonetrial',
                    constraint=models.CheckConstraint(condition=models.Q(('antiphase__gte', 1), ('antiphase__lte', 3), ('target__gte', 1), ('target__lte', 3), models.Q(('target', models.F('antiphase')), _negated=True)), name='headphone_trial_intervals'),
                ),
                migrations.AddConstraint(
                    model_name='headphonetrial',
                    constraint=models.CheckConstraint(condition=models.Q(('chosen__isnull', True), models.Q(('chosen__gte', 1), ('chosen__lte', 3)), _connector='OR'), name='headphone_trial_chosen_1_3'),
                ),
            ],
        ),
    ]
