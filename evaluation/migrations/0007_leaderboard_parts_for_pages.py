# The results pages stop loading a leaderboard's whole payload: its summary, the matrix
# of adjusted p-values, one row per system and one per pair are stored beside it
# (evaluation/services/leaderboard_store.py), and an index covers which leaderboards were
# computed when. Leaderboards stored before this migration get their parts here, split
# from their payload the same way.

import django.db.models.deletion
from django.db import migrations, models

from evaluation.services.leaderboard_store import leaderboard_parts, leaderboard_parts_create


def split_stored_payloads(apps, schema_editor):
    Leaderboard = apps.get_model('evaluation', 'Leaderboard')
    LeaderboardSystem = apps.get_model('evaluation', 'LeaderboardSystem')
    LeaderboardPair = apps.get_model('evaluation', 'LeaderboardPair')
    for board in Leaderboard.objects.iterator(chunk_size=10):
        if not board.payload.get('rows'):
            continue
        parts = leaderboard_parts(board.payload)
        board.summary = parts.summary
        board.significance = parts.significance
        board.save(update_fields=['summary', 'significance'])
        leaderboard_parts_create(
            leaderboard=board, parts=parts, systems=LeaderboardSystem, pairs=LeaderboardPair
        )


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0006_recompute_heartbeat'),
    ]

    operations = [
        migrations.AddField(
            model_name='leaderboard',
            name='significance',
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name='leaderboard',
            name='summary',
            field=models.JSONField(default=dict),
        ),
        migrations.CreateModel(
            name='LeaderboardPair',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveIntegerField()),
                ('data', models.JSONField(default=dict)),
                ('leaderboard', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='pairs', to='evaluation.leaderboard')),
            ],
            options={
                'ordering': ['leaderboard', 'position'],
                'constraints': [models.UniqueConstraint(fields=('leaderboard', 'position'), name='leaderboard_pair_position_once')],
            },
        ),
        migrations.CreateModel(
            name='LeaderboardSystem',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('system', models.CharField(max_length=200)),
                ('rank', models.PositiveIntegerField()),
                ('row', models.JSONField(default=dict)),
                ('per_query', models.JSONField(default=list, help_text='[[query, score, P(Sat) or null], …]')),
                ('distributions', models.JSONField(default=dict, help_text='{lambda: [[low, high, count], …]}')),
                ('leaderboard', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='systems', to='evaluation.leaderboard')),
            ],
            options={
                'ordering': ['leaderboard', 'rank'],
                'constraints': [models.UniqueConstraint(fields=('leaderboard', 'system'), name='leaderboard_system_once')],
            },
        ),
        migrations.AddIndex(
            model_name='leaderboard',
            index=models.Index(fields=['collection', 'measure', 'computed_at'], name='leaderboard_when'),
        ),
        # Backwards, the parts are dropped with their tables and fields.
        migrations.RunPython(split_stored_payloads, migrations.RunPython.noop),
    ]
