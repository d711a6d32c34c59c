"""The one registry of background work: what each kind of work runs, filled by the apps.

Work sits below every app and imports none of them, so each app tells it, from its
``AppConfig.ready()``, what its kinds of work do:

- :func:`kind_register` — a **kind** of work and what runs it, on one of the two tables
  of background work: a job (:data:`JOB`: ``run(*, job, report) -> dict``, ``report``
  the counting :class:`work.progress.Report`) — crowd's ``generate_examples``,
  listening's ``listening_copies``, ingest's ``upload_<kind>`` (and pastanswers'
  ``upload_answers``) — or a recompute (:data:`RECOMPUTE`: ``run(*, target_id, report)``,
  ``report`` the fraction :class:`work.progress.FractionReport`) — evaluation's
  ``collection``, ``campaign``, ``lowcost`` and ``optimality``;
- :func:`table_register` — how a table's task body claims and runs one row, and how it
  gives up after the retries (work registers its jobs, evaluation its recomputes): the
  tasks of :mod:`work.tasks` call them;
- :func:`receiver_register` — what a hand-off message (:mod:`work.handoff`) asks for when
  it arrives (evaluation: a coalesced recompute; pairwise: the next round of a sort), called by the hand-off tasks of
  :mod:`work.tasks` and by the sweep for a hand-off the broker did not take;
- :func:`heartbeat_register` — where a worker's heartbeat is recorded (evaluation's
  ``WorkerHeartbeat``, read by the health check).

The sweep's steps are registered with :func:`work.sweep.sweep_register`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

JOB, RECOMPUTE = "job", "recompute"
"""The tables of background work a kind runs on (``work.models.Job``,
``evaluation.models.Recompute``)."""

Run = Callable[..., object]


@dataclass(frozen=True)
class Kind:
    """A kind of background work: its name (``Job.kind`` / ``Recompute.kind``), its table
    and what runs it."""

    name: str
    table: str
    run: Run


KINDS: dict[tuple[str, str], Kind] = {}


def kind_register(name: str, *, run: Run, table: str = JOB) -> Kind:
    """Let work of kind ``name`` on ``table`` be run by ``run`` (from the owning app's
    ``ready()``; registering a name again replaces it)."""
    if table not in (JOB, RECOMPUTE):
        raise ValueError(f"background work is a {JOB} or a {RECOMPUTE}, not {table!r}")
    kind = Kind(name=name, table=table, run=run)
    KINDS[(table, name)] = kind
    return kind


def kind_runner(name: str, *, table: str = JOB) -> Run | None:
    """What runs work of kind ``name`` on ``table``; ``None`` if nothing does."""
    kind = KINDS.get((table, name))
    return None if kind is None else kind.run


def kinds(table: str) -> list[str]:
    """The kinds registered on ``table``, in the order they were registered."""
    return [name for (of, name) in KINDS if of == table]


@dataclass(frozen=True)
class Table:
    """How the task of a table of background work runs one row:
    ``run(pk, *, task_id, worker) -> bool`` (claim and run it; ``False`` if not there to
    run) and ``fail(pk, error)`` (``error``: the exception the retries ran out on)."""

    run: Callable[..., bool]
    fail: Callable[..., None]


_TABLES: dict[str, Table] = {}


def table_register(table: str, *, run: Callable[..., bool], fail: Callable[..., None]) -> None:
    """Let the task of ``table`` (:mod:`work.tasks`) run a row with ``run``, and fail it
    with ``fail`` once its retries ran out."""
    _TABLES[table] = Table(run=run, fail=fail)


def table(name: str) -> Table:
    """The registered body of the task of table ``name`` (``LookupError`` if none)."""
    try:
        return _TABLES[name]
    except KeyError:
        raise LookupError(f"no app registered the background work of {name!r}") from None


_RECEIVERS: dict[str, list[Callable[[int], bool]]] = {}


def receiver_register(task: str, receive: Callable[[int], bool]) -> None:
    """What a hand-off message of ``task`` (:mod:`work.handoff`) does with its target's id;
    ``receive(target_id) -> bool`` (whether it asked for new work). Several apps may
    receive one hand-off (a campaign's accepted answers: evaluation's mapping, pairwise's
    sort), each in the order registered; registering the same function again changes
    nothing."""
    receivers = _RECEIVERS.setdefault(task, [])
    if receive not in receivers:
        receivers.append(receive)


def receivers(task: str) -> list[Callable[[int], bool]]:
    """Every receiver of a hand-off of ``task``, in the order registered."""
    return list(_RECEIVERS.get(task, ()))


def receiver(task: str) -> Callable[[int], bool] | None:
    """What a hand-off of ``task`` does (every receiver in turn: whether any asked for new
    work); ``None`` if nothing receives it."""
    found = receivers(task)
    if len(found) <= 1:
        return found[0] if found else None

    def receive_all(target_id: int) -> bool:
        return any([receive(target_id) for receive in found])  # a list: every one runs

    return receive_all


_HEARTBEAT: list[Callable[..., object]] = []


def heartbeat_register(record: Callable[..., object]) -> None:
    """Where a worker's heartbeat is recorded: ``record(*, hostname, nonce)``."""
    _HEARTBEAT[:] = [record]


def heartbeat_record(*, hostname: str, nonce: str = "") -> None:
    """Record that worker ``hostname`` is alive (nothing if no app records it)."""
    for record in _HEARTBEAT:
        record(hostname=hostname, nonce=nonce)
