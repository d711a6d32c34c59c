"""work.handoff coalesces the "… changed" messages at the sender, and never loses the
trailing change (issue 14, crowd capacity).

A marker in the cache (the real Redis of the test session) says "a message for this task
and target is queued and its task has not started": only the sender that set it
publishes, and the receiving task deletes it before it reads anything. The first tests
record what reaches ``current_app.send_task`` (the Celery boundary) so that no worker
can take the messages meanwhile; the last one publishes for real to the session's Redis
and lets the real Celery worker take them.
"""

from __future__ import annotations

import base64
import json
import logging
import time
import uuid

import pytest
import redis
from django.core.cache import cache
from django.db import connection, transaction

from config.env import redis_cache_location
from crowd.models import Answer, choice_as_stored
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.models import Recompute, SatisfactionMapping
from tests.helpers.crowd_fixtures import arrive, trap_of
from tests.helpers.mappings import MEASURE, SAT_COUNTS, campaign_scored_as_answers
from tests.helpers.work_kinds import receiver_replaced
from work import handoff, kinds, send, tasks
from work.handoff import (
    ANSWERS_ACCEPTED_TASK,
    COLLECTION_CHANGED_TASK,
    JOB_TASK,
    RELEVANCE_CAMPAIGN_CHANGED_TASK,
    queued_key,
)
from work.models import PendingHandoff

pytestmark = pytest.mark.django_db(transaction=True)

REAL_SEND_TASK = handoff.send_task  # taken before the autouse fixture records it


@pytest.fixture
def markers(embedded_redis, settings):
    """The cache on the session's Redis under a key prefix of this test alone (so no other
    test's marker can meet these); returns a plain client of that Redis to read them."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_cache_location(embedded_redis.url),
            "KEY_PREFIX": f"earshot-test-{uuid.uuid4().hex}",
        }
    }
    with redis.Redis(unix_socket_path=str(embedded_redis.socket)) as client:
        yield client


@pytest.fixture
def published(monkeypatch):
    """What judging publishes through Celery, as (name, kwargs): the real ``send_task``
    (marker and deadline included) down to the Celery app's own ``send_task``."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(handoff, "send_task", REAL_SEND_TASK)
    monkeypatch.setattr(
        send.current_app,
        "send_task",
        lambda name, kwargs, **options: sent.append((name, kwargs)),
    )
    return sent


def commit(announce, **kwargs) -> None:
    """One transaction that announces one change (as one crowd answer does)."""
    with transaction.atomic():
        announce(**kwargs)


def marker_ttl_ms(client, task: str, kwargs: dict) -> int:
    """Milliseconds the marker has left (-2 when there is none)."""
    return client.pttl(cache.make_key(queued_key(task, kwargs)))


def test_a_burst_of_commits_publishes_once_per_target_while_its_message_waits(
    markers, published, settings
):
    for _ in range(5):
        commit(handoff.preference_answers_changed, campaign_id=7)
    commit(handoff.preference_answers_changed, campaign_id=8)
    commit(handoff.preference_answers_changed, campaign_id=7)
    assert published == [
        (ANSWERS_ACCEPTED_TASK, {"campaign_id": 7}),
        (ANSWERS_ACCEPTED_TASK, {"campaign_id": 8}),
    ]  # 7 commits, no task started: one message per target
    # A lost message holds changes back at most EARSHOT_HANDOFF_COALESCE_SECONDS (10 s).
    assert settings.EARSHOT_HANDOFF_COALESCE_SECONDS == 10
    assert 0 < marker_ttl_ms(markers, ANSWERS_ACCEPTED_TASK, {"campaign_id": 7}) <= 10_000


RECEIVING = [
    (handoff.preference_answers_changed, "campaign_id", ANSWERS_ACCEPTED_TASK,
     tasks.preference_answers_accepted, "preference_answers_received"),
    (handoff.collection_data_changed, "collection_id", COLLECTION_CHANGED_TASK,
     tasks.collection_data_changed, "collection_change_received"),
    (handoff.relevance_campaign_changed, "campaign_id", RELEVANCE_CAMPAIGN_CHANGED_TASK,
     tasks.relevance_campaign_changed, "relevance_campaign_change_received"),
]  # fmt: skip


@pytest.mark.parametrize(("announce", "argument", "task", "receiving_task", "receiver"), RECEIVING)
def test_the_receiving_task_deletes_the_marker_before_it_reads_so_the_next_change_sends_again(
    markers, published, monkeypatch, announce, argument, task, receiving_task, receiver
):
    kwargs = {argument: 424242}  # no such target: the receiver finds nothing to recompute
    commit(announce, **kwargs)
    commit(announce, **kwargs)
    assert published == [(task, kwargs)]

    marker_when_reading = []
    real_receiver = kinds.receiver(task)
    # evaluation's, registered when it is ready (and pairwise's sort, for answers)
    assert receiver in [receive.__name__ for receive in kinds.receivers(task)]

    def reading(target_id):
        marker_when_reading.append(marker_ttl_ms(markers, task, kwargs))
        return real_receiver(target_id)

    receiver_replaced(monkeypatch, task, reading)
    assert receiving_task(**kwargs) is False  # the Celery task, run here
    assert marker_when_reading == [-2]  # gone before the receiver read the database

    commit(announce, **kwargs)  # committed after the task started: it is sent again
    assert published == [(task, kwargs)] * 2


def test_a_failed_publish_deletes_the_marker_and_writes_the_change_down(
    markers, published, monkeypatch
):
    def broker_down(name, kwargs, **options):
        raise ConnectionError("no broker")

    monkeypatch.setattr(send.current_app, "send_task", broker_down)
    commit(handoff.preference_answers_changed, campaign_id=7)
    assert list(PendingHandoff.objects.values_list("task", "target_id")) == [
        (ANSWERS_ACCEPTED_TASK, 7)
    ]
    assert marker_ttl_ms(markers, ANSWERS_ACCEPTED_TASK, {"campaign_id": 7}) == -2

    monkeypatch.setattr(send.current_app, "send_task", lambda name, kwargs, **options:
                        published.append((name, kwargs)))  # fmt: skip
    commit(handoff.preference_answers_changed, campaign_id=7)  # the broker is back
    assert published == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": 7})]  # not held back


def test_without_redis_every_change_is_sent_as_before_and_a_dead_broker_is_written_down(
    published, settings, tmp_path, monkeypatch, caplog
):
    caplog.set_level(logging.DEBUG, logger="work.handoff")  # the marker's line is a debug one
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"unix://{tmp_path / 'no-redis.sock'}",  # nothing listens there
        }
    }
    commit(handoff.preference_answers_changed, campaign_id=7)
    commit(handoff.preference_answers_changed, campaign_id=7)
    assert published == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": 7})] * 2  # no coalescing
    assert "marker of evaluation.preference_answers_accepted could not be set" in caplog.text

    def broker_down(name, kwargs, **options):
        raise ConnectionError("no broker")  # Redis is the broker too: it is down as well

    monkeypatch.setattr(send.current_app, "send_task", broker_down)
    commit(handoff.preference_answers_changed, campaign_id=7)
    assert list(PendingHandoff.objects.values_list("task", "target_id")) == [
        (ANSWERS_ACCEPTED_TASK, 7)
    ]
    # The receiving task runs although it cannot delete a marker (it would expire).
    assert tasks.preference_answers_accepted(campaign_id=424242) is False


def test_jobs_are_never_coalesced(markers, published):
    for _ in range(2):
        handoff.job_queued(job_id=5, on_error=lambda error: None)  # autocommit: sent at once
    assert published == [(JOB_TASK, {"job_id": 5})] * 2
    assert markers.keys(cache.make_key("handoff-queued:*")) == []


def test_with_coalescing_off_every_change_is_sent(markers, published, settings):
    settings.EARSHOT_HANDOFF_COALESCE_SECONDS = 0
    commit(handoff.collection_data_changed, collection_id=3)
    commit(handoff.collection_data_changed, collection_id=3)
    assert published == [(COLLECTION_CHANGED_TASK, {"collection_id": 3})] * 2
    assert markers.keys(cache.make_key("handoff-queued:*")) == []


def test_a_trap_question_and_a_work_task_run_the_same_marker_step(
    markers, published, crowd_collection
):
    """A worker cannot tell a trap question by the hand-off after its answer: the answer to
    each sets the marker and publishes when none is waiting (whether one is waiting
    depends on the campaign's other answers, never on the task)."""
    campaign, wanted = campaign_scored_as_answers(crowd_collection, answers_per_example=3)
    worker = arrive(campaign, "w1")
    kwargs = {"campaign_id": campaign.pk}
    was_trap = []
    for _ in range(2):  # the quiz's trap question, then a work task
        was_trap.append(hasattr(task_serve(worker=worker).example, "trap"))
        handoff.handoff_started(ANSWERS_ACCEPTED_TASK, kwargs)  # as if the task had started
        assert answer(worker, wanted)
        assert marker_ttl_ms(markers, ANSWERS_ACCEPTED_TASK, kwargs) > 0
    assert was_trap == [True, False]
    assert published == [(ANSWERS_ACCEPTED_TASK, kwargs)] * 2


# --- With the real Celery worker --------------------------------------------------------


def wait_for(condition, *, what: str, timeout: float = 90):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
    return value


HELD = "earshot-test-held"
"""A queue no worker reads: the real-worker test publishes there, then hands the messages
to the worker's queue when it wants them taken (deterministic, unlike pausing a worker
whose pending poll may still take one message)."""


def queued_handoffs(client, campaign_id: int, queue: str = HELD) -> int:
    """Messages of ``preference_answers_accepted`` for the campaign waiting in ``queue``."""
    count = 0
    for raw in client.lrange(queue, 0, -1):
        message = json.loads(raw)
        if message["headers"].get("task") != ANSWERS_ACCEPTED_TASK:
            continue
        _, kwargs, _ = json.loads(base64.b64decode(message["body"]))
        count += kwargs == {"campaign_id": campaign_id}
    return count


def hand_to_worker(client) -> None:
    """Move the held messages, oldest first, to the queue the session's worker reads (the
    interactive queue, where the "… changed" hand-offs go: work/queues.py)."""
    while client.rpoplpush(HELD, "interactive"):
        pass


def answer(worker, wanted) -> bool:
    task = task_serve(worker=worker)
    if task is None:
        return False
    # Each quiz question is this worker's own (issue 29): its accepted answer.
    stored = wanted.get(task.example_id) or trap_of(task).accepted_answers[0]
    answer_submit(
        worker=worker, key=task.key, choice=choice_as_stored(stored, swapped=task.swapped)
    )
    return True


def accepted(campaign) -> int:
    return Answer.objects.filter(example__campaign=campaign, accepted_at__isnull=False).count()


@pytest.mark.celery_worker
@pytest.mark.real_handoff
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="runs once, in the PostgreSQL pass of make test"
)
def test_a_burst_sends_one_message_the_next_change_after_the_task_starts_sends_again(
    celery_worker_process, embedded_redis, crowd_collection, settings, monkeypatch
):
    # Longer than any wait below: only the worker's task can take the marker away.
    settings.EARSHOT_HANDOFF_COALESCE_SECONDS = 600
    publish = send.current_app.send_task
    monkeypatch.setattr(
        send.current_app, "send_task", lambda name, **kw: publish(name, queue=HELD, **kw)
    )  # nobody takes a message until hand_to_worker
    campaign, wanted = campaign_scored_as_answers(crowd_collection, answers_per_example=3)
    w1, w2, w3 = (arrive(campaign, name) for name in ("w1", "w2", "w3"))
    key = cache.make_key(queued_key(ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk}))
    with redis.Redis(unix_socket_path=str(embedded_redis.socket)) as client:
        client.delete(HELD)
        for worker in (w1, w2):
            while answer(worker, wanted):
                pass
        while accepted(campaign) < 23:  # w3 keeps its last answer back
            assert answer(w3, wanted)
        assert accepted(campaign) == 23  # each answer committed alone (26 in all)
        assert queued_handoffs(client, campaign.pk) == 1
        assert client.exists(key)

        # The worker takes the message: its task deletes the marker first.
        hand_to_worker(client)
        wait_for(lambda: not client.exists(key), what="the task to start")

        assert answer(w3, wanted)  # the trailing answer
        assert accepted(campaign) == 24
        assert queued_handoffs(client, campaign.pk) == 1  # sent again, not held back
        assert not answer(w3, wanted)  # w3 had nothing more to answer
        hand_to_worker(client)

    def converged():
        row = Recompute.objects.filter(kind="campaign", target_id=campaign.pk).first()
        mapping = SatisfactionMapping.objects.filter(campaign=campaign, measure=MEASURE).first()
        return (row and row.state == "done" and not row.dirty and mapping
                and mapping.payload["n_answers"] == 24 and mapping)  # fmt: skip

    mapping = wait_for(converged, what="the mapping to count the trailing answer", timeout=120)
    # As in tests/journeys/test_results_pipeline.py: three careful workers on the eight examples.
    assert mapping.payload["satisfaction"]["counts"] == [3 * n for n in SAT_COUNTS]
