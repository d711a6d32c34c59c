"""work.handoff: accepted answers go to Celery by task name, once per commit."""

import pytest
from django.db import transaction

from work import handoff, send
from work.handoff import ANSWERS_ACCEPTED_TASK, preference_answers_changed
from work.models import PendingHandoff

pytestmark = pytest.mark.django_db(transaction=True)

REAL_SEND_TASK = handoff.send_task  # taken before the autouse fixture stubs it


def test_many_changes_in_one_transaction_send_the_task_once_after_commit(handed_over):
    with transaction.atomic():
        for _ in range(5):
            preference_answers_changed(campaign_id=7)
        preference_answers_changed(campaign_id=8)
        assert handed_over == []  # nothing before the commit
    assert handed_over == [
        (ANSWERS_ACCEPTED_TASK, {"campaign_id": 7}),
        (ANSWERS_ACCEPTED_TASK, {"campaign_id": 8}),
    ]


def test_each_commit_sends_again(handed_over):
    for _ in range(2):
        with transaction.atomic():
            preference_answers_changed(campaign_id=7)
            preference_answers_changed(campaign_id=7)
    assert handed_over == [(ANSWERS_ACCEPTED_TASK, {"campaign_id": 7})] * 2


def test_a_rolled_back_transaction_sends_nothing(handed_over):
    with pytest.raises(RuntimeError), transaction.atomic():
        preference_answers_changed(campaign_id=7)
        raise RuntimeError("roll back")
    assert handed_over == []
    with transaction.atomic():
        pass
    assert handed_over == []


def test_a_broker_failure_is_logged_and_does_not_break_the_commit(monkeypatch, caplog):
    def broken(name, *, kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr(handoff, "send_task", broken)
    with transaction.atomic():
        preference_answers_changed(campaign_id=7)
    assert "could not send evaluation.preference_answers_accepted(campaign_id=7)" in caplog.text
    # One line, no traceback; the change is written down for the sweep to hand over.
    assert [r.exc_info for r in caplog.records if "could not send" in r.message] == [None]
    assert list(PendingHandoff.objects.values_list("task", "target_id")) == [
        (ANSWERS_ACCEPTED_TASK, 7)
    ]


def test_the_task_is_sent_by_name_on_the_celery_app(monkeypatch):
    sent = []
    monkeypatch.setattr(
        send.current_app,
        "send_task",
        lambda name, kwargs, **options: sent.append((name, kwargs, options)),
    )
    REAL_SEND_TASK(ANSWERS_ACCEPTED_TASK, kwargs={"campaign_id": 3})
    # Fire and forget: no result is asked for (there is no result backend).
    assert sent == [
        ("evaluation.preference_answers_accepted", {"campaign_id": 3}, {"ignore_result": True})
    ]
