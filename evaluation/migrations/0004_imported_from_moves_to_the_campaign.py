# MappingConfig.imported_from becomes PreferenceCampaign.imported_from: the values are
# copied over (and back when migrating backwards) before the field is removed here.

from django.db import migrations


def to_campaigns(apps, schema_editor):
    MappingConfig = apps.get_model('evaluation', 'MappingConfig')
    PreferenceCampaign = apps.get_model('judging', 'PreferenceCampaign')
    for config in MappingConfig.objects.exclude(imported_from=''):
        PreferenceCampaign.objects.filter(pk=config.campaign_id).update(
            imported_from=config.imported_from
        )


def to_mapping_configs(apps, schema_editor):
    MappingConfig = apps.get_model('evaluation', 'MappingConfig')
    PreferenceCampaign = apps.get_model('judging', 'PreferenceCampaign')
    for campaign in PreferenceCampaign.objects.exclude(imported_from=''):
        MappingConfig.objects.update_or_create(
            campaign_id=campaign.pk, defaults={'imported_from': campaign.imported_from}
        )


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0003_satisfaction_mappings'),
        ('judging', '0004_preference_campaign_imported_from'),
    ]

    operations = [
        migrations.RunPython(to_campaigns, to_mapping_configs),
        migrations.RemoveField(
            model_name='mappingconfig',
            name='imported_from',
        ),
    ]
