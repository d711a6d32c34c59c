"""Background work, shared by every app: one abstract model, one state machine, one
registry, one task shell, one progress protocol, one sweep, one sender, queues, runs,
limits.

The apps import this package and it imports none of them (``tests/test_project_structure.py``):

- :mod:`work.models.work` — :class:`~work.models.Work`, the abstract model of every table of
  background work (``work.models.Job``, ``evaluation.models.Recompute``);
- :mod:`work.state` — the one state machine that moves them all (claim, heartbeat,
  progress, release, finish, fail, cancel, revive, resend; runs counted);
- :mod:`work.kinds` — the one registry: what each kind of job or recompute runs, the
  tasks' bodies, the hand-offs' receivers (filled by the apps);
- :mod:`work.tasks` — every Celery task of background work;
- :mod:`work.progress` — the one progress protocol (``done`` of ``total``);
- :mod:`work.sweep` — the one sweep, whose steps the apps register;
- :mod:`work.send` — the one sender: a task by name, fire and forget, within a deadline;
- :mod:`work.queues` — the two Celery queues (``interactive``, ``heavy``), which one a
  piece of work goes to, and where a message waits in its queue;
- :mod:`work.runs` — how many times a worker may claim a piece of work (:data:`MAX_RUNS`)
  and how a run that was stopped by its time limit is told;
- :mod:`work.limits` — what a computation costs, stated before it starts, and the
  refusal of work over the configured limits.

See ``docs/architecture.md`` ("Background work").
"""
