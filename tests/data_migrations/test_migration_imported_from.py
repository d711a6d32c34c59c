"""The file a campaign's answers were imported from survives its move to the campaign.

Migration evaluation 0004 copies ``MappingConfig.imported_from`` to
``PreferenceCampaign.imported_from`` (judging 0004) before dropping it, and copies it
back when migrated backwards: nothing a person imported is lost either way.
"""

from tests.helpers.migrating import migrate, migration_test

BEFORE = [("judging", "0003_preference_campaigns"), ("evaluation", "0003_satisfaction_mappings")]
AFTER = [
    ("judging", "0004_preference_campaign_imported_from"),
    ("evaluation", "0004_imported_from_moves_to_the_campaign"),
]


@migration_test
def test_the_imported_file_name_moves_to_the_campaign_and_back():
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    owner = User.objects.create(username="owner")
    collection = apps.get_model("judging", "Collection").objects.create(owner=owner, name="C")
    Campaign = apps.get_model("judging", "PreferenceCampaign")
    imported = Campaign.objects.create(
        collection=collection, name="Imported", completion_code="c1", screen_out_code="s1"
    )
    made_here = Campaign.objects.create(
        collection=collection, name="Study", completion_code="c2", screen_out_code="s2"
    )
    Config = apps.get_model("evaluation", "MappingConfig")
    Config.objects.create(campaign=imported, imported_from="crowdflower-2012.csv")
    Config.objects.create(campaign=made_here, measures=["CG(scale=fine)@5"])

    apps = migrate(AFTER)
    Campaign = apps.get_model("judging", "PreferenceCampaign")
    assert Campaign.objects.get(name="Imported").imported_from == "crowdflower-2012.csv"
    assert Campaign.objects.get(name="Study").imported_from == ""

    apps = migrate(BEFORE)
    Config = apps.get_model("evaluation", "MappingConfig")
    assert Config.objects.get(campaign__name="Imported").imported_from == "crowdflower-2012.csv"
    assert Config.objects.get(campaign__name="Study").imported_from == ""
