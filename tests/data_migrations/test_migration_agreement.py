"""Migration judging 0030 carries a running crowd study forward with nothing lost
(judging/migrations/0034_agreement_and_quiz_questions_per_worker.py).

Its workers get no agreement estimate yet (the next checkpoint or mapping recompute makes
one), its quiz pool, work pool, answers and stopped workers stay as they were, and the
new stop reason and example source are accepted.
"""

from django.utils import timezone

from tests.helpers.migrating import crowd_study, migrate, migration_test

BEFORE = [("judging", "0033_clip_heard_loudness")]
AFTER = [("judging", "0034_agreement_and_quiz_questions_per_worker")]


@migration_test
def test_a_running_study_keeps_its_pools_answers_and_workers():
    apps = migrate(BEFORE)
    campaign, query = crowd_study(apps, quiz_length=1)
    Example = apps.get_model("judging", "Example")
    quiz = Example.objects.create(campaign=campaign, query=query, source="csv", signature="q")
    work = Example.objects.create(campaign=campaign, query=query, source="csv", signature="w")
    Trap = apps.get_model("judging", "TrapQuestion")
    Trap.objects.create(example=quiz, accepted_answers=["a_better"], pool="quiz")
    Trap.objects.create(example=work, accepted_answers=["both_bad"], pool="work")
    Worker = apps.get_model("judging", "Worker")
    stopped = Worker.objects.create(
        campaign=campaign, platform="prolific", platform_id="p1", seed=1, status="stopped",
        stop_reason="low_trust", trust=0.5, trap_answered=2, trap_correct=1,
        served_count=2, answer_count=2,
    )  # fmt: skip
    now = timezone.now()
    task = apps.get_model("judging", "PreferenceTask").objects.create(
        worker=stopped, example=work, position=2, swapped=False, served_at=now, key="k"
    )
    apps.get_model("judging", "Answer").objects.create(
        task=task, worker=stopped, example=work, choice="a_better", outcome="a_better",
        swapped=False, served_at=now, answered_at=now, seconds=12.0, correct=False,
        excluded=True,
    )  # fmt: skip

    apps = migrate(AFTER)
    worker = apps.get_model("judging", "Worker").objects.get()
    assert (worker.status, worker.stop_reason, worker.trust) == ("stopped", "low_trust", 0.5)
    assert (worker.agreement_same, worker.agreement_opposite, worker.agreement_compared) == (
        None, None, 0,
    )  # fmt: skip
    pools = dict(
        apps.get_model("judging", "TrapQuestion").objects.values_list("example__signature", "pool")
    )
    assert pools == {"q": "quiz", "w": "work"}
    answer = apps.get_model("judging", "Answer").objects.get()
    assert (answer.excluded, answer.correct, answer.seconds) == (True, False, 12.0)
    # What 0030 adds is accepted: a quiz question made for one worker, the new stop reason.
    sources = dict(apps.get_model("judging", "Example")._meta.get_field("source").choices)
    reasons = dict(apps.get_model("judging", "Worker")._meta.get_field("stop_reason").choices)
    assert "quiz" in sources and "low_agreement" in reasons
