# The move by area (issue 30): state only, generated from the models.

import catalog.models.collection
import common.validation
import django.core.validators
import django.db.models.deletion
from django.conf import settings
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.CreateModel(
                    name='Query',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ],
                    options={
                        'verbose_name_plural': 'queries',
                        'db_table': 'judging_query',
                        'ordering': ['collection', 'clip__external_id'],
                    },
                ),
                migrations.CreateModel(
                    name='RelevanceJudgment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('broad', models.PositiveSmallIntegerField(blank=True, choices=[(0, 'Not similar'), (1, 'Somewhat similar'), (2, 'Very similar')], null=True)),
                        ('fine', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'db_table': 'judging_relevancejudgment',
                        'ordering': ['query', 'clip', 'created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='RunEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('rank', models.PositiveIntegerField()),
                        ('score', models.FloatField(blank=True, null=True)),
                    ],
                    options={
                        'verbose_name_plural': 'run entries',
                        'db_table': 'judging_runentry',
                        'ordering': ['system', 'query', 'rank'],
                    },
                ),
                migrations.CreateModel(
                    name='System',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('team', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                    ],
                    options={
                        'db_table': 'judging_system',
                        'ordering': ['collection', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='TrashItem',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('example', 'example'), ('trap', 'trap question'), ('preference_campaign', 'preference campaign'), ('relevance_campaign', 'relevance campaign'), ('system', 'system'), ('source', 'judgment source'), ('clip', 'clip'), ('collection', 'collection')], max_length=30)),
                        ('label', models.CharField(help_text='What was deleted, in words.', max_length=300)),
                        ('counts', models.JSONField(default=dict, help_text='Rows of each kind that went with it.')),
                        ('rows', models.JSONField(default=list, help_text='Every row, serialized, parents first.')),
                        ('files', models.JSONField(default=list, help_text='Stored files only these rows named.')),
                        ('deleted_at', models.DateTimeField()),
                        ('expires_at', models.DateTimeField()),
                    ],
                    options={
                        'db_table': 'judging_trashitem',
                        'ordering': ['-deleted_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Collection',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('description', models.TextField(blank=True, validators=[common.validation.TextValidator('text', None)])),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('archived_at', models.DateTimeField(blank=True, help_text='Archived collections are left out of the list.', null=True)),
                        ('loudness_target', models.FloatField(blank=True, help_text='Integrated loudness (LUFS) listeners hear every clip at, e.g. −23 (EBU R128), with true peaks at most −1 dBTP. Empty: clips play as uploaded.', null=True, validators=[django.core.validators.MinValueValidator(-40.0), django.core.validators.MaxValueValidator(-10.0)])),
                        ('excerpt_start', models.FloatField(blank=True, help_text='Listeners hear an excerpt from this many seconds in (MIREX AMS: 30).', null=True, validators=[django.core.validators.MinValueValidator(0.0)])),
                        ('excerpt_seconds', models.FloatField(blank=True, help_text='…lasting this many seconds (MIREX AMS: 30). Empty: the whole clip.', null=True, validators=[django.core.validators.MinValueValidator(1.0)])),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='collections', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judging_collection',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='Clip',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('external_id', models.CharField(max_length=200, validators=[common.validation.TextValidator('identifier', 200)])),
                        ('title', models.CharField(blank=True, max_length=300, validators=[common.validation.TextValidator('name', 300)])),
                        ('artist', models.CharField(blank=True, max_length=300, validators=[common.validation.TextValidator('name', 300)])),
                        ('genre', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('duration', models.FloatField(blank=True, help_text='seconds', null=True)),
                        ('audio', models.FileField(blank=True, upload_to=catalog.models.collection.clip_upload_to)),
                        ('loudness', models.FloatField(blank=True, help_text='Integrated loudness of the upload, LUFS (BS.1770-4).', null=True)),
                        ('true_peak', models.FloatField(blank=True, help_text='True peak of the upload, dBTP.', null=True)),
                        ('listening_audio', models.FileField(blank=True, help_text="The copy listeners hear (the collection's loudness and excerpt); empty: they hear the upload.", upload_to=catalog.models.collection.listening_copy_upload_to)),
                        ('heard_loudness', models.FloatField(blank=True, help_text='Integrated loudness of the copy listeners hear, LUFS.', null=True)),
                        ('heard_true_peak', models.FloatField(blank=True, help_text='True peak of the copy listeners hear, dBTP.', null=True)),
                        ('audio_token', models.CharField(default=catalog.models.collection._audio_token, editable=False, help_text="Unguessable part of the clip's audio URL.", max_length=64, unique=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='clips', to='catalog.collection')),
                    ],
                    options={
                        'db_table': 'judging_clip',
                        'ordering': ['collection', 'external_id'],
                    },
                ),
                migrations.CreateModel(
                    name='CollectionShare',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('access', models.CharField(choices=[('read', 'read-only'), ('full', 'full')], max_length=4)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='shares', to='catalog.collection')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='collection_shares', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'judging_collectionshare',
                        'ordering': ['collection', 'user__username'],
                    },
                ),
                migrations.CreateModel(
                    name='JudgmentSource',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('kind', models.CharField(choices=[('import', 'imported file'), ('campaign', 'relevance campaign'), ('api', 'REST API'), ('answers', 'judgments given with imported preference answers'), ('demo', 'demo')], max_length=10)),
                        ('status', models.CharField(choices=[('official', 'official: counts in results'), ('pilot', 'pilot: left out of results')], default='official', max_length=10)),
                        ('origin', models.CharField(blank=True, help_text="What last filled it: a file's name, an API user.", max_length=500)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgment_sources', to='catalog.collection')),
                    ],
                    options={
                        'db_table': 'judging_judgmentsource',
                        'ordering': ['collection', 'name'],
                    },
                ),
            ],
        ),
    ]
