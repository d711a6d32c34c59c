# The file a campaign's answers were imported from moves here from
# evaluation.MappingConfig (see evaluation/migrations/0004_...), so that the answers
# importer lives with judging's other importers without importing evaluation.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('judging', '0003_preference_campaigns'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferencecampaign',
            name='imported_from',
            field=models.CharField(blank=True, help_text='The file the answers were imported from, if any (crowd.importers.answers).', max_length=300),
        ),
    ]
