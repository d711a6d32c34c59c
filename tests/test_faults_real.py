"""Faults with real processes: a Celery worker killed mid-recompute, Redis stopped and
restarted while answers arrive, PostgreSQL restarted while crowd workers answer.

Each test starts its own Redis, Celery worker(s), gunicorn and (the last) PostgreSQL,
stops them by PID, and checks what the issue asks: afterwards every committed answer
is there exactly once, nothing is left pending, and the results converge to what the
data says. Bounded: a few processes each, every wait has a deadline.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from crowd.models import Answer, PreferenceTask
from embedded.postgres import postgres_bindir, start_postgres
from embedded.redis import start_redis
from evaluation.models import (
    Leaderboard,
    Recompute,
    ReliabilityStudy,
    ResultsConfig,
    SatisfactionMapping,
)
from evaluation.services.recompute import WORKER_LOST
from ingest.models import Upload
from ingest.services.uploads import upload_create, upload_start
from tests.helpers.crowd_fixtures import make_campaign, right_choice
from tests.helpers.fixtures import _worker_database_url, missing
from tests.helpers.personas import make_user
from tests.helpers.processes import ROOT, CrowdClient, Processes, environment
from tests.helpers.sources import source_for
from work.models import Job, PendingHandoff

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def only_on(vendor: str):
    """Each scenario runs once, in one of ``make test``'s two passes: what it proves is
    about the process that dies (a worker, Redis, PostgreSQL), and each costs several
    real processes. Skipped (before its fixtures start anything) in the other pass."""
    return pytest.mark.skipif(
        connection.vendor != vendor, reason=f"runs once, in the {vendor} pass of make test"
    )


def wait_for(condition, *, timeout: float, what: str, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


@pytest.fixture
def processes(tmp_path):
    started = Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture
def own_redis(tmp_path):
    server = start_redis(tmp_path / "redis", log=tmp_path / "redis.log")
    try:
        yield server
    finally:
        server.stop()


def slow_collection() -> Collection:
    """12 systems × 40 queries with 50,000 resamples: a recompute of a few seconds."""
    rng = random.Random(3)
    collection = Collection.objects.create(owner=make_user("kill-9"), name="Slow")
    clips = Clip.objects.bulk_create(
        [Clip(collection=collection, external_id=f"d{i}") for i in range(70)]
    )
    queries = [Query.objects.create(collection=collection, clip=clips[i]) for i in range(40)]
    pool = clips[40:]
    source = source_for(collection, "panel")
    RelevanceJudgment.objects.bulk_create(
        RelevanceJudgment(query=q, clip=d, source=source, fine=rng.randrange(101),
                          broad=rng.randrange(3))
        for q in queries for d in pool
    )  # fmt: skip
    for s in range(12):
        system = System.objects.create(collection=collection, name=f"S{s}")
        RunEntry.objects.bulk_create(
            RunEntry(system=system, query=q, rank=r, clip=d)
            for q in queries for r, d in enumerate(rng.sample(pool, 5), start=1)
        )  # fmt: skip
    ResultsConfig.objects.create(collection=collection, resamples=50_000)
    return collection


@only_on("postgresql")  # the production database: the claim is a real row update there
def test_a_worker_killed_mid_recompute_is_taken_up_when_a_worker_starts_again(processes, own_redis):
    collection = slow_collection()
    row = Recompute.objects.create(kind="collection", target_id=collection.pk, state="queued")
    env = environment(database_url=_worker_database_url(), redis_url=own_redis.url,
                      EARSHOT_RECOMPUTE_DELAY_MS="0")  # fmt: skip
    # The pending row was never sent: the worker's start-up sweep sends it.
    first = processes.worker(env, name="worker-1", hostname="fault@%h")
    running = wait_for(
        lambda: Recompute.objects.filter(pk=row.pk, state="running").first(),
        timeout=60, what="the worker to start computing",
    )  # fmt: skip
    processes.kill(first)
    row.refresh_from_db()
    assert row.state == "running" and row.claimed_by == running.claimed_by
    assert not Leaderboard.objects.filter(collection=collection).exists()  # nothing half-stored

    restarted_at = time.time()
    processes.worker(env, name="worker-2", hostname="fault@%h")  # the same worker, restarted
    done = wait_for(
        lambda: Recompute.objects.filter(pk=row.pk, state="done", dirty=False).first(),
        timeout=180, what="the restarted worker to finish", every=0.5,
    )  # fmt: skip
    assert done.computations == 2  # claimed by the killed worker, then once more after the restart
    boards = Leaderboard.objects.filter(collection=collection)
    assert sorted(boards.values_list("measure", flat=True)) == [
        "CG(scale=broad)@5", "CG(scale=fine)@5", "DCG(scale=broad)@5", "DCG(scale=fine)@5",
    ]  # fmt: skip
    assert all(b.computed_at.timestamp() >= restarted_at for b in boards)
    assert ReliabilityStudy.objects.filter(collection=collection).count() == 4
    assert all(len(b.payload["rows"]) == 12 for b in boards)


@only_on("postgresql")  # as the test above: the claim is a real row update there
def test_a_recompute_whose_worker_is_killed_twice_under_it_is_failed_for_good(processes, own_redis):
    """Issue 21: after ``kill -9`` the recompute came back from zero for ever. It comes
    back once (its second run); when that dies too, the next start fails it for good."""
    collection = slow_collection()
    row = Recompute.objects.create(kind="collection", target_id=collection.pk, state="queued")
    env = environment(database_url=_worker_database_url(), redis_url=own_redis.url,
                      EARSHOT_RECOMPUTE_DELAY_MS="0")  # fmt: skip
    for run in (1, 2):  # each start's sweep sends it, a worker claims it, and is killed
        worker = processes.worker(env, name=f"worker-{run}", hostname="poison@%h")
        wait_for(
            lambda run=run: Recompute.objects.filter(pk=row.pk, state="running", runs=run)
            .first(),
            timeout=60, what=f"run {run} to start computing",
        )  # fmt: skip
        processes.kill(worker)
    processes.worker(env, name="worker-3", hostname="poison@%h")  # its start-up sweep
    failed = wait_for(
        lambda: Recompute.objects.filter(pk=row.pk, state="failed").first(),
        timeout=60, what="the third start to fail it",
    )  # fmt: skip
    assert (failed.error, failed.runs, failed.computations) == (WORKER_LOST, 2, 2)
    time.sleep(2)  # nothing claims it again: it stays as it was failed
    row.refresh_from_db()
    assert (row.state, row.computations) == ("failed", 2)
    assert not Leaderboard.objects.filter(collection=collection).exists()


@only_on("postgresql")  # as the tests above: the claim is a real row update there
def test_a_job_whose_pool_process_is_killed_is_taken_over_by_its_redelivered_task_at_once(
    processes, own_redis, tmp_path, settings
):
    """Issue 28, item 7: ``kill -9`` of the worker's pool process 1.1 s into a runs import
    left the job "running, 278/1000" for 15 minutes: the redelivered task was dropped
    until the sweep sent the job again. Now the redelivered task (the same task id) takes
    it over at once: the job is done, claimed twice, with every entry once."""
    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    owner = make_user("organiser-k9")
    collection = Collection.objects.create(owner=owner, name="Killed import")
    lines = "".join(f"S{s}\tq{q}\td{d}\n" for s in range(40) for q in range(100)
                    for d in range(25))  # 100,000 ranked-list lines, about 1.4 MB  # fmt: skip
    upload = upload_create(kind=Upload.RUNS, owner=owner, collection=collection,
                           files={"runs": [SimpleUploadedFile("runs.tsv", lines.encode())]},
                           options={"format": "ranked", "create_missing_clips": True,
                                    "create_missing_queries": True})  # fmt: skip
    env = environment(database_url=_worker_database_url(), redis_url=own_redis.url,
                      EARSHOT_UPLOAD_ROOT=str(settings.EARSHOT_UPLOAD_ROOT))  # fmt: skip
    worker = processes.worker(env, name="prefork", hostname="k9@%h", pool="prefork")
    job = upload_start(
        upload=upload
    )  # recorded, not sent (tests.helpers.crowd_fixtures.handed_over)
    send = f"from work import handoff; handoff.job_queued(job_id={job.pk}, queue='{job.queue}', on_error=print)"
    subprocess.run([sys.executable, "manage.py", "shell", "-c", send], cwd=ROOT, env=env,
                   check=True, timeout=60)  # fmt: skip  # as the page would, to this Redis
    running = wait_for(
        lambda: Job.objects.filter(pk=job.pk, state="running", done__gt=0).first(),
        timeout=60, what="the import to report progress", every=0.02,
    )  # fmt: skip
    os.kill(processes.pool_process(worker), signal.SIGKILL)  # the pool process, not the worker
    killed_at = time.monotonic()
    done = wait_for(
        lambda: Job.objects.filter(pk=job.pk, state__in=["done", "failed"]).first(),
        timeout=120, what="the job to end", every=0.2,
    )  # fmt: skip
    took = time.monotonic() - killed_at
    assert (done.state, done.runs, done.task_id) == ("done", 2, running.task_id), done.error
    assert took < 120 and RunEntry.objects.filter(system__collection=collection).count() == 100_000
    print(f"taken over and done {took:.1f} s after the kill (before: 15 min 25 s)")


def choose(key: str) -> str:
    """What a careful worker answers to the task ``key`` (right on trap questions)."""
    return right_choice(PreferenceTask.objects.get(key=key))


def converged(campaign) -> bool:
    """Nothing left to hand over or compute, and the mapping counts every accepted answer."""
    accepted = Answer.objects.filter(
        example__campaign=campaign, accepted_at__isnull=False, excluded=False,
        example__trap__isnull=True,
    ).count()  # fmt: skip
    row = Recompute.objects.filter(kind="campaign", target_id=campaign.pk).first()
    mapping = SatisfactionMapping.objects.filter(campaign=campaign).first()
    return bool(
        accepted
        and not PendingHandoff.objects.exists()
        and row is not None and row.state == "done" and not row.dirty
        and mapping is not None and mapping.payload["n_answers"] == accepted
    )  # fmt: skip


def each_acknowledged_answer_is_there_once(clients) -> None:
    keys = [key for client in clients for key in client.acknowledged]
    assert len(keys) == len(set(keys))
    stored = dict(Answer.objects.values_list("task__key", "worker__platform_id"))
    assert sorted(stored) == sorted(keys)  # no answer lost, none made up


@only_on("postgresql")  # on the production database, and pass 2 is the shorter one
def test_answers_keep_arriving_while_redis_is_stopped_and_restarted(
    processes, own_redis, crowd_collection, tmp_path
):
    campaign = make_campaign(crowd_collection, traps=1, quiz_length=1, answers_per_example=3,
                             max_answers_per_worker=50)  # fmt: skip
    env = environment(database_url=_worker_database_url(), redis_url=own_redis.url,
                      EARSHOT_RECOMPUTE_DELAY_MS="500", EARSHOT_SWEEP_SECONDS="2",
                      EARSHOT_RESEND_AFTER_SECONDS="3")  # fmt: skip
    worker = processes.worker(env, name="worker", hostname="redis-fault@%h", beat=True)
    base = processes.web(env)
    clients = [CrowdClient(base, campaign.token, f"w{i}", choose=choose) for i in range(3)]
    for client in clients:
        client.start()

    def answer(n):
        for client in clients:
            for _ in range(n):
                client.answer_one()

    answer(3)
    own_redis.stop()  # the broker goes away: answers must still be taken at once
    answer(4)
    assert PendingHandoff.objects.exists()  # changes written down, not lost
    restarted = start_redis(own_redis.socket.parent, log=tmp_path / "redis-2.log")
    own_redis.process = restarted.process  # stopped at the end by the fixture
    answer(10)  # the rest: every client runs out of examples
    assert all(len(client.acknowledged) == 12 for client in clients)

    wait_for(lambda: converged(campaign), timeout=120, what="the mapping to converge", every=0.5)
    each_acknowledged_answer_is_there_once(clients)
    assert all(client.failures == 0 for client in clients)  # Redis down never failed a request
    assert worker.poll() is None  # the worker reconnected instead of stopping (config/celery.py)


@only_on("sqlite")  # it starts and restarts its own PostgreSQL
def test_crowd_workers_answer_through_a_postgresql_restart(processes, own_redis, tmp_path):
    if postgres_bindir() is None:
        missing("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    cluster = start_postgres()
    try:
        restart_scenario(processes, own_redis, cluster, tmp_path)
    finally:
        cluster.stop()


SETUP = """
import django, os, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.helpers.crowd_fixtures import build_crowd_collection, make_campaign
from tests.helpers.personas import make_user
campaign = make_campaign(build_crowd_collection(make_user("pg-owner")), traps=1, quiz_length=1,
                         answers_per_example=3, max_answers_per_worker=50)
print(campaign.token)
"""


def restart_scenario(processes, own_redis, cluster, tmp_path):
    import psycopg

    env = environment(database_url=cluster.url, redis_url=own_redis.url,
                      EARSHOT_RECOMPUTE_DELAY_MS="500", EARSHOT_SWEEP_SECONDS="2",
                      EARSHOT_RESEND_AFTER_SECONDS="3")  # fmt: skip
    token = subprocess.run([sys.executable, "-c", SETUP], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True).stdout.split()[-1]  # fmt: skip
    processes.worker(env, name="worker", hostname="pg-fault@%h", beat=True)
    base = processes.web(env)

    def sql(query: str, *params):
        for _ in range(60):  # the server may be restarting
            try:
                with psycopg.connect(cluster.url, connect_timeout=2) as db:
                    return db.execute(query, params).fetchall()
            except psycopg.OperationalError:
                time.sleep(0.5)
        raise AssertionError("PostgreSQL did not come back")

    def choose_pg(key: str) -> str:
        ((swapped, accepted),) = sql(
            "SELECT t.swapped, q.accepted_answers FROM judging_preferencetask t "
            "LEFT JOIN judging_trapquestion q ON q.example_id = t.example_id WHERE t.key = %s",
            key,
        )
        stored = accepted[0] if accepted else "a_better"
        flip = {"a_better": "b_better", "b_better": "a_better"}
        return flip.get(stored, stored) if swapped else stored

    clients = [CrowdClient(base, token, f"p{i}", choose=choose_pg) for i in range(3)]
    for client in clients:
        client.start()
    for client in clients:
        for _ in range(3):
            client.answer_one()
    cluster.restart()  # every connection of gunicorn and of the worker breaks
    for _ in range(10):
        for client in clients:
            client.answer_one()
    assert all(len(client.acknowledged) == 12 for client in clients)

    def pg_converged() -> bool:
        (accepted,) = sql(
            "SELECT count(*) FROM judging_answer a JOIN judging_example e ON e.id = a.example_id "
            "LEFT JOIN judging_trapquestion q ON q.example_id = e.id "
            "WHERE a.accepted_at IS NOT NULL AND NOT a.excluded AND q.id IS NULL"
        )[0]
        mapping = sql("SELECT payload FROM evaluation_satisfactionmapping")
        row = sql("SELECT state, dirty FROM evaluation_recompute WHERE kind = 'campaign'")
        handoffs = sql("SELECT count(*) FROM judging_pendinghandoff")[0][0]
        return bool(mapping and mapping[0][0]["n_answers"] == accepted and accepted == 33
                    and row == [("done", False)] and handoffs == 0)  # fmt: skip

    wait_for(pg_converged, timeout=180, what="the mapping to converge", every=1.0)
    keys = [key for client in clients for key in client.acknowledged]
    stored = sql("SELECT t.key, count(a.id) FROM judging_preferencetask t "
                 "JOIN judging_answer a ON a.task_id = t.id GROUP BY t.key")  # fmt: skip
    assert sorted(k for k, _ in stored) == sorted(keys) and {n for _, n in stored} == {1}
