# The move by area (issue 30): state only, generated from the models.

import django.db.models.deletion
from django.conf import settings
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0002_moved_from_judging'),
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
        ('work', '0001_moved_from_judging'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.CreateModel(
                    name='Upload',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('clips', 'audio clips'), ('runs', 'runs'), ('judgments', 'judgments'), ('mirex', 'MIREX bundle'), ('answers', 'preference answers')], max_length=20)),
                        ('folder', models.CharField(help_text='under EARSHOT_UPLOAD_ROOT', max_length=64, unique=True)),
                        ('files', models.JSONField(default=list, help_text='[{role, name, size}] as uploaded')),
                        ('digest', models.CharField(help_text='SHA-256 of the files and options', max_length=64)),
                        ('options', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='uploads', to='catalog.collection')),
                        ('job', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='work.job')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='uploads', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judging_upload',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='AnswerColumnMapping',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('campaign_name', models.CharField(max_length=200)),
                        ('header', models.JSONField(default=list, help_text="the export's columns, in order")),
                        ('mapping', models.JSONField(default=dict, help_text='crowd.importers.crowdflower.ColumnMapping')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answer_column_mappings', to='catalog.collection')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answer_column_mappings', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judging_answercolumnmapping',
                        'ordering': ['-updated_at', '-pk'],
                        'constraints': [models.UniqueConstraint(fields=('owner', 'collection', 'campaign_name'), name='answer_column_mapping_once_per_campaign')],
                    },
                ),
            ],
        ),
    ]
