"""Replacing what a kind of background work runs, for one test (:mod:`work.kinds`)."""

from __future__ import annotations

from work import kinds


def kind_replaced(monkeypatch, name: str, run, *, table: str = kinds.JOB) -> None:
    """Let work of kind ``name`` on ``table`` be run by ``run`` until the test ends."""
    monkeypatch.setitem(kinds.KINDS, (table, name), kinds.Kind(name=name, table=table, run=run))


def receiver_replaced(monkeypatch, task: str, receive) -> None:
    """Let a hand-off of ``task`` be received by ``receive`` alone until the test ends."""
    monkeypatch.setitem(kinds._RECEIVERS, task, [receive])
