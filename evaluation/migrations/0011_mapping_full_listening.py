"""A campaign's mapping may use only the answers whose every clip was heard (issue 23,
item 5); off for every mapping configured before, so nothing they compute changes."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0010_results_judged_only'),
    ]

    operations = [
        migrations.AddField(
            model_name='mappingconfig',
            name='full_listening_only',
            field=models.BooleanField(default=False, help_text='Use only the accepted answers whose every clip was heard (crowd.selectors.listening.answers_fully_heard).'),
        ),
    ]
