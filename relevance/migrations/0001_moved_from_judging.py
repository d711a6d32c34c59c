# The move by area (issue 30): state only, generated from the models.

import common.validation
import django.core.validators
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
                    name='RelevanceCampaign',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('cutoff', models.PositiveSmallIntegerField(default=5, help_text="k: each system's top k clips per query enter the pool.")),
                        ('exclude_same_artist', models.BooleanField(default=True, help_text="Leave out clips by the query's artist, as MIREX does (thesis §7.3).")),
                        ('assessors_per_query', models.PositiveSmallIntegerField(default=1, help_text='How many assessors judge each query.')),
                        ('queries_per_assessor', models.PositiveIntegerField(blank=True, help_text='Cap of queries per assessor; empty for no cap.', null=True)),
                        ('must_listen_seconds', models.PositiveSmallIntegerField(default=5, help_text='A candidate can be scored once this much of it has played.')),
                        ('take_back_minutes', models.PositiveIntegerField(default=60, help_text='An assignment with nothing judged is taken back after this long.')),
                        ('mode', models.CharField(choices=[('pooled', 'Pooled: assessors judge whole queries, every candidate'), ('lowcost', 'Low-cost: one pair at a time, the most informative first (thesis ch. 8)')], default='pooled', help_text='Low-cost mode judges only what the ranking needs (one assessor per pair).', max_length=10)),
                        ('lowcost_measure', models.CharField(default='CG(scale=fine)@5', help_text='Low-cost mode: the measure to estimate — CG, DCG, nDCG or RBP at a cut-off up to k, on the fine or broad scale, e.g. CG(scale=fine)@5 or nDCG(scale=broad)@5.', max_length=100, verbose_name='measure')),
                        ('lowcost_target', models.CharField(choices=[('relative', 'the ranking of the systems (mean confidence in the ranking)'), ('absolute', "the systems' scores (half-width of their 95% intervals)")], default='relative', help_text='Low-cost mode: what must be known when judging stops.', max_length=10, verbose_name='stop when sure of')),
                        ('lowcost_stop_at', models.FloatField(default=0.95, help_text='Low-cost mode: for the ranking, the mean confidence to reach (0.5 to 1, e.g. 0.95); for the scores, the half-width of the intervals to reach (e.g. 0.05).', verbose_name='stop at')),
                        ('headphone_check', models.BooleanField(default=False, help_text='Before their first candidate, each assessor sets the volume and takes the antiphase headphone screen (Woods et al. 2017: listening.headphones) once; below the pass mark twice, they judge no more until the organiser lets them try again.')),
                        ('headphone_pass_mark', models.PositiveSmallIntegerField(default=5, help_text='Headphone screen: right answers out of 6 trials needed to pass.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(6)])),
                        ('is_open', models.BooleanField(default=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('assessors', models.ManyToManyField(blank=True, db_table='judging_relevancecampaign_assessors', related_name='relevance_campaigns', to=settings.AUTH_USER_MODEL)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='relevance_campaigns', to='catalog.collection')),
                    ],
                    options={
                        'db_table': 'judging_relevancecampaign',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='PoolEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('weight', models.FloatField(blank=True, help_text='Low-cost mode: how much judging this pair next tells (thesis §8.3–8.4), as of the last stored estimate; empty before the first.', null=True)),
                        ('priority', models.PositiveIntegerField(blank=True, help_text='Low-cost mode: 1 is judged first; empty once known or before the first estimate.', null=True)),
                        ('clip', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pool_entries', to='catalog.clip')),
                        ('query', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pool_entries', to='catalog.query')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pool', to='relevance.relevancecampaign')),
                    ],
                    options={
                        'verbose_name_plural': 'pool entries',
                        'db_table': 'judging_poolentry',
                        'ordering': ['campaign', 'query', 'clip'],
                    },
                ),
                migrations.CreateModel(
                    name='Assignment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slot', models.PositiveSmallIntegerField()),
                        ('assigned_at', models.DateTimeField(blank=True, null=True)),
                        ('touched_at', models.DateTimeField(blank=True, help_text='Last save by the assessor; empty means untouched.', null=True)),
                        ('completed_at', models.DateTimeField(blank=True, null=True)),
                        ('assessor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='relevance_assignments', to=settings.AUTH_USER_MODEL)),
                        ('query', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='catalog.query')),
                        ('pool_entry', models.ForeignKey(blank=True, help_text='Low-cost mode: the one candidate this assignment is for; empty: every candidate of the query.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='relevance.poolentry')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='relevance.relevancecampaign')),
                    ],
                    options={
                        'db_table': 'judging_assignment',
                        'ordering': ['campaign', 'query', 'slot'],
                    },
                ),
                migrations.CreateModel(
                    name='JudgmentActivity',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('listened_seconds', models.FloatField(default=0)),
                        ('judging_seconds', models.FloatField(default=0)),
                        ('plays', models.PositiveIntegerField(default=0)),
                        ('timing_impossible', models.BooleanField(default=False, help_text='The page reported more listening time or plays than the server observed since the clip first reached the assessor; the figures kept are bounded by it.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('assignment', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='activity', to='relevance.assignment')),
                        ('judgment', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='activity', to='catalog.relevancejudgment')),
                        ('pool_entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='activity', to='relevance.poolentry')),
                    ],
                    options={
                        'verbose_name_plural': 'judgment activity',
                        'db_table': 'judging_judgmentactivity',
                        'ordering': ['assignment', 'pool_entry'],
                        'constraints': [models.UniqueConstraint(fields=('assignment', 'pool_entry'), name='activity_once_per_candidate')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='relevancecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('cutoff__gte', 1)), name='campaign_cutoff_from_one'),
                ),
                migrations.AddConstraint(
                    model_name='relevancecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('headphone_pass_mark__gte', 1), ('headphone_pass_mark__lte', 6)), name='relevance_headphone_pass_mark_1_6'),
                ),
                migrations.AddConstraint(
                    model_name='relevancecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('assessors_per_query__gte', 1)), name='campaign_redundancy_from_one'),
                ),
                migrations.AddConstraint(
                    model_name='relevancecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('mode__in', ['pooled', 'lowcost'])), name='campaign_mode_known'),
                ),
                migrations.AddConstraint(
                    model_name='relevancecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('mode', 'pooled'), ('assessors_per_query', 1), _connector='OR'), name='campaign_lowcost_one_assessor_per_pair'),
                ),
                migrations.AddConstraint(
                    model_name='poolentry',
                    constraint=models.UniqueConstraint(fields=('campaign', 'query', 'clip'), name='pool_clip_once_per_query'),
                ),
                migrations.AddConstraint(
                    model_name='assignment',
                    constraint=models.UniqueConstraint(condition=models.Q(('pool_entry__isnull', True)), fields=('campaign', 'query', 'slot'), name='assignment_slot_unique'),
                ),
                migrations.AddConstraint(
                    model_name='assignment',
                    constraint=models.UniqueConstraint(condition=models.Q(('assessor__isnull', False), ('pool_entry__isnull', True)), fields=('campaign', 'query', 'assessor'), name='assignment_query_once_per_assessor'),
                ),
                migrations.AddConstraint(
                    model_name='assignment',
                    constraint=models.UniqueConstraint(condition=models.Q(('pool_entry__isnull', False)), fields=('campaign', 'pool_entry', 'slot'), name='assignment_pair_slot_unique'),
                ),
            ],
        ),
    ]
