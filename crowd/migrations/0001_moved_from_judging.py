# The move by area (issue 30): state only, generated from the models.

import common.validation
import crowd.models
import django.core.validators
import django.db.models.deletion
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('catalog', '0001_moved_from_judging'),
        ('judging', '0034_agreement_and_quiz_questions_per_worker'),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.CreateModel(
                    name='PreferenceCampaign',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('token', models.CharField(default=crowd.models._token, editable=False, help_text='Unguessable part of the task link /t/<token>/.', max_length=64, unique=True)),
                        ('instructions', models.TextField(blank=True, default='Listen to the query clip, then to the clips of the two lists A and B. Which list would you rather get if you were looking for music similar to the query? If neither is better, say whether both are good or both are bad.', validators=[common.validation.TextValidator('text', None)])),
                        ('consent_text', models.TextField(blank=True, default='This study collects your opinion on music similarity for research. We store your platform id, your answers, optional comments and how long each answer took, and a coded fingerprint of your network address and browser (not the address itself), so that one person cannot take part under several ids. No other personal data is collected. You may stop at any time.', validators=[common.validation.TextValidator('text', None)])),
                        ('list_length', models.PositiveSmallIntegerField(default=5, help_text='k clips per list')),
                        ('answers_per_example', models.PositiveSmallIntegerField(default=1, help_text='How many workers answer each example (redundancy).')),
                        ('max_answers_per_worker', models.PositiveIntegerField(default=100, help_text='M: at most this many tasks per worker, trap questions included.')),
                        ('quiz_length', models.PositiveSmallIntegerField(default=0, help_text='Q: the first Q tasks are trap questions (quiz mode); 0 = no quiz.')),
                        ('trap_rate', models.FloatField(default=0.1, help_text='Work mode: probability that a task is a trap question.')),
                        ('trust_threshold', models.FloatField(default=0.7)),
                        ('min_trap_answers', models.PositiveSmallIntegerField(default=3, help_text='Trust is acted on only after this many trap answers.')),
                        ('completion_code', models.CharField(default=crowd.models._code, max_length=64, validators=[common.validation.TextValidator('identifier', 64), common.validation.check_platform_code])),
                        ('screen_out_code', models.CharField(default=crowd.models._code, max_length=64, validators=[common.validation.TextValidator('identifier', 64), common.validation.check_platform_code])),
                        ('no_consent_code', models.CharField(default=crowd.models._code, help_text="Shown to someone who does not consent (Prolific's convention).", max_length=64, validators=[common.validation.TextValidator('identifier', 64), common.validation.check_platform_code])),
                        ('minutes_estimate', models.PositiveSmallIntegerField(blank=True, help_text='How long the study takes, as the consent page says.', null=True)),
                        ('pay_text', models.CharField(blank=True, help_text="What it pays, in the platform's words (e.g. “£1.50”).", max_length=100, validators=[common.validation.TextValidator('name', 100)])),
                        ('is_open', models.BooleanField(default=True, help_text='Closed: no new arrivals and no new tasks; a task on screen can still be answered within its lease.')),
                        ('listening_check', models.BooleanField(default=True, help_text='Refuse an answer until the server has sent the audio of the query and of at least min_clips_per_list clips of each list, and min_seconds_on_task have passed since the task was shown.')),
                        ('min_clips_per_list', models.PositiveSmallIntegerField(default=1, help_text='Listening check: clips of each list whose audio must be fetched.')),
                        ('min_seconds_on_task', models.PositiveSmallIntegerField(default=5, help_text='Listening check: seconds from showing a task to accepting its answer.')),
                        ('fast_answer_seconds', models.PositiveSmallIntegerField(default=10, help_text='An answer given sooner than this after its task was shown is flagged as fast; 0 flags nothing.')),
                        ('stop_after_fast_answers', models.PositiveSmallIntegerField(default=0, help_text='Stop a worker once this many of their answers are fast; 0 never stops.')),
                        ('imported_from', models.CharField(blank=True, help_text='The file the answers were imported from, if any (crowd.importers.answers).', max_length=300)),
                        ('min_work_answers', models.PositiveSmallIntegerField(default=1, help_text='The completion code is earned only after this many answers outside the quiz: a worker who only took the quiz has done no work.')),
                        ('trust_check_every', models.PositiveSmallIntegerField(default=10, help_text='Low trust and fast answers stop a worker only at the end of the quiz, after every this many work answers, and at the end: never right after the answer that caused it, so being stopped does not tell which answer was a missed trap.')),
                        ('per_worker_codes', models.BooleanField(default=False, help_text='Give each worker their own completion code (Mechanical Turk and generic links; Prolific takes one code per study), listed in the approvals export.')),
                        ('bonus_per_answer', models.DecimalField(decimal_places=2, default=0, help_text="Recommended bonus per work answer beyond that minimum, in the study's currency (approvals export); 0 recommends none.", max_digits=6)),
                        ('headphone_check', models.BooleanField(default=False, help_text='After consent, a volume calibration and the antiphase headphone screen (Woods et al. 2017: listening.headphones); a worker below the pass mark is screened out.')),
                        ('headphone_pass_mark', models.PositiveSmallIntegerField(default=5, help_text='Headphone screen: right answers out of 6 trials needed to pass.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(6)])),
                        ('practice_length', models.PositiveSmallIntegerField(default=0, help_text='Practice tasks before the quiz, from the practice pool, each followed by its expected answer; they never count (not towards trust, pay or results). 0 = none.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='preference_campaigns', to='catalog.collection')),
                    ],
                    options={
                        'db_table': 'judging_preferencecampaign',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='Example',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('systems', "systems' lists"), ('generator', 'generator'), ('csv', 'CSV import'), ('quiz', 'quiz question for one worker')], max_length=20)),
                        ('signature', models.CharField(help_text="Query and both lists' clip ids; no example is repeated.", max_length=2000)),
                        ('scores', models.JSONField(blank=True, default=dict, help_text='λ of list a and list b per measure/scale when known: {name: [λa, λb]}.')),
                        ('slots_taken', models.PositiveIntegerField(default=0, help_text='Answers not excluded plus open tasks (redundancy claims).')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('query', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='examples', to='catalog.query')),
                        ('system_a', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='catalog.system')),
                        ('system_b', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='catalog.system')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='examples', to='crowd.preferencecampaign')),
                    ],
                    options={
                        'db_table': 'judging_example',
                        'ordering': ['campaign', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='PreferenceTask',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveIntegerField(help_text="1 for the worker's first task.")),
                        ('key', models.CharField(default=crowd.models._token, editable=False, max_length=64, unique=True)),
                        ('swapped', models.BooleanField(help_text='List b is shown as A (and list a as B).')),
                        ('is_quiz', models.BooleanField(default=False)),
                        ('is_practice', models.BooleanField(default=False, help_text='A practice task: its answer is a PracticeAnswer, never an Answer.')),
                        ('served_at', models.DateTimeField()),
                        ('alive_at', models.DateTimeField(help_text="When the task's page last said it was open (served, then its heartbeat): the lease on the example's slot ends TASK_HEARTBEAT_LEASE after it.", null=True)),
                        ('answered_at', models.DateTimeField(blank=True, null=True)),
                        ('released', models.BooleanField(default=False)),
                        ('example', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tasks', to='crowd.example')),
                    ],
                    options={
                        'db_table': 'judging_preferencetask',
                        'ordering': ['worker', 'position'],
                    },
                ),
                migrations.CreateModel(
                    name='PracticeAnswer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('choice', models.CharField(choices=[('a_better', 'A is better'), ('b_better', 'B is better'), ('both_good', 'Both are equally good'), ('both_bad', 'Both are equally bad')], max_length=10)),
                        ('outcome', models.CharField(choices=[('a_better', 'A is better'), ('b_better', 'B is better'), ('both_good', 'Both are equally good'), ('both_bad', 'Both are equally bad')], max_length=10)),
                        ('correct', models.BooleanField()),
                        ('answered_at', models.DateTimeField()),
                        ('seconds', models.FloatField(help_text='From serving the task to receiving the answer.')),
                        ('clips_heard', models.PositiveSmallIntegerField(default=0)),
                        ('task', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='practice_answer', to='crowd.preferencetask')),
                    ],
                    options={
                        'db_table': 'judging_practiceanswer',
                        'ordering': ['task'],
                    },
                ),
                migrations.CreateModel(
                    name='TrapQuestion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('accepted_answers', models.JSONField(help_text='Answers about the stored lists a and b.')),
                        ('explanation', models.TextField(blank=True, validators=[common.validation.TextValidator('text', None)])),
                        ('pool', models.CharField(choices=[('quiz', 'quiz (shown first, with feedback)'), ('work', 'work (mixed in, no feedback)'), ('practice', 'practice (before the quiz, with the answer; never counts)')], default='work', help_text='Quiz and practice questions are revealed in feedback; work questions never are.', max_length=8)),
                        ('contested', models.BooleanField(default=False)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('example', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='trap', to='crowd.example')),
                    ],
                    options={
                        'db_table': 'judging_trapquestion',
                    },
                ),
                migrations.CreateModel(
                    name='Worker',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('platform', models.CharField(choices=[('prolific', 'Prolific'), ('mturk', 'Mechanical Turk'), ('generic', 'other')], max_length=10)),
                        ('platform_id', models.CharField(max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('study_id', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('session_id', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('assignment_id', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('hit_id', models.CharField(blank=True, max_length=200, validators=[common.validation.TextValidator('name', 200)])),
                        ('turk_submit_to', models.URLField(blank=True)),
                        ('address_hash', models.CharField(blank=True, editable=False, help_text='Keyed hash of the client address it arrived from (the cap on new ids per address and hour, EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR).', max_length=64)),
                        ('device_hash', models.CharField(blank=True, editable=False, help_text="Keyed hash of stable request features of the device it arrived from: a stopped worker's device cannot start again under a new id (a deterrent, not proof).", max_length=64)),
                        ('seed', models.BigIntegerField(help_text="Seeds this worker's example order and sides.")),
                        ('browser_key', models.CharField(blank=True, editable=False, help_text='Secret of the browser this worker is bound to; empty: the next arrival binds.', max_length=64)),
                        ('consented_at', models.DateTimeField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('active', 'active'), ('stopped', 'stopped'), ('finished', 'finished')], default='active', max_length=10)),
                        ('stop_reason', models.CharField(blank=True, choices=[('low_trust', 'low trust'), ('low_agreement', 'answers the opposite of the others'), ('fast_answers', 'too many fast answers'), ('organiser', 'excluded by the organiser'), ('headphones', 'failed the headphone check')], max_length=20)),
                        ('stop_note', models.TextField(blank=True, help_text="The organiser's reason for excluding.")),
                        ('stopped_at', models.DateTimeField(blank=True, null=True)),
                        ('trusted_by_organiser', models.BooleanField(default=False, help_text='Reinstated (or imported) by the organiser: their answers count whatever the automatic rules say.')),
                        ('reinstated_unseen', models.BooleanField(default=False, help_text='Reinstated, and not yet told so on their next visit.')),
                        ('headphones', models.CharField(blank=True, choices=[('', 'not taken'), ('passed', 'passed'), ('failed', 'failed')], help_text="The headphone screen's result (campaigns with headphone_check).", max_length=6)),
                        ('headphones_right', models.PositiveSmallIntegerField(blank=True, help_text='Headphone screen: trials answered right.', null=True)),
                        ('served_count', models.PositiveIntegerField(default=0, help_text='Tasks served, practice tasks left out (the cap M counts these).')),
                        ('practice_count', models.PositiveSmallIntegerField(default=0, help_text='Practice tasks served (they come before any other task).')),
                        ('answer_count', models.PositiveIntegerField(default=0)),
                        ('listening_refusals', models.PositiveIntegerField(default=0, help_text='Answers refused because the listening check was not met.')),
                        ('trap_answered', models.PositiveIntegerField(default=0)),
                        ('trap_correct', models.PositiveIntegerField(default=0)),
                        ('trust', models.FloatField(blank=True, null=True)),
                        ('trusted', models.BooleanField(default=False, help_text='Enough trap answers (or the quiz) and trust ≥ threshold.')),
                        ('agreement_same', models.FloatField(blank=True, help_text="Estimated share of answers the same as the others' (and the trap questions' keys): evaluation.core.worker_agreement; None until first estimated.", null=True)),
                        ('agreement_opposite', models.FloatField(blank=True, help_text="Estimated share of answers the opposite of the others' (A ↔ B better, both good ↔ both bad).", null=True)),
                        ('agreement_compared', models.PositiveIntegerField(default=0, help_text='Answers the estimate compared: to trap questions, or to examples others answered too.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='workers', to='crowd.preferencecampaign')),
                    ],
                    options={
                        'db_table': 'judging_worker',
                        'ordering': ['campaign', 'created_at'],
                    },
                ),
                migrations.AddField(
                    model_name='preferencetask',
                    name='worker',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tasks', to='crowd.worker'),
                ),
                migrations.CreateModel(
                    name='Answer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('choice', models.CharField(choices=[('a_better', 'A is better'), ('b_better', 'B is better'), ('both_good', 'Both are equally good'), ('both_bad', 'Both are equally bad')], max_length=10)),
                        ('outcome', models.CharField(choices=[('a_better', 'A is better'), ('b_better', 'B is better'), ('both_good', 'Both are equally good'), ('both_bad', 'Both are equally bad')], max_length=10)),
                        ('swapped', models.BooleanField()),
                        ('comment', models.TextField(blank=True, validators=[common.validation.TextValidator('text', 2000)])),
                        ('served_at', models.DateTimeField()),
                        ('answered_at', models.DateTimeField()),
                        ('seconds', models.FloatField(help_text='From serving the task to receiving the answer.')),
                        ('clips_heard', models.PositiveSmallIntegerField(default=0, help_text='Clips (query included) whose audio the server sent for the task.')),
                        ('correct', models.BooleanField(blank=True, help_text='Trap questions only.', null=True)),
                        ('excluded', models.BooleanField(default=False)),
                        ('accepted_at', models.DateTimeField(blank=True, null=True)),
                        ('example', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='crowd.example')),
                        ('task', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='answer', to='crowd.preferencetask')),
                        ('worker', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='crowd.worker')),
                    ],
                    options={
                        'db_table': 'judging_answer',
                        'ordering': ['worker', 'answered_at'],
                    },
                ),
                migrations.CreateModel(
                    name='ExampleItem',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('side', models.CharField(choices=[('a', 'list a'), ('b', 'list b')], max_length=1)),
                        ('rank', models.PositiveSmallIntegerField()),
                        ('clip', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='catalog.clip')),
                        ('example', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='items', to='crowd.example')),
                    ],
                    options={
                        'db_table': 'judging_exampleitem',
                        'ordering': ['example', 'side', 'rank'],
                        'constraints': [models.UniqueConstraint(fields=('example', 'side', 'rank'), name='item_rank_once'), models.UniqueConstraint(fields=('example', 'side', 'clip'), name='item_clip_once'), models.CheckConstraint(condition=models.Q(('side__in', ['a', 'b'])), name='item_side_a_b')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.UniqueConstraint(fields=('collection', 'name'), name='campaign_name_once'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('headphone_pass_mark__gte', 1), ('headphone_pass_mark__lte', 6)), name='campaign_headphone_pass_mark_1_6'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('trap_rate__gte', 0), ('trap_rate__lte', 1)), name='campaign_trap_rate_0_1'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('trust_threshold__gte', 0), ('trust_threshold__lte', 1)), name='campaign_trust_threshold_0_1'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('list_length__gte', 1)), name='campaign_k_positive'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('answers_per_example__gte', 1)), name='campaign_redundancy_positive'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('completion_code', models.F('screen_out_code')), _negated=True), name='campaign_codes_differ'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('trust_check_every__gte', 1)), name='campaign_trust_check_positive'),
                ),
                migrations.AddConstraint(
                    model_name='preferencecampaign',
                    constraint=models.CheckConstraint(condition=models.Q(('bonus_per_answer__gte', 0)), name='campaign_bonus_not_negative'),
                ),
                migrations.AddConstraint(
                    model_name='example',
                    constraint=models.UniqueConstraint(fields=('campaign', 'signature'), name='example_once'),
                ),
                migrations.AddConstraint(
                    model_name='trapquestion',
                    constraint=models.CheckConstraint(condition=models.Q(('pool__in', ['quiz', 'work', 'practice'])), name='trap_pool_known'),
                ),
                migrations.AddIndex(
                    model_name='worker',
                    index=models.Index(fields=['campaign', 'address_hash', 'created_at'], name='worker_address'),
                ),
                migrations.AddIndex(
                    model_name='worker',
                    index=models.Index(fields=['campaign', 'device_hash'], name='worker_device'),
                ),
                migrations.AddConstraint(
                    model_name='worker',
                    constraint=models.UniqueConstraint(fields=('campaign', 'platform', 'platform_id'), name='worker_once_per_platform'),
                ),
                migrations.AddConstraint(
                    model_name='worker',
                    constraint=models.CheckConstraint(condition=models.Q(('trap_correct__lte', models.F('trap_answered'))), name='worker_trap_counts'),
                ),
                migrations.AddConstraint(
                    model_name='worker',
                    constraint=models.CheckConstraint(condition=models.Q(('answer_count__lte', models.F('served_count'))), name='worker_answers_served'),
                ),
                migrations.AddConstraint(
                    model_name='worker',
                    constraint=models.CheckConstraint(condition=models.Q(('status', 'stopped'), ('stop_reason', ''), _connector='OR'), name='worker_stop_reason_only_when_stopped'),
                ),
                migrations.AddIndex(
                    model_name='preferencetask',
                    index=models.Index(condition=models.Q(('answered_at__isnull', True), ('released', False)), fields=['alive_at'], name='task_open_alive'),
                ),
                migrations.AddConstraint(
                    model_name='preferencetask',
                    constraint=models.UniqueConstraint(fields=('worker', 'example'), name='task_example_once'),
                ),
                migrations.AddConstraint(
                    model_name='preferencetask',
                    constraint=models.UniqueConstraint(fields=('worker', 'position'), name='task_position'),
                ),
                migrations.AddConstraint(
                    model_name='preferencetask',
                    constraint=models.UniqueConstraint(condition=models.Q(('answered_at__isnull', True)), fields=('worker',), name='task_one_open_per_worker'),
                ),
                migrations.AddConstraint(
                    model_name='preferencetask',
                    constraint=models.CheckConstraint(condition=models.Q(('is_quiz', False), ('is_practice', False), _connector='OR'), name='task_quiz_or_practice'),
                ),
                migrations.AddConstraint(
                    model_name='answer',
                    constraint=models.UniqueConstraint(fields=('worker', 'example'), name='answer_once_per_example'),
                ),
                migrations.AddConstraint(
                    model_name='answer',
                    constraint=models.CheckConstraint(condition=models.Q(('excluded', False), ('accepted_at__isnull', True), _connector='OR'), name='answer_excluded_not_accepted'),
                ),
            ],
        ),
    ]
