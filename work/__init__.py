"""Background work shared by ``judging`` and ``evaluation``: one state machine, one sweep,
one sender, queues, runs, limits.

Both apps import this package and it imports neither (``tests/test_project_structure.py``):

- :mod:`work.models.work` — :class:`~work.models.Work`, the abstract model of every table of
  background work (``work.models.Job``, ``evaluation.models.Recompute``);
- :mod:`work.state` — the one state machine that moves them all (claim, heartbeat,
  progress, release, finish, fail, cancel, revive, resend; runs counted);
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
