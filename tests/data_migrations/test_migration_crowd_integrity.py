"""Migration judging 0009 carries a running crowd study forward (judging/migrations/0009_…).

Workers stopped before it were stopped for low trust; workers of an answers import are
the organiser's; trap questions already shown in a quiz (their answers revealed in
feedback) form the quiz pool, topped up to the quiz's length; every worker may bind
the next browser that arrives with their id.
"""

from django.utils import timezone

from tests.helpers.migrating import migrate, migration_test

BEFORE = [("judging", "0008_relevance_campaign_lowcost_mode")]
AFTER = [("judging", "0009_crowd_integrity")]


@migration_test
def test_a_running_study_is_carried_forward():
    apps = migrate(BEFORE)
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    collection = apps.get_model("judging", "Collection").objects.create(owner=owner, name="C")
    clip = apps.get_model("judging", "Clip").objects.create(collection=collection, external_id="q")
    query = apps.get_model("judging", "Query").objects.create(collection=collection, clip=clip)
    Campaign = apps.get_model("judging", "PreferenceCampaign")
    quizzed = Campaign.objects.create(
        collection=collection, name="Quiz", quiz_length=3, completion_code="c", screen_out_code="s"
    )
    Example = apps.get_model("judging", "Example")
    Trap = apps.get_model("judging", "TrapQuestion")
    traps = []
    for i in range(5):
        example = Example.objects.create(
            campaign=quizzed, query=query, source="csv", signature=f"sig{i}"
        )
        traps.append(Trap.objects.create(example=example, accepted_answers=["a_better"]))
    Worker = apps.get_model("judging", "Worker")
    stopped = Worker.objects.create(
        campaign=quizzed, platform="prolific", platform_id="p1", seed=123, status="stopped"
    )
    Worker.objects.create(
        campaign=quizzed, platform="generic", platform_id="old", seed=0, status="finished",
        trusted=True,
    )  # fmt: skip
    apps.get_model("judging", "PreferenceTask").objects.create(
        worker=stopped, example=traps[3].example, position=1, swapped=False, is_quiz=True,
        served_at=timezone.now(), key="k1",
    )  # fmt: skip

    apps = migrate(AFTER)
    Worker = apps.get_model("judging", "Worker")
    Trap = apps.get_model("judging", "TrapQuestion")
    assert Worker.objects.get(platform_id="p1").stop_reason == "low_trust"
    assert Worker.objects.get(platform_id="old").trusted_by_organiser
    assert not Worker.objects.get(platform_id="p1").trusted_by_organiser
    assert set(Worker.objects.values_list("browser_key", flat=True)) == {""}
    pools = dict(Trap.objects.values_list("pk", "pool"))
    # The quizzed one, then the oldest others up to the quiz length of 3.
    assert [pools[t.pk] for t in traps] == ["quiz", "quiz", "work", "quiz", "work"]
