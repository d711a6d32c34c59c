"""Faults, one process: a broker that cannot be reached, a lost message, a dead worker.

Issue 11: with no broker, ``import_preference_answers`` committed, then hung ~45 s and
ended in a result-backend traceback; the campaign's recompute was left "pending" and
every later request, "Recompute now" included, joined it for 15 minutes. Nothing sent
recomputes left pending or running by a dead worker again, and nothing computed in the
foreground. (The same faults with real processes: ``tests/test_faults_real.py``.)
"""

import os
import socket
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from celery import Celery
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from evaluation.models import Leaderboard, Recompute
from evaluation.services import recompute as service
from evaluation.services.computers import recompute_run
from evaluation.services.recompute import recompute_request
from tests.helpers.fixtures import ROOT, _worker_database_url
from tests.helpers.importing import write_lines
from tests.helpers.work_kinds import kind_replaced
from work import handoff, send
from work.handoff import COLLECTION_CHANGED_TASK, send_within_deadline
from work.kinds import RECOMPUTE
from work.models import PendingHandoff
from work.sweep import work_sweep


def probe_app(broker_url: str) -> Celery:
    """A Celery app with the project's settings and another broker."""
    app = Celery("probe")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = broker_url
    return app


@pytest.fixture
def silent_broker():
    """A TCP port that accepts connections and never answers a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    server.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "broker", ["redis+socket:///nonexistent/redis.sock", f"redis://127.0.0.1:{closed_port()}/0"]
)
def test_a_broker_that_is_not_there_fails_the_send_within_the_deadline(broker):
    """The publish retry policy gives up on its own, before the 2 s deadline: the error is
    the broker's, not the deadline's."""
    app = probe_app(broker)
    with pytest.raises(Exception) as error:
        send_within_deadline(lambda: app.send_task("evaluation.recompute", args=[1]))
    assert not isinstance(error.value, TimeoutError), error.value


def test_a_broker_that_never_answers_is_given_up_at_the_deadline(silent_broker):
    app = probe_app(silent_broker)
    with pytest.raises(TimeoutError, match="within 2 s"):
        send_within_deadline(lambda: app.send_task("evaluation.recompute", args=[1]))


def test_there_is_no_result_backend_to_wait_on(settings):
    app = probe_app("redis+socket:///nonexistent/redis.sock")
    assert app.conf.result_backend is None and app.conf.task_ignore_result is True
    assert type(app.backend).__name__ == "DisabledBackend"


# --- the state machine under a broker that cannot be reached ---------------------------


@pytest.fixture
def broker_down(monkeypatch):
    """Every send fails as a real dead broker does (the real one: test_faults_real.py)."""
    from kombu.exceptions import OperationalError

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(send.current_app, "send_task", refuse)
    monkeypatch.setattr(handoff, "send_task", lambda name, *, kwargs, **options: refuse())


@pytest.mark.django_db(transaction=True)
def test_a_recompute_whose_send_failed_is_sent_again_by_the_next_request(
    personas, broker_down, monkeypatch, caplog
):
    assert recompute_request(kind="collection", target_id=personas.collection.pk) is True
    row = Recompute.objects.get()
    assert (row.state, row.enqueued_at) == ("queued", None)
    assert "could not send recompute" in caplog.text
    assert [r.exc_info for r in caplog.records if "could not send" in r.message] == [None]
    sent = []
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: sent.append(pk) or True)
    # The broker is back: the very next request sends it, not one 15 minutes later.
    assert recompute_request(kind="collection", target_id=personas.collection.pk) is True
    assert sent == [row.pk]
    # A recent send is joined, not repeated...
    assert recompute_request(kind="collection", target_id=personas.collection.pk) is False
    # ...but "Recompute now" sends it again (a lost message is never waited for).
    assert recompute_request(kind="collection", target_id=personas.collection.pk, resend=True)
    assert sent == [row.pk, row.pk]


@pytest.mark.django_db(transaction=True)
def test_a_change_not_handed_over_is_written_down_and_the_sweep_hands_it_over(
    personas, broker_down, monkeypatch
):
    with transaction.atomic():
        handoff.collection_data_changed(collection_id=personas.collection.pk)
    assert list(PendingHandoff.objects.values_list("task", "target_id")) == [
        (COLLECTION_CHANGED_TASK, personas.collection.pk)
    ]
    sent = []
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: sent.append(pk) or True)
    report = work_sweep()
    row = Recompute.objects.get(kind="collection", target_id=personas.collection.pk)
    assert (report.handed_over, row.state, sent) == (1, "queued", [row.pk])
    assert not PendingHandoff.objects.exists()


@pytest.mark.django_db
def test_the_sweep_revives_a_dead_workers_recompute_and_resends_lost_ones(monkeypatch):
    sent = []
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: sent.append(pk) or True)
    now = timezone.now()
    dead = Recompute.objects.create(kind="collection", target_id=1, state="running",
                                    started_at=now, heartbeat_at=now - timedelta(minutes=5))  # fmt: skip
    alive = Recompute.objects.create(kind="collection", target_id=2, state="running",
                                     started_at=now, heartbeat_at=now)  # fmt: skip
    lost = Recompute.objects.create(kind="campaign", target_id=3, state="queued",
                                    enqueued_at=now - timedelta(hours=1))  # fmt: skip
    fresh = Recompute.objects.create(kind="campaign", target_id=4, state="queued",
                                     enqueued_at=now)  # fmt: skip
    report = work_sweep()
    assert (report.revived, report.sent) == (1, 2)
    assert sorted(sent) == sorted([dead.pk, lost.pk])
    statuses = dict(Recompute.objects.values_list("pk", "state"))
    assert statuses == {dead.pk: "queued", alive.pk: "running", lost.pk: "queued",
                        fresh.pk: "queued"}  # fmt: skip


@pytest.mark.django_db
def test_a_starting_worker_revives_what_its_earlier_life_left_running_at_once(monkeypatch):
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: True)
    now = timezone.now()
    mine = Recompute.objects.create(kind="collection", target_id=1, state="running",
                                    claimed_by="celery@box", started_at=now - timedelta(seconds=5),
                                    heartbeat_at=now)  # fmt: skip
    other = Recompute.objects.create(kind="collection", target_id=2, state="running",
                                     claimed_by="celery@other", started_at=now, heartbeat_at=now)  # fmt: skip
    work_sweep(worker="celery@box", started_at=now)
    assert Recompute.objects.get(pk=mine.pk).state == "queued"
    assert Recompute.objects.get(pk=other.pk).state == "running"


@pytest.mark.django_db
def test_a_task_redelivered_after_its_worker_process_died_claims_its_own_row(monkeypatch):
    calls = []
    kind_replaced(monkeypatch, "campaign", lambda *, target_id, report: calls.append(target_id),
                  table=RECOMPUTE)  # fmt: skip
    row = Recompute.objects.create(kind="campaign", target_id=7, state="queued")
    from evaluation.services.recompute import recompute_claim

    assert recompute_claim(recompute_id=row.pk, task_id="task-1", worker="w@a")
    # The pool process running task-1 is killed; the message comes back to task-1 …
    assert recompute_run(recompute_id=row.pk, task_id="task-2") is False  # another task: no
    assert recompute_run(recompute_id=row.pk, task_id="task-1") is True  # its own: yes
    assert calls == [7] and Recompute.objects.get().state == "done"


# --- manage.py recompute: in the foreground, no broker --------------------------------


@pytest.mark.django_db
def test_recompute_with_no_argument_computes_everything_pending_with_progress(
    small_collection, capsys, broker_down
):
    Recompute.objects.create(kind="collection", target_id=small_collection.pk, state="queued")
    PendingHandoff.objects.create(task=COLLECTION_CHANGED_TASK, target_id=small_collection.pk)
    call_command("recompute")
    out = capsys.readouterr().out
    assert "1 change(s) not handed over and 0 recompute(s) of dead workers taken up" in out
    assert f"collection {small_collection.pk} “Tiny collection”: computing" in out
    assert "%" in out and "1 computed, 0 failed" in out
    assert Recompute.objects.get().state == "done"
    assert Leaderboard.objects.filter(collection=small_collection).exists()


@pytest.mark.django_db
def test_recompute_by_name_skips_what_a_live_worker_computes_unless_forced(
    small_collection, capsys, broker_down
):
    now = timezone.now()
    Recompute.objects.create(kind="collection", target_id=small_collection.pk, state="running",
                             claimed_by="celery@busy", started_at=now, heartbeat_at=now)  # fmt: skip
    call_command("recompute", "--collection", "Tiny collection")
    assert "being computed by celery@busy now; skipped" in capsys.readouterr().out
    assert not Leaderboard.objects.exists()
    call_command("recompute", "--collection", str(small_collection.pk), "--force")
    assert Recompute.objects.get().state == "done" and Leaderboard.objects.exists()


@pytest.mark.django_db
def test_recompute_says_nothing_is_pending_and_names_an_unknown_target(capsys):
    call_command("recompute")
    assert capsys.readouterr().out.strip() == "Nothing to compute."
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no preference campaign with id or name 'Nope'"):
        call_command("recompute", "--campaign", "Nope")


# --- a command with a dead broker: one line, exit 0, data committed --------------------


@pytest.mark.django_db(transaction=True)
def test_an_import_with_no_broker_says_so_in_one_line_and_exits_0(personas, tmp_path):
    path = write_lines(tmp_path, "qrels.txt", "c1 0 c2 2", "c1 0 c3 0")
    env = dict(os.environ, DATABASE_URL=_worker_database_url(),
               REDIS_URL=f"redis+socket://{tmp_path / 'no-redis.sock'}")  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "import_judgments", str(personas.collection.pk), str(path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Read 2 judgments" in done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(
        "could not send evaluation.collection_data_changed"
    ), done.stderr
    assert "Traceback" not in done.stderr
    assert personas.collection.judgment_sources.get(name="qrels.txt").judgments.count() == 2
    assert PendingHandoff.objects.filter(target_id=personas.collection.pk).exists()


def test_a_send_never_outlives_its_deadline_thread():
    """The deadline's thread is a daemon: a broker that never answers holds no exit."""
    started = threading.Event()

    def hang():
        started.set()
        threading.Event().wait(60)

    with pytest.raises(TimeoutError):
        send_within_deadline(hang, seconds=0.1)
    assert started.is_set()
    assert all(t.daemon for t in threading.enumerate() if t.name == "earshot-send")
