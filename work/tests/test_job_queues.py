"""Jobs wait in the queue their size calls for, and end when their time limit stops them
(issue 21: one organiser's long work cannot hold another's short work; poison work ends).

The task's body runs the jobs here (:func:`tests.helpers.uploads.run_jobs`). A small file is
one run line; a big one is a file just over ``EARSHOT_INTERACTIVE_UPLOAD_MAX_KB`` (set
to 1 KiB here, so the big file stays small for the test).
"""

from __future__ import annotations

import uuid

import pytest
from celery import Celery
from celery.exceptions import SoftTimeLimitExceeded

from tests.helpers.uploads import form_data, post, run_jobs
from tests.helpers.work_kinds import kind_replaced
from work import handoff
from work.jobs import job_retry, job_retryable, job_start
from work.models import Job
from work.queues import HEAVY, INTERACTIVE, priority_lists
from work.runs import TIMED_OUT

pytestmark = pytest.mark.django_db

LINE = b"c1 Q0 c2 1 0.9 S1\n"


PRIORITIES: dict[int, int] = {}
"""The priority each job's message was sent with, by job id (:func:`sent`)."""


@pytest.fixture
def sent(monkeypatch):
    """What judging sends, as (task, kwargs, queue named in the message or None); each
    job's priority in :data:`PRIORITIES`."""
    messages = []
    PRIORITIES.clear()

    def send_task(name, *, kwargs, queue=None, priority=0):
        messages.append((name, kwargs, queue))
        if name == handoff.JOB_TASK:
            PRIORITIES[kwargs["job_id"]] = priority

    monkeypatch.setattr(handoff, "send_task", send_task)
    return messages


def test_a_small_upload_waits_in_the_interactive_queue_and_a_big_one_in_the_heavy_one(
    organiser, personas, sent, settings, django_capture_on_commit_callbacks
):
    settings.EARSHOT_INTERACTIVE_UPLOAD_MAX_BYTES = 1024
    big = LINE * (1024 // len(LINE) + 1)  # just over 1 KiB
    with django_capture_on_commit_callbacks(execute=True):
        post(organiser, personas.collection, "runs", form_data(runs=[("small.run", LINE)]))
        post(organiser, personas.collection, "runs", form_data(runs=[("big.run", big)]))
    small_job, big_job = Job.objects.order_by("pk")
    assert (small_job.queue, big_job.queue) == (INTERACTIVE, HEAVY)
    jobs = [(kwargs["job_id"], queue) for name, kwargs, queue in sent if name == handoff.JOB_TASK]
    assert jobs == [(small_job.pk, None), (big_job.pk, HEAVY)]  # None: the default queue


def test_a_job_stopped_by_its_time_limit_fails_cleanly_and_try_again_sends_it_again(
    organiser, personas, sent, monkeypatch, django_capture_on_commit_callbacks
):
    def out_of_time(*, job, report):
        raise SoftTimeLimitExceeded

    kind_replaced(monkeypatch, "upload_runs", out_of_time)
    with django_capture_on_commit_callbacks(execute=True):
        post(organiser, personas.collection, "runs", form_data(runs=[("a.run", LINE)]))
    (job,) = run_jobs()
    assert (job.state, job.error) == (Job.FAILED, TIMED_OUT) and job_retryable(job)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        job = job_retry(job=job)
    assert job.state == Job.QUEUED and [k["job_id"] for _, k, _ in sent] == [job.pk]


@pytest.fixture
def broker(embedded_redis, redis_cache):
    """The session's Redis as broker and cache (as in production, one Redis for both)."""
    app = Celery("queues", set_as_current=False)  # leaves the project's app the current one
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = embedded_redis.url
    return app


def test_the_job_page_says_how_much_work_waits_before_it_in_its_queue(broker, client, personas):
    queue = f"test-{uuid.uuid4().hex[:12]}"  # of this test alone, no worker reads it (≤ 20)
    jobs = [
        Job.objects.create(
            kind="upload_runs",
            owner=personas.organiser,
            queue=queue,
            collection=personas.collection,
        )
        for _ in range(3)
    ]
    with broker.connection_for_write() as connection:
        for job in jobs:  # sent in this order: the first is taken first
            broker.send_task(handoff.JOB_TASK, kwargs={"job_id": job.pk}, queue=queue,
                             connection=connection)  # fmt: skip
    try:
        client.force_login(personas.organiser)
        status = client.get(f"/jobs/{jobs[1].pk}/status.json").json()
        assert (status["queue"], status["ahead"]) == (queue, 1)
        assert status["place"] == f"Waiting in the {queue} queue: 1 before it."
        assert client.get(f"/jobs/{jobs[0].pk}/status.json").json()["place"] == (
            f"Next in the {queue} queue."
        )
        assert (
            f"Waiting in the {queue} queue: 2 before it."
            in client.get(f"/jobs/{jobs[2].pk}/").content.decode()
        )
        Job.objects.filter(pk=jobs[2].pk).update(state=Job.RUNNING)  # taken: no place to say
        assert client.get(f"/jobs/{jobs[2].pk}/status.json").json()["place"] == ""
    finally:
        with broker.connection_for_write() as connection:
            connection.default_channel.client.delete(*priority_lists(queue))


def test_one_organisers_burst_is_sent_behind_everyone_elses_first_job(
    personas, sent, django_capture_on_commit_callbacks
):
    """Issue 28, item 6: twenty small uploads one organiser sent at once held another's
    upload for 35 s in a first-in, first-out queue. Each job is now sent with its owner's
    count of other active jobs as priority (0 is served first, 9 the last list)."""
    with django_capture_on_commit_callbacks(execute=True):
        burst = [job_start(kind="upload_runs", owner=personas.organiser) for _ in range(20)]
        other = job_start(kind="upload_runs", owner=personas.other_organiser)
    assert [PRIORITIES[job.pk] for job in burst] == [*range(10), *[9] * 10]
    assert PRIORITIES[other.pk] == 0  # before the burst's second job
    Job.objects.filter(pk__in=[j.pk for j in burst[:15]]).update(state=Job.DONE)
    with django_capture_on_commit_callbacks(execute=True):
        later = job_start(kind="upload_runs", owner=personas.organiser)
    assert PRIORITIES[later.pk] == 5  # five of the burst still active


def test_the_place_in_the_queue_counts_the_more_urgent_lists_first(broker, client, personas):
    queue = f"test-{uuid.uuid4().hex[:12]}"
    jobs = [Job.objects.create(kind="upload_runs", owner=personas.organiser, queue=queue,
                               collection=personas.collection) for _ in range(3)]  # fmt: skip
    with broker.connection_for_write() as connection:
        for job, priority in zip(jobs, (3, 0, 0), strict=True):  # the first sent, the last taken
            broker.send_task(handoff.JOB_TASK, kwargs={"job_id": job.pk}, queue=queue,
                             priority=priority, connection=connection)  # fmt: skip
    try:
        client.force_login(personas.organiser)
        ahead = [client.get(f"/jobs/{j.pk}/status.json").json()["ahead"] for j in jobs]
        assert ahead == [2, 0, 1]
        redis = connection.default_channel.client
        assert redis.llen(queue) == 2 and redis.llen(f"{queue}\x06\x163") == 1
    finally:
        with broker.connection_for_write() as connection:
            connection.default_channel.client.delete(*priority_lists(queue))
