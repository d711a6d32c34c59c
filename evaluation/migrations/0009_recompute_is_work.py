"""Recompute rows become pieces of background work (work.models.Work, issue 21 item 1):
they gain the error's file and line, blank for every row stored before; nothing else
changes in their table."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0008_recompute_runs_and_queue'),
    ]

    operations = [
        migrations.AddField(
            model_name='recompute',
            name='error_file',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='recompute',
            name='error_line',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='recompute',
            name='queue',
            field=models.CharField(default='interactive', help_text='The Celery queue it waits in (work.queues).', max_length=20),
        ),
    ]
