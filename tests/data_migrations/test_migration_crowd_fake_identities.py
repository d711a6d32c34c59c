"""Migration judging 0020 carries open crowd tasks forward (judging/migrations/0020_…).

A task served before heartbeats existed was last known alive when it was served: its
``alive_at`` is its ``served_at``, so the 3-minute lease counts from there and a task
left open for hours gives its slot back at the next serving that needs it.
"""

from datetime import timedelta

from django.utils import timezone

from tests.helpers.migrating import crowd_study, migrate, migration_test

BEFORE = [("judging", "0021_deletions_cascade_through_a_collection")]
AFTER = [("judging", "0022_crowd_fake_identities")]


@migration_test
def test_an_open_task_is_alive_from_when_it_was_served():
    apps = migrate(BEFORE)
    campaign, query = crowd_study(apps)
    example = apps.get_model("judging", "Example").objects.create(
        campaign=campaign, query=query, source="csv", signature="sig"
    )
    worker = apps.get_model("judging", "Worker").objects.create(
        campaign=campaign, platform="generic", platform_id="w", seed=1
    )
    served = timezone.now() - timedelta(hours=2)
    apps.get_model("judging", "PreferenceTask").objects.create(
        worker=worker, example=example, position=1, swapped=False, served_at=served, key="k1"
    )

    apps = migrate(AFTER)
    task = apps.get_model("judging", "PreferenceTask").objects.get(key="k1")
    assert task.alive_at == task.served_at == served
    campaign = apps.get_model("judging", "PreferenceCampaign").objects.get()
    worker = apps.get_model("judging", "Worker").objects.get()
    # The new settings' defaults: the code after 1 work answer, trust checked every 10.
    assert (campaign.min_work_answers, campaign.trust_check_every) == (1, 10)
    assert (worker.address_hash, worker.device_hash) == ("", "")
