"""The whole pipeline with a real Celery worker on the embedded Redis (not eager).

Workers answer through the services → judging hands the accepted answers over by task
name on each commit → ``evaluation.preference_answers_accepted`` asks for one coalesced
campaign recompute → the mapping is stored and the collection's leaderboards are
recomputed with it → the mapping and leaderboard pages show them.
"""

import time
from urllib.parse import quote

import pytest

from crowd.models import Answer, choice_as_stored
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.models import Leaderboard, Recompute, SatisfactionMapping
from tests.helpers.crowd_fixtures import arrive, trap_of
from tests.helpers.mappings import MEASURE, SAT_COUNTS, campaign_scored_as_answers
from tests.helpers.personas import PASSWORD

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.real_handoff,
    pytest.mark.django_db(transaction=True),
]


def settled(kind: str, target_id: int, timeout: float = 90) -> Recompute:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = Recompute.objects.filter(kind=kind, target_id=target_id).first()
        if row and row.state in ("done", "failed") and not row.dirty:
            return row
        time.sleep(0.2)
    row = Recompute.objects.filter(kind=kind, target_id=target_id).first()
    raise AssertionError(f"the {kind} recompute did not settle: {row and row.to_dict()}")


def test_answers_become_one_recompute_a_stored_mapping_and_a_leaderboard_using_it(
    celery_worker_process, crowd_collection, client
):
    campaign, wanted = campaign_scored_as_answers(crowd_collection, answers_per_example=3)

    # The burst: three careful workers answer everything, one careless worker fails the quiz.
    submitted = 0
    for name in ("w1", "w2", "w3"):
        worker = arrive(campaign, name)
        while (task := task_serve(worker=worker)) is not None:
            # Each quiz question is this worker's own (issue 29): its accepted answer.
            stored = wanted.get(task.example_id) or trap_of(task).accepted_answers[0]
            choice = choice_as_stored(stored, swapped=task.swapped)
            answer_submit(worker=worker, key=task.key, choice=choice)
            submitted += 1
    careless = arrive(campaign, "careless")
    task = task_serve(worker=careless)
    answer_submit(
        worker=careless, key=task.key, choice=choice_as_stored("b_better", swapped=task.swapped)
    )
    submitted += 1
    assert submitted == 3 * 9 + 1
    assert (
        Answer.objects.filter(example__campaign=campaign, accepted_at__isnull=False).count() == 24
    )

    row = settled("campaign", campaign.pk)
    assert row.state == "done", row.error
    assert row.requests >= 1
    # Coalescing: a computation absorbs every answer that arrived while it was pending
    # (1 s, as in production). Alone the burst takes 0.2 s and gives 1 run; five runs
    # would need it to span about four delays and computations (over 5 s, 25 times
    # slower). Without coalescing it would be one run per answer (28).
    assert row.computations * 5 <= submitted, (
        f"{row.computations} computations for a burst of {submitted} answers"
    )
    mapping = SatisfactionMapping.objects.get(campaign=campaign, measure=MEASURE)
    assert mapping.payload["n_answers"] == 24
    assert mapping.payload["satisfaction"]["counts"] == [3 * n for n in SAT_COUNTS]

    board_row = settled("collection", crowd_collection.pk)
    assert board_row.state == "done", board_row.error
    assert (
        board_row.computations <= row.computations
    )  # one leaderboard recompute per stored mapping at most
    board = Leaderboard.objects.get(collection=crowd_collection, measure=MEASURE)
    assert board.payload["mapping"]["source"] == "campaign"
    assert board.payload["mapping"]["coefficients"] == mapping.payload["fit"]["coefficients"]
    assert board.computed_at >= mapping.computed_at

    client.login(username=crowd_collection.owner.username, password=PASSWORD)
    base = f"/collections/{crowd_collection.pk}/results"
    page = client.get(f"{base}/mapping/?campaign={campaign.pk}&measure={quote(MEASURE)}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "24 accepted answers on 8 examples" in text and 'data-plot="psat"' in text
    leaderboard = client.get(f"{base}/leaderboard/?measure={quote(MEASURE)}").content.decode()
    assert "the campaign&#x27;s own mapping, measured by “Study”" in leaderboard
    assert "(the published default)" not in leaderboard
