"""The operation of issue 30's move by area: models change app in the migrations' state
while their tables stay where they are.

Django's :class:`~django.db.migrations.SeparateDatabaseAndState` applies each state
operation to the rendered models, and a rendered model's change renders again every model
related to it: the move's hundreds of steps, nearly every model tied to ``Collection`` and
``User``, took half of the time of migrating an empty database (25 of 49 s profiled).
"""

from django.db.migrations import SeparateDatabaseAndState


class StateOnlyMove(SeparateDatabaseAndState):
    """:class:`~django.db.migrations.SeparateDatabaseAndState` whose state operations run
    on the models' descriptions alone; the models are rendered once, when next needed.

    The state reached is the same: only when it is rendered changes (Django's executor
    drops the rendered models the same way before it replays migrations it will not
    run, ``MigrationExecutor._migrate_all_backwards``)."""

    def state_forwards(self, app_label, state):
        state.__dict__.pop("apps", None)  # ProjectState.apps is a cached property
        super().state_forwards(app_label, state)
