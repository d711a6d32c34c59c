# The move by area (issue 30): state only, generated from the models.

import django.db.models.deletion
from django.conf import settings
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0001_moved_from_judging'),
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.CreateModel(
                    name='PendingHandoff',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('task', models.CharField(max_length=100)),
                        ('target_id', models.PositiveBigIntegerField()),
                        ('failed_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'db_table': 'judging_pendinghandoff',
                        'ordering': ['failed_at'],
                        'constraints': [models.UniqueConstraint(fields=('task', 'target_id'), name='pending_handoff_once')],
                    },
                ),
                migrations.CreateModel(
                    name='Job',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('message', models.CharField(blank=True, max_length=300)),
                        ('error', models.TextField(blank=True)),
                        ('error_file', models.CharField(blank=True, max_length=300)),
                        ('error_line', models.PositiveIntegerField(blank=True, null=True)),
                        ('queue', models.CharField(default='interactive', help_text='The Celery queue it waits in (work.queues).', max_length=20)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('kind', models.CharField(max_length=50)),
                        ('key', models.CharField(blank=True, max_length=200)),
                        ('params', models.JSONField(blank=True, default=dict)),
                        ('state', models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('done', 'done'), ('failed', 'failed'), ('cancelled', 'cancelled')], default='queued', max_length=10)),
                        ('done', models.PositiveBigIntegerField(default=0)),
                        ('total', models.PositiveBigIntegerField(blank=True, null=True)),
                        ('result', models.JSONField(blank=True, default=dict)),
                        ('cancel_requested', models.BooleanField(default=False)),
                        ('runs', models.PositiveSmallIntegerField(default=0, help_text='Times a worker claimed the job (work.runs.MAX_RUNS).')),
                        ('task_id', models.CharField(blank=True, default='', help_text='The Celery task that claimed it: that task redelivered means its worker died.', max_length=255)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('collection', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to='catalog.collection')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judging_job',
                        'ordering': ['-created_at', '-pk'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('state__in', ['queued', 'running']), models.Q(('key', ''), _negated=True)), fields=('kind', 'key'), name='job_one_active_per_key'), models.CheckConstraint(condition=models.Q(('total__isnull', True), ('done__lte', models.F('total')), _connector='OR'), name='job_done_le_total')],
                    },
                ),
            ],
        ),
    ]
