"""Crowd preference judging (thesis §3.2): the writes, one module per thing a person does.

The life of a worker: :func:`~crowd.services.workers.worker_arrive` (from a task
link) → :func:`~crowd.services.workers.worker_consent` → [the headphone screen]
→ :func:`~crowd.services.tasks.task_serve` (the current task — practice tasks
first when the campaign has them, then the quiz, then work; the same one until
it is answered) → :func:`~crowd.services.answers.answer_submit` (idempotent by
the task's key; trust recomputed) → ``task_serve`` … until the worker reaches the cap,
runs out of examples, or is stopped for low trust.

=============  ==========================================================================
``campaigns``  create a campaign with its examples and trap questions
``examples``   examples from systems' runs, from a CSV file, from the §3.2.1 generator
``traps``      trap questions: mark, forgive, draw from the official judgments
``workers``    a worker arrives through a task link and consents
``tasks``      serve a worker's next task; give back slots of tasks left unanswered
``quiz``       quiz questions made from the judgments, one worker's each
``answers``    a worker answers a task
``practice``   a practice task's answer, kept apart: it counts for nothing
``trust``      a worker's trust from trap questions and agreement, and what follows
=============  ==========================================================================

Trap questions and ordinary examples go through exactly the same statements when they
are served and answered, so neither the pages nor their timing tell them apart. Reads
are in :mod:`crowd.selectors.campaigns`; answers collected elsewhere are imported by
:mod:`pastanswers.importers.answers`.
"""
