# The second half of 0006: RelevanceJudgment.source is now the foreign key to its
# JudgmentSource (the string column goes), with the same two uniqueness rules.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('judging', '0011_judgment_sources'),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='relevancejudgment', name='judgment_once_per_assessor'),
        migrations.RemoveConstraint(model_name='relevancejudgment', name='judgment_once_per_source'),
        migrations.RemoveField(model_name='relevancejudgment', name='source'),
        migrations.RenameField(model_name='relevancejudgment', old_name='source_ref', new_name='source'),
        migrations.AlterField(
            model_name='relevancejudgment',
            name='source',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judgments', to='judging.judgmentsource'),
        ),
        migrations.AddConstraint(
            model_name='relevancejudgment',
            constraint=models.UniqueConstraint(condition=models.Q(('assessor__isnull', False)), fields=('query', 'clip', 'assessor', 'source'), name='judgment_once_per_assessor'),
        ),
        migrations.AddConstraint(
            model_name='relevancejudgment',
            constraint=models.UniqueConstraint(condition=models.Q(('assessor__isnull', True)), fields=('query', 'clip', 'source'), name='judgment_once_per_source'),
        ),
    ]
