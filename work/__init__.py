"""Background work shared by ``judging`` and ``evaluation``: queues, runs, limits.

Both apps import this package and it imports neither (``tests/test_project_structure.py``):

- :mod:`work.send` — the one sender: a task by name, fire and forget, within a deadline;
- :mod:`work.queues` — the two Celery queues (``interactive``, ``heavy``), which one a
  piece of work goes to, and where a message waits in its queue;
- :mod:`work.runs` — how many times a worker may claim a piece of work (:data:`MAX_RUNS`)
  and how a run that was stopped by its time limit is told;
- :mod:`work.limits` — what a computation costs, stated before it starts, and the
  refusal of work over the configured limits.

See ``docs/architecture.md`` ("Background work").
"""
