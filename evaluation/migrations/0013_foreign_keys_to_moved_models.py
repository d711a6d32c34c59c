# The move by area (issue 30): state only, generated from the models.

import django.db.models.deletion
from common.migration_state import StateOnlyMove
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0002_moved_from_judging'),
        ('crowd', '0001_moved_from_judging'),
        ('evaluation', '0012_optimality_study'),
        ('relevance', '0001_moved_from_judging'),
    ]

    operations = [
        StateOnlyMove(
            state_operations=[
                migrations.AlterField(
                    model_name='campaignestimate',
                    name='campaign',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='estimate', to='relevance.relevancecampaign'),
                ),
                migrations.AlterField(
                    model_name='estimatedleaderboard',
                    name='collection',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='estimated_leaderboards', to='catalog.collection'),
                ),
                migrations.AlterField(
                    model_name='leaderboard',
                    name='collection',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='leaderboards', to='catalog.collection'),
                ),
                migrations.AlterField(
                    model_name='mappingconfig',
                    name='campaign',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='mapping_config', to='crowd.preferencecampaign'),
                ),
                migrations.AlterField(
                    model_name='optimalitystudy',
                    name='collection',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='optimality_study', to='catalog.collection'),
                ),
                migrations.AlterField(
                    model_name='reliabilitystudy',
                    name='collection',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reliability_studies', to='catalog.collection'),
                ),
                migrations.AlterField(
                    model_name='resultsconfig',
                    name='collection',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='results_config', to='catalog.collection'),
                ),
                migrations.AlterField(
                    model_name='satisfactionmapping',
                    name='campaign',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='satisfaction_mappings', to='crowd.preferencecampaign'),
                ),
            ],
        ),
    ]
